// make bench-contention: the contention of one shared state word, measured alone, outside
// PostgreSQL. N threads (1, 2, 4 ... up to the cores present) take values from one word for a fixed
// time, four ways, in the same run:
//
//   advance  the core's own Advance (src/core/state.hpp, linked, not copied) with UUIDv7's rules and
//            clock: one fetch_add per value, a compare-and-swap only to jump the word to the clock
//   cas      idgen 1.1's loop: read the clock, compare-and-swap the word to max(old + 1, now), and
//            on failure read the clock again (the loop that collapsed on 16 cores)
//   next     the core's whole uuidv7::Next (Advance, the UUID's bytes, its random bits): a call of
//            idgen.uuidv7() without PostgreSQL around it
//   own      Advance on a word per thread: the ceiling, with nothing shared
//
// and prints, per number of threads, millions of values a second over all threads. Both advance
// and cas read the same clock, the same way, once per value. A value that Advance says must wait
// for the clock (more than 65,536 in a millisecond) is waited for, as the server would.
//
//   contention [--seconds S] [--threads "1 2 4 8 16"] [--tsv FILE]   (FILE: the figures, tab-separated)
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/clock.hpp"
#include "core/random.hpp"
#include "core/state.hpp"
#include "core/uuidv7.hpp"

namespace {

using idgen::AdvanceRules;
using idgen::FamilyStats;
using idgen::NextWord;
using idgen::StateWord;

idgen::SystemClock wall_clock;

// UUIDv7's ticks (1/4096 ms), as uuidv7::Next reads them.
uint64_t NowSteps() {
  const int64_t ns = wall_clock.NowNs();
  return idgen::uuidv7::Ticks(ns / 1000000, ns % 1000000);
}

StateWord shared_word;
FamilyStats shared_stats;

void WaitForStep(uint64_t step) {
  while (NowSteps() < step) {
  }
}

uint64_t AdvanceOnce(StateWord& word, FamilyStats& stats) {
  const NextWord next = idgen::Advance(word, stats, idgen::uuidv7::kRules, NowSteps);
  if (next.wait_tick != 0) WaitForStep(next.wait_tick);
  return next.word;
}

// idgen 1.1's advance (one state word, the clock in the word's units): a compare-and-swap loop with
// the clock read inside it.
uint64_t CasOnce(StateWord& word) {
  uint64_t old = word.value.load(std::memory_order_acquire);
  for (;;) {
    const uint64_t now = NowSteps() << idgen::uuidv7::kCounterBits;
    const uint64_t next = now > old ? now : old + 1;
    if (word.value.compare_exchange_weak(old, next, std::memory_order_acq_rel, std::memory_order_acquire)) return next;
  }
}

// Random bits for uuidv7::Next from a cheap generator: the bench measures the word, not a CSPRNG.
class FastSource final : public idgen::RandomSource {
 public:
  bool Fill(uint8_t* out, size_t n) override {
    for (size_t i = 0; i < n; i += 8) {
      state_ ^= state_ << 13;
      state_ ^= state_ >> 7;
      state_ ^= state_ << 17;
      std::memcpy(out + i, &state_, n - i < 8 ? n - i : 8);
    }
    return true;
  }

 private:
  uint64_t state_ = 0x9E3779B97F4A7C15ull;
};

struct alignas(64) Count {
  uint64_t n = 0;
};

enum class Way { kAdvance, kCas, kNext, kOwn };
const char* Name(Way way) {
  switch (way) {
    case Way::kAdvance:
      return "advance";
    case Way::kCas:
      return "cas";
    case Way::kNext:
      return "next";
    case Way::kOwn:
      return "own";
  }
  return "?";
}

// Millions of values a second over all threads.
double Run(Way way, int threads, double seconds) {
  shared_word.value.store(0);
  std::atomic<bool> go{false}, stop{false};
  std::vector<Count> counts(threads);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      StateWord own_word;
      FamilyStats own_stats;
      FastSource source;
      idgen::RandomPool pool(source);
      uint64_t n = 0, sink = 0;
      while (!go.load(std::memory_order_acquire)) {
      }
      while (!stop.load(std::memory_order_relaxed)) {
        for (int i = 0; i < 64; ++i) {
          switch (way) {
            case Way::kAdvance:
              sink += AdvanceOnce(shared_word, shared_stats);
              break;
            case Way::kCas:
              sink += CasOnce(shared_word);
              break;
            case Way::kNext: {
              const auto out = idgen::uuidv7::Next(shared_word, shared_stats, wall_clock, pool, 1);
              if (out.wait_until_ns != 0) {
                while (wall_clock.NowNs() < out.wait_until_ns) {
                }
              }
              sink += out.value.bytes[15];
              break;
            }
            case Way::kOwn:
              sink += AdvanceOnce(own_word, own_stats);
              break;
          }
        }
        n += 64;
      }
      counts[t].n = n + (sink == 42 ? 1 : 0);
    });
  }
  const auto start = std::chrono::steady_clock::now();
  go.store(true, std::memory_order_release);
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  stop.store(true);
  for (auto& w : workers) w.join();
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  uint64_t total = 0;
  for (const Count& c : counts) total += c.n;
  return static_cast<double>(total) / elapsed / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 1.0;
  FILE* tsv = nullptr;
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  std::vector<int> thread_counts;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
      seconds = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      std::istringstream list(argv[++i]);
      for (int n; list >> n;) thread_counts.push_back(n);
    } else if (!strcmp(argv[i], "--tsv") && i + 1 < argc) {
      tsv = fopen(argv[++i], "w");
      if (tsv == nullptr) {
        perror(argv[i]);
        return 1;
      }
    } else {
      fprintf(stderr, "usage: %s [--seconds S] [--threads \"1 2 4 ...\"] [--tsv FILE]\n", argv[0]);
      return 2;
    }
  }
  if (thread_counts.empty()) {
    for (int n = 1; n < cores; n *= 2) thread_counts.push_back(n);
    thread_counts.push_back(cores);
  }
  if (tsv != nullptr) fprintf(tsv, "threads\tadvance\tcas\tnext\town\n");
  printf("One state word, %d cores, %.1f s a point: millions of values a second over all threads\n\n", cores, seconds);
  printf("| threads | core Advance | 1.1's CAS loop | Advance ÷ CAS | core uuidv7::Next | a word per thread |\n");
  printf("|---:|---:|---:|---:|---:|---:|\n");
  for (int threads : thread_counts) {
    double result[4];
    for (Way way : {Way::kAdvance, Way::kCas, Way::kNext, Way::kOwn}) {
      result[static_cast<int>(way)] = Run(way, threads, seconds);
      fprintf(stderr, "  %d threads, %s: %.1f\n", threads, Name(way), result[static_cast<int>(way)]);
    }
    if (tsv != nullptr) {
      fprintf(tsv, "%d\t%.2f\t%.2f\t%.2f\t%.2f\n", threads, result[0], result[1], result[2], result[3]);
    }
    printf("| %d | %.1f | %.1f | %.1f | %.1f | %.1f |\n", threads, result[0], result[1], result[0] / result[1],
           result[2], result[3]);
    fflush(stdout);
  }
  if (tsv != nullptr) fclose(tsv);
  return 0;
}
