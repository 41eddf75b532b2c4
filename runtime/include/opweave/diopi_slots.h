// The table of DIOPI kernels resolved from the vendor library at load time.
//
// One slot per function of the catalogue (generated/aten/diopi_functions.inc), in its order.
// A slot is nullptr when the vendor lacks the kernel: the generated wrapper then falls back
// to CPU. Slots are written once during library load and only read afterwards.
//
//   if (auto fn = OPWEAVE_DIOPI_SLOT(diopiAdd)) { ... fn(&ctx, out, a, b, &alpha) ... }
#ifndef OPWEAVE_DIOPI_SLOTS_H_
#define OPWEAVE_DIOPI_SLOTS_H_

namespace opweave {
namespace slot {

// slot::diopiAdd is the index of diopiAdd; slot::kCount the number of catalogue functions.
enum : int {
#if __has_include("aten/diopi_functions.inc")
#define OPWEAVE_DIOPI_FN(name) name,
#include "aten/diopi_functions.inc"
#undef OPWEAVE_DIOPI_FN
#endif
  kCount
};

}  // namespace slot

constexpr int kDiopiFnCount = slot::kCount;
constexpr int kDiopiSlotArraySize = kDiopiFnCount > 0 ? kDiopiFnCount : 1;

// Kernel addresses by slot index (nullptr: missing in the vendor).
extern void* g_diopi_slots[kDiopiSlotArraySize];
// Function names by slot index.
extern const char* const kDiopiFnNames[kDiopiSlotArraySize];

// Slot index of a DIOPI function name, -1 when it is not in the catalogue (slow: a scan).
int diopi_slot_index(const char* name);

}  // namespace opweave

// Typed kernel pointer of a catalogue function (needs <diopi/prototypes.h> or <diopi/functions.h>
// for its type).
#define OPWEAVE_DIOPI_SLOT(name) \
  reinterpret_cast<decltype(&::name)>(::opweave::g_diopi_slots[::opweave::slot::name])

#endif  // OPWEAVE_DIOPI_SLOTS_H_
