// Helpers that every fmgr file shares (pg.hpp).
#include "pg/pg.hpp"

extern "C" {
#include "access/htup_details.h"
#include "common/cryptohash.h"
#include "common/hmac.h"
#include "utils/inval.h"
}

namespace idgen::pg {

Datum RowDatum(FunctionCallInfo fcinfo, const Datum* values, int count) {
  TupleDesc desc;
  if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE || desc->natts != count) {
    elog(ERROR, "return type must be a row type of %d columns", count);
  }
  bool nulls[16] = {};
  Assert(count <= 16);
  return HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), const_cast<Datum*>(values), nulls));
}

void HmacSha256(std::string_view key, std::string_view message, uint8_t (&out)[32]) {
  pg_hmac_ctx* ctx = pg_hmac_create(PG_SHA256);
  if (ctx == nullptr) ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
  if (pg_hmac_init(ctx, reinterpret_cast<const uint8*>(key.data()), key.size()) < 0 ||
      pg_hmac_update(ctx, reinterpret_cast<const uint8*>(message.data()), message.size()) < 0 ||
      pg_hmac_final(ctx, out, sizeof out) < 0) {
    const char* reason = pg_hmac_error(ctx);
    pg_hmac_free(ctx);
    ereport(ERROR, errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not compute HMAC-SHA256: %s", reason));
  }
  pg_hmac_free(ctx);
}

namespace {

// idgen's caches that follow the relcache: few, fixed in number (one per cache).
constexpr int kMaxRelationCallbacks = 8;
void (*relation_callbacks[kMaxRelationCallbacks])(Datum, Oid);
int relation_callback_count = 0;

void RelationChanged(Datum arg, Oid relid) {
  for (int i = 0; i < relation_callback_count; ++i) relation_callbacks[i](arg, relid);
}

}  // namespace

void OnRelationChange(void (*callback)(Datum arg, Oid relid)) {
  for (int i = 0; i < relation_callback_count; ++i) {
    if (relation_callbacks[i] == callback) return;
  }
  if (relation_callback_count == kMaxRelationCallbacks) elog(ERROR, "idgen has too many relcache callbacks");
  if (relation_callback_count == 0) CacheRegisterRelcacheCallback(RelationChanged, 0);
  relation_callbacks[relation_callback_count++] = callback;
}

}  // namespace idgen::pg
