// Fibers for the simulator: each simulated session runs the product's code on a stack of its own, and
// the scheduler (on the main stack) resumes one at a time, so that every interleaving is a choice of
// the scheduler, made from a seed, and replayed exactly. A fiber that is never resumed again (its
// server crashed, or its call was refused) is simply dropped: the engine keeps only plain data on
// its frames, so nothing is left to destroy, as when PostgreSQL's error longjmps over them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace idgen::sim {

class Fiber {
 public:
  using Body = void (*)(void* arg);
  static constexpr size_t kStackSize = 256 * 1024;

  Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // Starts body(arg) on this fiber's stack (whatever ran there before is dropped) and runs it until
  // it yields or ends.
  void Start(Body body, void* arg);
  // Runs the fiber until it yields or ends. Only from the scheduler.
  void Resume();
  // From inside the running fiber: back to the scheduler.
  static void Yield();
  // From inside the running fiber: back to the scheduler, never to return (the fiber is dropped).
  [[noreturn]] static void Abandon();
  bool Running() const { return started_ && !ended_; }
  // The fiber that runs now (nullptr on the scheduler's stack).
  static Fiber* Current();

 private:
  static void Entry();
  std::unique_ptr<unsigned char[]> stack_;
  void* sp_ = nullptr;
  Body body_ = nullptr;
  void* arg_ = nullptr;
  bool started_ = false;
  bool ended_ = false;
};

}  // namespace idgen::sim
