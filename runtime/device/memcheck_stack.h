// Stacks for the device memory checker (memcheck.cpp): the calling thread's C++ return
// addresses and Python frames, captured cheaply, turned into text only when a report asks.
#ifndef OPWEAVE_DEVICE_MEMCHECK_STACK_H_
#define OPWEAVE_DEVICE_MEMCHECK_STACK_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace opweave {
namespace memcheck {

constexpr int kMaxCppFrames = 40;
constexpr int kMaxPyFrames = 16;

struct PyFrame {
  int32_t code;  // index into the interned code objects (code_info)
  int32_t line;
  bool operator==(const PyFrame& o) const { return code == o.code && line == o.line; }
};

struct Trace {
  std::vector<void*> cpp;   // return addresses, innermost first
  std::vector<PyFrame> py;  // innermost first; empty when the thread runs no Python
  size_t hash() const;
  bool operator==(const Trace& o) const { return cpp == o.cpp && py == o.py; }
};

// The calling thread's stacks. `skip` innermost C++ frames are dropped besides capture's own
// (the checker's and the allocator's frames). Takes the GIL when the thread has Python frames
// and does not hold it (torch releases it around every op), so call it with no lock held that
// a thread holding the GIL could wait for.
// `from`: the return address of the frame that should come first (__builtin_return_address(0)
// of the caller): the stack starts there whatever the compiler inlined or kept (an -O1
// sanitizer build keeps frames an -O3 build folds); without it, `skip` frames are dropped.
Trace capture(int skip, const void* from = nullptr);

struct CodeInfo {
  std::string file;
  std::string function;
};
CodeInfo code_info(int32_t code);

struct CppFrame {
  std::string text;  // "function [object]" or, when no symbol covers it, "object+0xoffset"
  bool named;
  bool interpreter;  // a frame of the Python interpreter: the C++ stack of a Python call ends
};
// Symbolised once per address (dladdr, then the object's own symbol table for functions it
// does not export), demangled, argument list dropped.
CppFrame cpp_frame(void* pc);

}  // namespace memcheck
}  // namespace opweave

#endif  // OPWEAVE_DEVICE_MEMCHECK_STACK_H_
