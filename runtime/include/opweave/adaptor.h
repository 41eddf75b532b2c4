// The adaptor: converts, on the device, what a vendor's kernel does not accept (DIOPI's
// adaptor, generated from data instead of written per vendor).
//
// vendors/<name>/kernel_support.yaml says which dtypes (and whether only contiguous tensors)
// each kernel accepts; the vendor library exports it as a table (opweave/kernel_support.h).
// At load, each restricted function's slot gets its generated thunk
// (generated/aten/adaptor_thunks.cpp) and the vendor's kernel moves behind it. A thunk builds
// an Adaptation, hands it every tensor argument, and calls the kernel with what it got back:
//
//   opweave::Adaptation a(opweave::slot::diopiAdd);
//   a.out(out, true); a.in(input, true); a.in(other, true);
//   if (a.declined()) return diopiDtypeNotSupported;   // the op runs on the CPU
//   return a.finish(a.kernel<decltype(&::diopiAdd)>()(ctx, out, input, other, alpha));
//
// A call whose arguments the vendor accepts as they are costs one table lookup per tensor.
// Header without ATen: the thunks' translation unit stays cheap to compile.
#pragma once

#include <diopi/diopirt.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "opweave/diopi_slots.h"

namespace opweave {

// One generated entry per slot: the thunk, and the dtypes the catalogue lists for the family
// (bit 1 << diopiDtype_t): only those are adapted, anything else reaches the kernel as today.
struct AdaptorThunk {
  void* thunk;
  uint64_t family_dtypes;
};
extern const AdaptorThunk kAdaptorThunks[kDiopiSlotArraySize];
// Catalogue spelling of each diopiDtype_t value ("float16"), generated from codegen/dtypes.py.
constexpr int kDiopiDtypeCount = 17;
extern const char* const kDiopiDtypeNames[kDiopiDtypeCount];

// Reads the vendor library's owGetKernelSupport table (if it exports one) and installs the
// thunks; called once by the vendor loader after the slots are resolved. Returns "" or why
// the table was refused (the vendor then runs unadapted, as if it had none).
const char* install_adaptor(void* vendor_handle);

// ---- reporting (opweave.adaptor_stats, opweave.report) ----
// Per adapted function: what each source dtype is computed in ("float16" -> "float32"; "" when
// declined), whether the kernel needs contiguous tensors, and the calls converted since start
// (or the last reset), by source dtype ("strided": made contiguous only).
struct AdaptedFunction {
  std::string name;
  bool contiguous;
  std::vector<std::pair<std::string, std::string>> conversions;
  std::vector<std::pair<std::string, uint64_t>> counts;
};
std::vector<AdaptedFunction> adaptor_functions(bool reset);
bool adaptor_narrowing();
const std::string& adaptor_install_error();

class Adaptation {
 public:
  explicit Adaptation(int slot) : slot_(slot) {}
  ~Adaptation();
  Adaptation(const Adaptation&) = delete;
  Adaptation& operator=(const Adaptation&) = delete;

  // `family`: the argument takes the family's dtypes, so the vendor's dtype rule applies;
  // otherwise only its contiguity rule does. A converted argument's handle is replaced.
  void in(diopiConstTensorHandle_t& h, bool family);
  void in(diopiTensorHandle_t& h, bool family);     // read-only, passed non-const (Adam's grad)
  void inout(diopiTensorHandle_t& h, bool family);  // read and written: back in finish()
  void out(diopiTensorHandle_t& h, bool family);    // written only: not copied in
  void in_list(diopiConstTensorHandle_t*& list, int64_t n, bool family);
  void inout_list(diopiTensorHandle_t*& list, int64_t n, bool family);
  void out_list(diopiTensorHandle_t*& list, int64_t n, bool family);

  bool declined() const { return declined_; }
  // After the kernel: on success, writes converted outputs back into the caller's tensors.
  diopiError_t finish(diopiError_t status);

  template <class Fn>
  Fn kernel() const {
    return reinterpret_cast<Fn>(vendor_kernel(slot_));
  }
  static void* vendor_kernel(int slot);

 private:
  struct State;  // the temporaries; allocated only when something is converted
  State& state();
  void written(diopiTensorHandle_t& h, bool family, bool read);
  void written_list(diopiTensorHandle_t*& list, int64_t n, bool family, bool read);

  int slot_;
  bool declined_ = false;
  State* state_ = nullptr;  // owned; deleted by the destructor (State is defined in the .cpp)
};

}  // namespace opweave
