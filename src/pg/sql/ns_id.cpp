// SQL functions of nanosecond IDs: idgen.ns_id() and idgen.ns_id_time().
#include <cstring>

#include "core/ns_id.hpp"
#include "pg/effects/generator.hpp"
#include "pg/guard.hpp"
#include "pg/effects/mark.hpp"
#include "pg/module.hpp"
#include "pg/pg.hpp"
#include "pg/settings/settings.hpp"
#include "pg/effects/shared.hpp"

extern "C" {
#include "access/xlog.h"
}

namespace idgen::pg {

namespace {

// The alphabet of the last call, kept: a column default passes the same one every time.
struct CachedAlphabet {
  char text[65];
  size_t size;
  ns_id::Alphabet alphabet;
};
CachedAlphabet cached{"", 0, {}};

const ns_id::Alphabet& AlphabetOf(std::string_view text) {
  if (cached.size == 0 || text != std::string_view(cached.text, cached.size)) {
    const ns_id::Alphabet alphabet = Guarded([&] { return ns_id::MakeAlphabet(text); });
    memcpy(cached.text, text.data(), text.size());  // at most 64 bytes: MakeAlphabet checked it
    cached.size = text.size();
    cached.alphabet = alphabet;
  }
  return cached.alphabet;
}

}  // namespace

IDGEN_FUNCTION(idgen_ns_id) {
  const int random_bits = PG_GETARG_INT32(0);
  const ns_id::Alphabet& alphabet = AlphabetOf(StringView(PG_GETARG_TEXT_PP(1)));
  Guarded([&] { ns_id::CheckRandomBits(random_bits); });
  const StateRef ref = GeneratorState();
  settings::CheckConfigured(settings::Of(kFamilyNsId));
  // On a standby (beside its primary) and without shared state, nothing orders the word against
  // the others that make ns_ids: the random bits alone keep them unique, if there are enough.
  if ((RecoveryInProgress() || !ref.shared) && random_bits < ns_id::kMinRandomBitsAlone) {
    char message[160], hint[160];
    snprintf(message, sizeof message, "ns_id needs at least %d random bits %s", ns_id::kMinRandomBitsAlone,
             RecoveryInProgress() ? "during recovery" : "without shared state");
    snprintf(hint, sizeof hint, "Ask for them, e.g. idgen.ns_id(random_bits => %d), or generate on the primary%s.",
             ns_id::kMinRandomBitsAlone, RecoveryInProgress() ? "" : " with idgen preloaded");
    Raise(ErrorKind::kPrerequisite, message,
          "Here ns_ids are unique by their random bits alone, not by the server's order: with fewer, two servers "
          "that make IDs in the same nanosecond collide too often.",
          hint);
  }
  const int64_t max_lead_ms = settings::max_clock_lead_ms;
  const ns_id::Value value = Generate(kFamilyNsId, ref, [&] {
    return ns_id::Next(ref.state.family_word[kFamilyNsId], ref.state.stats[kFamilyNsId], WallClock(), BackendRandom(),
                       MyProcPid, random_bits, max_lead_ms);
  });
  const ns_id::Text text = Guarded([&] { return ns_id::Format(value, random_bits, alphabet); });
  return TextDatum(text.view());
}

IDGEN_FUNCTION(idgen_ns_id_time) {
  const std::string_view value = StringView(PG_GETARG_TEXT_PP(0));
  const int random_bits = PG_GETARG_INT32(1);
  const ns_id::Alphabet& alphabet = AlphabetOf(StringView(PG_GETARG_TEXT_PP(2)));
  const int64_t ns = Guarded([&] { return ns_id::TimeNs(value, random_bits, alphabet); });
  PG_RETURN_TIMESTAMPTZ(FromUnixUs(ns / 1000));
}

}  // namespace idgen::pg
