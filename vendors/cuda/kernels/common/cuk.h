// Host-side plumbing of the CUDA kernels: argument capture, checks, errors, scratch memory.
//
//   extern "C" diopiError_t diopiFoo(diopiContextHandle_t ctx, diopiTensorHandle_t out, ...) {
//     return cuk::guarded("diopiFoo", [&] {
//       const cuk::Tensor o = cuk::output(out, "out");    // metadata only, never device data
//       cuk::check_dtype(o, cuk::kFloating, "out");        // declined dtype: the op falls back
//       ... launch on cuk::stream_of(ctx), then cuk::check_launch() ...
//     });
//   }
//
// Errors are exceptions inside a kernel entry point and a DIOPI code plus the runtime's
// last-error message at the C ABI; nothing is thrown across it. A dtype or layout a kernel
// cannot compute raises diopiDtypeNotSupported / diopiForceFallbackToCPU, which the runtime
// turns into a counted CPU fallback, never a wrong answer.
#ifndef CUDA_KERNELS_COMMON_CUK_H_
#define CUDA_KERNELS_COMMON_CUK_H_

#include <cuda_runtime.h>
#include <diopi/diopirt.h>

#include <cstdint>
#include <exception>
#include <string>

extern "C" void opweave_set_last_error(const char* msg);  // implemented by the runtime

namespace cuk {

// Device-side index arithmetic supports this many dimensions; more declines to the CPU path.
constexpr int kMaxDims = 8;

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

#define CUK_CHECK(cond, ...)                                    \
  do {                                                          \
    if (!(cond)) ::cuk::failf(diopiErrorOccurred, __VA_ARGS__); \
  } while (0)

// Declines the call: the runtime runs the op on CPU and counts the fallback.
#define CUK_DECLINE_UNLESS(cond, ...)                                \
  do {                                                               \
    if (!(cond)) ::cuk::failf(diopiForceFallbackToCPU, __VA_ARGS__); \
  } while (0)

void set_error(const char* kernel, const char* message);

// Runs `body`; returns diopiSuccess or the code of what it threw (message recorded).
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

// ---- dtypes (bit d set <=> dtype d in the set)
constexpr uint32_t dtype_bit(diopiDtype_t d) { return uint32_t{1} << static_cast<unsigned>(d); }
constexpr uint32_t kHalfFloats = dtype_bit(diopi_dtype_float16) | dtype_bit(diopi_dtype_bfloat16);
constexpr uint32_t kFloating =
    kHalfFloats | dtype_bit(diopi_dtype_float32) | dtype_bit(diopi_dtype_float64);
constexpr uint32_t kIntegral = dtype_bit(diopi_dtype_int8) | dtype_bit(diopi_dtype_uint8) |
                               dtype_bit(diopi_dtype_int16) | dtype_bit(diopi_dtype_int32) |
                               dtype_bit(diopi_dtype_int64);
constexpr uint32_t kFloatingAndInt =
    kFloating | dtype_bit(diopi_dtype_int32) | dtype_bit(diopi_dtype_int64);
constexpr uint32_t kAllTypes = kFloating | kIntegral | dtype_bit(diopi_dtype_bool);
constexpr uint32_t kIndexTypes = dtype_bit(diopi_dtype_int32) | dtype_bit(diopi_dtype_int64);

inline bool in_set(diopiDtype_t d, uint32_t set) {
  return static_cast<unsigned>(d) < 32 && (set & dtype_bit(d)) != 0;
}
const char* dtype_name(diopiDtype_t d);
int64_t dtype_size(diopiDtype_t d);  // 0 for dtypes this vendor does not store

// ---- tensors: metadata captured on the calling thread; `data` is a device address.
struct Tensor {
  void* data = nullptr;
  diopiDtype_t dtype = diopi_dtype_float32;
  int ndim = 0;
  int64_t sizes[kMaxDims] = {};
  int64_t strides[kMaxDims] = {};  // in elements
  int64_t numel = 1;

  int64_t itemsize() const { return dtype_size(dtype); }
  bool is_contiguous() const;
  std::string shape_str() const;  // "[2, 3]"
  template <class T>
  T* ptr() const {
    return static_cast<T*>(data);
  }
};

// A kernel argument; `what` names it in error messages. A null handle is an error; more than
// kMaxDims dimensions or a dtype this vendor cannot store declines to the CPU.
Tensor input(diopiConstTensorHandle_t t, const char* what);
Tensor output(diopiTensorHandle_t t, const char* what);
// An optional argument: ndim == -1 and data == nullptr when the handle is null.
Tensor optional_input(diopiConstTensorHandle_t t, const char* what);

void check_dtype(const Tensor& t, uint32_t set, const char* what);
bool same_shape(const Tensor& a, const Tensor& b);
void check_same_shape(const Tensor& a, const Tensor& b, const char* what_a, const char* what_b);
// Wraps a possibly negative dim into [0, ndim); ndim 0 accepts -1 and 0.
int64_t wrap_dim(int64_t dim, int ndim, const char* what);

// The byte ranges a and b span intersect (conservative: interleaved strided views count).
bool overlaps(const Tensor& a, const Tensor& b);
// a and b are the same elements in the same order (same data, dtype, shape and strides where a
// dimension has more than one element).
bool same_view(const Tensor& a, const Tensor& b);

// `t` broadcast to `shape` (right-aligned; size-1 or missing dims get stride 0); throws when
// the shapes are not broadcast-compatible.
Tensor broadcast_to(const Tensor& t, const Tensor& shape, const char* what);

// ---- context: stream, scratch memory, launch checks
cudaStream_t stream_of(diopiContextHandle_t ctx);
// Device scratch of `dtype` and the given contiguous shape, valid until the DIOPI call returns
// (the runtime's allocator orders its reuse after this call's work on the stream).
Tensor scratch(diopiContextHandle_t ctx, diopiDtype_t dtype, const int64_t* sizes, int ndim);
inline Tensor scratch_like(diopiContextHandle_t ctx, const Tensor& t, diopiDtype_t dtype) {
  return scratch(ctx, dtype, t.sizes, t.ndim);
}
// Throws when the last launch on this thread failed (bad configuration, earlier fault).
void check_launch(const char* what);

// `t` itself when it has `dtype`; otherwise its values converted into scratch (same shape,
// contiguous). Lets kernels templated on one storage type take mixed-dtype inputs.
Tensor as_dtype(diopiContextHandle_t ctx, const Tensor& t, diopiDtype_t dtype);
// `t` itself when contiguous; otherwise a contiguous copy in scratch.
Tensor contiguous(diopiContextHandle_t ctx, const Tensor& t);

// dst = src converted (src broadcast to dst's shape; any layouts, any stored dtypes).
void cast_copy(cudaStream_t stream, const Tensor& dst, const Tensor& src);

// Where a kernel that writes dense memory puts `out`: out itself when dense and of `dtype`,
// otherwise dense scratch that copy_back converts into out. An absent out (data null) stays so.
Tensor out_buffer(diopiContextHandle_t ctx, const Tensor& out, diopiDtype_t dtype);
void copy_back(diopiContextHandle_t ctx, const Tensor& out, const Tensor& buf);
// All bytes of a dense tensor zero (zero in every stored dtype), on `stream`.
void zero_fill(cudaStream_t stream, const Tensor& t);

// ---- scalars
struct Scalar {
  bool is_float = false;
  double f = 0;
  int64_t i = 0;
  template <class A>
  A as() const {
    return is_float ? static_cast<A>(f) : static_cast<A>(i);
  }
  double to_double() const { return is_float ? f : static_cast<double>(i); }
};
Scalar scalar_arg(const diopiScalar_t* s, const char* what);  // null: error naming `what`
Scalar scalar_or(const diopiScalar_t* s, Scalar fallback);
inline Scalar scalar_of(int64_t v) { return Scalar{false, 0, v}; }
inline Scalar scalar_of(double v) { return Scalar{true, v, 0}; }

}  // namespace cuk

#endif  // CUDA_KERNELS_COMMON_CUK_H_
