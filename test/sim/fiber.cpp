#include "sim/fiber.hpp"

#include <cstdio>
#include <cstdlib>

#if defined(__SANITIZE_ADDRESS__)
#define IDGEN_SIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IDGEN_SIM_ASAN 1
#endif
#endif
#ifdef IDGEN_SIM_ASAN
#include <sanitizer/asan_interface.h>
#endif

// The switch saves the callee-saved registers and the stack pointer of one stack and loads those of
// another: a few instructions, where swapcontext makes a system call each time (the simulator
// switches at every effect of every call).
#if defined(__x86_64__)
extern "C" void idgen_sim_switch(void** save_sp, void* load_sp);
asm(R"(
  .text
  .globl idgen_sim_switch
  .type idgen_sim_switch,@function
idgen_sim_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size idgen_sim_switch,.-idgen_sim_switch
  .section .note.GNU-stack,"",@progbits
  .text
)");
#elif defined(__aarch64__)
extern "C" void idgen_sim_switch(void** save_sp, void* load_sp);
asm(R"(
  .text
  .globl idgen_sim_switch
  .type idgen_sim_switch,%function
idgen_sim_switch:
  sub sp, sp, #176
  stp x19, x20, [sp, #0]
  stp x21, x22, [sp, #16]
  stp x23, x24, [sp, #32]
  stp x25, x26, [sp, #48]
  stp x27, x28, [sp, #64]
  stp x29, x30, [sp, #80]
  stp d8, d9, [sp, #96]
  stp d10, d11, [sp, #112]
  stp d12, d13, [sp, #128]
  stp d14, d15, [sp, #144]
  mov x2, sp
  str x2, [x0]
  mov sp, x1
  ldp x19, x20, [sp, #0]
  ldp x21, x22, [sp, #16]
  ldp x23, x24, [sp, #32]
  ldp x25, x26, [sp, #48]
  ldp x27, x28, [sp, #64]
  ldp x29, x30, [sp, #80]
  ldp d8, d9, [sp, #96]
  ldp d10, d11, [sp, #112]
  ldp d12, d13, [sp, #128]
  ldp d14, d15, [sp, #144]
  add sp, sp, #176
  ret
  .size idgen_sim_switch,.-idgen_sim_switch
  .section .note.GNU-stack,"",%progbits
  .text
)");
#else
#error "the simulator's fibers need x86-64 or aarch64"
#endif

namespace idgen::sim {

namespace {

Fiber* current = nullptr;
void* scheduler_sp = nullptr;
#ifdef IDGEN_SIM_ASAN
// What ASan needs to know of each switch: the stack the switch goes to, and (the scheduler's) where
// it was, as the fiber's first switch back reports it.
const void* scheduler_bottom = nullptr;
size_t scheduler_size = 0;
void* scheduler_fake = nullptr;
#endif

}  // namespace

Fiber::Fiber() : stack_(new unsigned char[kStackSize]) {}

Fiber* Fiber::Current() { return current; }

void Fiber::Entry() {
#ifdef IDGEN_SIM_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &scheduler_bottom, &scheduler_size);
#endif
  Fiber* self = current;
  self->body_(self->arg_);
  self->ended_ = true;
  Abandon();
}

void Fiber::Start(Body body, void* arg) {
  body_ = body;
  arg_ = arg;
  started_ = true;
  ended_ = false;
  // A fresh stack: the entry as the return address of the first switch, under six saved registers
  // (x86-64), or a frame whose x30 is the entry (aarch64). The stack pointer at the entry is as
  // after a call: 16-byte aligned less the return address.
  auto top = reinterpret_cast<uintptr_t>(stack_.get() + kStackSize) & ~uintptr_t{15};
  auto* sp = reinterpret_cast<void**>(top);
#if defined(__x86_64__)
  *--sp = nullptr;  // (the entry's own return address: it never returns)
  *--sp = reinterpret_cast<void*>(&Entry);
  for (int i = 0; i < 6; ++i) *--sp = nullptr;
#else
  sp -= 22;
  for (int i = 0; i < 22; ++i) sp[i] = nullptr;
  sp[11] = reinterpret_cast<void*>(&Entry);  // x30
#endif
  sp_ = sp;
  Resume();
}

void Fiber::Resume() {
  if (!Running()) return;
  current = this;
#ifdef IDGEN_SIM_ASAN
  __sanitizer_start_switch_fiber(&scheduler_fake, stack_.get(), kStackSize);
#endif
  idgen_sim_switch(&scheduler_sp, sp_);
#ifdef IDGEN_SIM_ASAN
  __sanitizer_finish_switch_fiber(scheduler_fake, nullptr, nullptr);
#endif
  current = nullptr;
}

void Fiber::Yield() {
  Fiber* self = current;
  if (self == nullptr) {
    std::fprintf(stderr, "sim: a yield outside a fiber\n");
    std::abort();
  }
#ifdef IDGEN_SIM_ASAN
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, scheduler_bottom, scheduler_size);
#endif
  idgen_sim_switch(&self->sp_, scheduler_sp);
#ifdef IDGEN_SIM_ASAN
  __sanitizer_finish_switch_fiber(fake, &scheduler_bottom, &scheduler_size);
#endif
}

void Fiber::Abandon() {
  Fiber* self = current;
  if (self == nullptr) {
    std::fprintf(stderr, "sim: an abandon outside a fiber\n");
    std::abort();
  }
  self->ended_ = true;
#ifdef IDGEN_SIM_ASAN
  __sanitizer_start_switch_fiber(nullptr, scheduler_bottom, scheduler_size);
#endif
  void* dropped = nullptr;
  idgen_sim_switch(&dropped, scheduler_sp);
  std::abort();  // (never resumed)
}

}  // namespace idgen::sim
