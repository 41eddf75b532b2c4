// The loaded vendor: its seam table, device count and load report.
//
// The vendor library is chosen once when libopweave.so is loaded (env OPWEAVE_VENDOR, default
// "sim"; a name selects libopweave_vendor_<name>.so next to libopweave.so, a path containing
// '/' is used as is). Nothing here reads the environment afterwards.
#ifndef OPWEAVE_VENDOR_H_
#define OPWEAVE_VENDOR_H_

#include <c10/macros/Macros.h>

#include <string>

#include "opweave/collective_seam.h"
#include "opweave/vendor_seam.h"

namespace opweave {

// Upper bound on devices the runtime tracks (fixed-size per-device tables, no locks).
constexpr int kMaxDevices = 16;

// Non-null once a vendor loaded successfully; never changes afterwards.
extern const owVendorSeam* g_seam;

[[noreturn]] void throw_no_vendor();

// The vendor's seam; throws c10::Error (with the load error) when no vendor is loaded.
inline const owVendorSeam& seam() {
  if (C10_UNLIKELY(g_seam == nullptr)) throw_no_vendor();
  return *g_seam;
}

// Throws c10::Error "<what> failed: <vendor message>" unless `status` is owSuccess.
void check_seam(owStatus status, const char* what);

struct VendorInfo {
  std::string name;        // seam name, or the requested name when loading failed
  std::string library;     // path of the vendor library
  std::string load_error;  // empty on success
  int device_count = 0;
  uint32_t flags = 0;  // the seam's OW_SEAM_* flags (0 for a vendor built before they existed)
  // The vendor's collective seam (owGetVendorCollectives), null when it has none or it was
  // rejected; collectives_error then says why (empty: the vendor exports none).
  const owCollectiveSeam* collectives = nullptr;
  std::string collectives_error;
};
const VendorInfo& vendor_info();

// Number of devices of the loaded vendor (0 when none is loaded). Never throws.
int device_count() noexcept;

}  // namespace opweave

#endif  // OPWEAVE_VENDOR_H_
