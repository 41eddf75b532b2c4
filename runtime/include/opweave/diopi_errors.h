// Error handling across the DIOPI C boundary.
//
// Kernels and diopirt functions report failure with a diopiError_t and a per-thread message;
// C++ exceptions never cross the C ABI. The generated wrapper turns a failing code back into a
// c10::Error (a Python RuntimeError) with check_diopi().
#ifndef OPWEAVE_DIOPI_ERRORS_H_
#define OPWEAVE_DIOPI_ERRORS_H_

#include <diopi/diopirt.h>

#ifdef __cplusplus
extern "C" {
#endif

// Sets this thread's last DIOPI error message (vendors call it before returning an error).
void opweave_set_last_error(const char* message);
// This thread's last DIOPI error message ("" when none); also declared by <diopi/functions.h>.
const char* diopiGetLastErrorString(void);

#ifdef __cplusplus
}  // extern "C"

#include <exception>
#include <type_traits>

namespace opweave {

// Readable name of a code, e.g. "diopiNoImplement".
const char* diopi_error_name(diopiError_t err) noexcept;

// Throws c10::Error naming the ATen op, the DIOPI function, the code and the last message.
[[noreturn]] void throw_diopi_error(diopiError_t err, const char* diopi_fn, const char* aten_op);

// For wrappers: `opweave::check_diopi(fn(&ctx, ...), "diopiAdd", "aten::add.out");`
// (diopiNoImplement / diopiForceFallbackToCPU must be handled before, by falling back).
inline void check_diopi(diopiError_t err, const char* diopi_fn, const char* aten_op) {
  if (__builtin_expect(err != diopiSuccess, 0)) throw_diopi_error(err, diopi_fn, aten_op);
}

// Records `message` as the last error and returns `err`: `return opweave::diopi_fail(...)`.
diopiError_t diopi_fail(diopiError_t err, const char* message) noexcept;

namespace detail {
// c10::Error's message without its C++ backtrace; what() for other exceptions.
const char* exception_message(const std::exception& e) noexcept;
}  // namespace detail

}  // namespace opweave

// Wrap the body of a C entry point: exceptions become a code plus the last-error message.
//   diopiError_t diopiFoo(...) { OPWEAVE_DIOPI_TRY ... return diopiSuccess; OPWEAVE_DIOPI_CATCH }
#define OPWEAVE_DIOPI_TRY try {
#define OPWEAVE_DIOPI_CATCH                                                                    \
  }                                                                                            \
  catch (const std::exception& e) {                                                            \
    return ::opweave::diopi_fail(diopiErrorOccurred, ::opweave::detail::exception_message(e)); \
  }                                                                                            \
  catch (...) {                                                                                \
    return ::opweave::diopi_fail(diopiErrorOccurred, "unknown C++ exception");                 \
  }

namespace opweave {

// The same, as a function: `return opweave::diopi_guard([&] { ...; });` runs the body and turns an
// exception into a code plus the last-error message. A body returning void succeeds with
// diopiSuccess; one returning diopiError_t (an early diopi_fail, say) passes its code on.
template <class Body>
diopiError_t diopi_guard(Body&& body) noexcept {
  OPWEAVE_DIOPI_TRY
  if constexpr (std::is_void<decltype(body())>::value) {
    body();
    return diopiSuccess;
  } else {
    return body();
  }
  OPWEAVE_DIOPI_CATCH
}

}  // namespace opweave

#endif  // __cplusplus

#endif  // OPWEAVE_DIOPI_ERRORS_H_
