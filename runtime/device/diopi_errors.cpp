// Per-thread DIOPI error messages and the conversions between codes and c10::Error.
#include "opweave/diopi_errors.h"

#include <c10/util/Exception.h>

#include <string>

namespace {
thread_local std::string t_last_error;
}  // namespace

extern "C" void opweave_set_last_error(const char* message) {
  t_last_error = message != nullptr ? message : "";
}

extern "C" const char* diopiGetLastErrorString(void) { return t_last_error.c_str(); }

namespace opweave {

const char* diopi_error_name(diopiError_t err) noexcept {
  switch (err) {
#define OW_CASE(name) \
  case name:          \
    return #name;
    OW_CASE(diopiSuccess)
    OW_CASE(diopiErrorOccurred)
    OW_CASE(diopiNotInited)
    OW_CASE(diopiNoRegisteredStreamCreateFunction)
    OW_CASE(diopiNoRegisteredStreamDestoryFunction)
    OW_CASE(diopiNoRegisteredStreamSyncFunction)
    OW_CASE(diopiNoRegisteredDeviceMemoryMallocFunction)
    OW_CASE(diopiNoRegisteredDeviceMemoryFreeFunction)
    OW_CASE(diopiNoRegisteredDevice2DdeviceMemoryCopyFunction)
    OW_CASE(diopiNoRegisteredDevice2HostMemoryCopyFunction)
    OW_CASE(diopiNoRegisteredHost2DeviceMemoryCopyFunction)
    OW_CASE(diopiNoRegisteredGetLastErrorFunction)
    OW_CASE(diopi5DNotSupported)
    OW_CASE(diopiNoImplement)
    OW_CASE(diopiForceFallbackToCPU)
    OW_CASE(diopiDtypeNotSupported)
#undef OW_CASE
  }
  return "unknown diopiError_t";
}

void throw_diopi_error(diopiError_t err, const char* diopi_fn, const char* aten_op) {
  TORCH_CHECK(false, aten_op, ": ", diopi_fn, " failed with ", diopi_error_name(err), " (",
              static_cast<int>(err), "): ", t_last_error.empty() ? "no message" : t_last_error);
}

diopiError_t diopi_fail(diopiError_t err, const char* message) noexcept {
  try {
    t_last_error = message != nullptr ? message : "";
  } catch (...) {  // out of memory for the message: keep the code
  }
  return err;
}

namespace detail {
const char* exception_message(const std::exception& e) noexcept {
  if (const auto* c10e = dynamic_cast<const c10::Error*>(&e)) return c10e->what_without_backtrace();
  return e.what();
}
}  // namespace detail

}  // namespace opweave
