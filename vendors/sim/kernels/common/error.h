// Error reporting of the sim kernels.
//
// Inside a kernel, argument checks throw KernelError (fail / SIMK_CHECK); the entry point wraps
// its body in simk::guarded(), which turns any exception into a DIOPI error code plus the
// runtime's last-error message. Nothing is thrown across the C ABI.
#ifndef SIM_KERNELS_COMMON_ERROR_H_
#define SIM_KERNELS_COMMON_ERROR_H_

#include <diopi/diopirt.h>

#include <exception>
#include <string>

extern "C" void opweave_set_last_error(const char* msg);  // implemented by the runtime

namespace simk {

class KernelError : public std::exception {
 public:
  KernelError(diopiError_t code, std::string msg) : code_(code), msg_(std::move(msg)) {}
  diopiError_t code() const { return code_; }
  const char* what() const noexcept override { return msg_.c_str(); }

 private:
  diopiError_t code_;
  std::string msg_;
};

// Throws KernelError(code, printf-style message).
[[noreturn]] void failf(diopiError_t code, const char* fmt, ...)
    __attribute__((format(printf, 2, 3)));

#define SIMK_CHECK(cond, ...)                                    \
  do {                                                           \
    if (!(cond)) ::simk::failf(diopiErrorOccurred, __VA_ARGS__); \
  } while (0)

// Records "<kernel>: <message>" as the runtime's last error.
void set_error(const char* kernel, const char* message);

// Runs `body`; returns diopiSuccess, or the error code of what it threw (message recorded).
template <class F>
diopiError_t guarded(const char* kernel, F&& body) noexcept {
  try {
    body();
    return diopiSuccess;
  } catch (const KernelError& e) {
    set_error(kernel, e.what());
    return e.code();
  } catch (const std::exception& e) {
    set_error(kernel, e.what());
    return diopiErrorOccurred;
  } catch (...) {
    set_error(kernel, "unknown exception");
    return diopiErrorOccurred;
  }
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_ERROR_H_
