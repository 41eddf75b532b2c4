// Host-side plumbing of the CUDA kernels (cuk.h) and the dtype-converting copy every kernel
// family uses to accept mixed-dtype inputs.
#include <cstdarg>
#include <cstdio>

#include "cuk.h"
#include "pointwise.cuh"

namespace cuk {

void failf(diopiError_t code, const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  throw KernelError(code, buf);
}

void set_error(const char* kernel, const char* message) {
  char buf[640];
  std::snprintf(buf, sizeof buf, "%s: %s", kernel, message);
  opweave_set_last_error(buf);
}

const char* dtype_name(diopiDtype_t d) {
  switch (d) {
    case diopi_dtype_bool:
      return "bool";
    case diopi_dtype_int8:
      return "int8";
    case diopi_dtype_uint8:
      return "uint8";
    case diopi_dtype_int16:
      return "int16";
    case diopi_dtype_uint16:
      return "uint16";
    case diopi_dtype_int32:
      return "int32";
    case diopi_dtype_uint32:
      return "uint32";
    case diopi_dtype_int64:
      return "int64";
    case diopi_dtype_uint64:
      return "uint64";
    case diopi_dtype_float16:
      return "float16";
    case diopi_dtype_bfloat16:
      return "bfloat16";
    case diopi_dtype_float32:
      return "float32";
    case diopi_dtype_float64:
      return "float64";
    case diopi_dtype_complex64:
      return "complex64";
    case diopi_dtype_complex128:
      return "complex128";
    default:
      return "unsupported";
  }
}

int64_t dtype_size(diopiDtype_t d) {
  switch (d) {
    case diopi_dtype_bool:
    case diopi_dtype_int8:
    case diopi_dtype_uint8:
      return 1;
    case diopi_dtype_int16:
    case diopi_dtype_float16:
    case diopi_dtype_bfloat16:
      return 2;
    case diopi_dtype_int32:
    case diopi_dtype_float32:
      return 4;
    case diopi_dtype_int64:
    case diopi_dtype_float64:
      return 8;
    default:
      return 0;  // complex and unsigned wide types are not stored by this vendor
  }
}

bool Tensor::is_contiguous() const {
  int64_t expected = 1;
  for (int d = ndim - 1; d >= 0; --d) {
    if (sizes[d] != 1 && strides[d] != expected) return false;
    expected *= sizes[d];
  }
  return true;
}

std::string Tensor::shape_str() const {
  std::string s = "[";
  for (int d = 0; d < ndim; ++d) s += (d ? ", " : "") + std::to_string(sizes[d]);
  return s + "]";
}

namespace {

Tensor capture(diopiConstTensorHandle_t t, void* data, const char* what) {
  Tensor v;
  v.data = data;
  diopiDtype_t dtype;
  diopiSize_t shape, stride;
  if (diopiGetTensorDtype(t, &dtype) != diopiSuccess ||
      diopiGetTensorShape(t, &shape) != diopiSuccess ||
      diopiGetTensorStride(t, &stride) != diopiSuccess)
    failf(diopiErrorOccurred, "%s: cannot read the tensor's metadata", what);
  v.dtype = dtype;
  if (dtype_size(dtype) == 0)
    failf(diopiDtypeNotSupported, "%s has dtype %s, which this vendor does not store", what,
          dtype_name(dtype));
  if (shape.len > kMaxDims)
    failf(diopiForceFallbackToCPU, "%s has %lld dimensions; the CUDA kernels index at most %d",
          what, static_cast<long long>(shape.len), kMaxDims);
  v.ndim = static_cast<int>(shape.len);
  for (int d = 0; d < v.ndim; ++d) {
    v.sizes[d] = shape.data[d];
    v.strides[d] = stride.data[d];
    v.numel *= shape.data[d];
  }
  return v;
}

}  // namespace

Tensor input(diopiConstTensorHandle_t t, const char* what) {
  if (t == nullptr) failf(diopiErrorOccurred, "%s is NULL", what);
  const void* data = nullptr;
  if (diopiGetTensorDataConst(t, &data) != diopiSuccess)
    failf(diopiErrorOccurred, "%s: cannot read the data pointer", what);
  return capture(t, const_cast<void*>(data), what);
}

Tensor output(diopiTensorHandle_t t, const char* what) {
  if (t == nullptr) failf(diopiErrorOccurred, "%s is NULL", what);
  void* data = nullptr;
  if (diopiGetTensorData(t, &data) != diopiSuccess)
    failf(diopiErrorOccurred, "%s: cannot read the data pointer", what);
  return capture(t, data, what);
}

Tensor optional_input(diopiConstTensorHandle_t t, const char* what) {
  if (t == nullptr) {
    Tensor none;
    none.ndim = -1;
    return none;
  }
  return input(t, what);
}

void check_dtype(const Tensor& t, uint32_t set, const char* what) {
  if (!in_set(t.dtype, set))
    failf(diopiDtypeNotSupported, "%s has dtype %s, which this kernel does not compute", what,
          dtype_name(t.dtype));
}

bool same_shape(const Tensor& a, const Tensor& b) {
  if (a.ndim != b.ndim) return false;
  for (int d = 0; d < a.ndim; ++d)
    if (a.sizes[d] != b.sizes[d]) return false;
  return true;
}

void check_same_shape(const Tensor& a, const Tensor& b, const char* what_a, const char* what_b) {
  CUK_CHECK(same_shape(a, b), "%s %s must have the shape of %s %s", what_a, a.shape_str().c_str(),
            what_b, b.shape_str().c_str());
}

int64_t wrap_dim(int64_t dim, int ndim, const char* what) {
  const int64_t n = ndim > 0 ? ndim : 1;
  CUK_CHECK(dim >= -n && dim < n, "%s %lld is out of range for a %d-dimensional tensor", what,
            static_cast<long long>(dim), ndim);
  return dim < 0 ? dim + n : dim;
}

namespace {
// [first byte, last byte + 1) touched by t (strides may be negative or zero).
void byte_span(const Tensor& t, uintptr_t* lo, uintptr_t* hi) {
  int64_t min_off = 0, max_off = 0;
  for (int d = 0; d < t.ndim; ++d) {
    const int64_t reach = (t.sizes[d] - 1) * t.strides[d];
    (reach < 0 ? min_off : max_off) += reach;
  }
  const uintptr_t base = reinterpret_cast<uintptr_t>(t.data);
  *lo = base + min_off * t.itemsize();
  *hi = base + (max_off + 1) * t.itemsize();
}
}  // namespace

bool overlaps(const Tensor& a, const Tensor& b) {
  if (a.numel == 0 || b.numel == 0) return false;
  uintptr_t alo, ahi, blo, bhi;
  byte_span(a, &alo, &ahi);
  byte_span(b, &blo, &bhi);
  return alo < bhi && blo < ahi;
}

bool same_view(const Tensor& a, const Tensor& b) {
  if (a.data != b.data || a.dtype != b.dtype || !same_shape(a, b)) return false;
  for (int d = 0; d < a.ndim; ++d)
    if (a.sizes[d] > 1 && a.strides[d] != b.strides[d]) return false;
  return true;
}

Tensor broadcast_to(const Tensor& t, const Tensor& shape, const char* what) {
  CUK_CHECK(t.ndim <= shape.ndim, "%s %s cannot be broadcast to %s", what, t.shape_str().c_str(),
            shape.shape_str().c_str());
  Tensor b = t;
  b.ndim = shape.ndim;
  const int lead = shape.ndim - t.ndim;
  for (int d = 0; d < shape.ndim; ++d) {
    const int s = d - lead;
    const int64_t size = s >= 0 ? t.sizes[s] : 1;
    CUK_CHECK(size == shape.sizes[d] || size == 1, "%s %s cannot be broadcast to %s", what,
              t.shape_str().c_str(), shape.shape_str().c_str());
    b.sizes[d] = shape.sizes[d];
    b.strides[d] = (s >= 0 && size == shape.sizes[d]) ? t.strides[s] : 0;
  }
  b.numel = shape.numel;
  return b;
}

cudaStream_t stream_of(diopiContextHandle_t ctx) {
  diopiStreamHandle_t s = nullptr;
  if (diopiGetStream(ctx, &s) != diopiSuccess) failf(diopiErrorOccurred, "no stream in context");
  return static_cast<cudaStream_t>(s);
}

Tensor scratch(diopiContextHandle_t ctx, diopiDtype_t dtype, const int64_t* sizes, int ndim) {
  diopiTensorHandle_t h = nullptr;
  const diopiSize_t size{sizes, ndim};
  if (diopiRequireTensor(ctx, &h, &size, nullptr, dtype, diopi_device) != diopiSuccess ||
      h == nullptr)
    failf(diopiErrorOccurred, "cannot allocate %s scratch of %d dimensions", dtype_name(dtype),
          ndim);
  return output(h, "scratch");
}

void check_launch(const char* what) {
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    failf(diopiErrorOccurred, "%s launch failed: %s (%s)", what, cudaGetErrorString(err),
          cudaGetErrorName(err));
}

namespace {
struct Identity {
  template <class A>
  __device__ A operator()(A x) const {
    return x;
  }
};
}  // namespace

void cast_copy(cudaStream_t stream, const Tensor& dst, const Tensor& src) {
  dispatch<kAllTypes>(dst.dtype, "destination", [&](auto out_tag) {
    using Out = TypeOf<decltype(out_tag)>;
    dispatch<kAllTypes>(src.dtype, "source", [&](auto in_tag) {
      using In = TypeOf<decltype(in_tag)>;
      map<Out, In>(stream, dst, Identity{}, src);
    });
  });
}

Tensor out_buffer(diopiContextHandle_t ctx, const Tensor& out, diopiDtype_t dtype) {
  if (out.data == nullptr || (out.is_contiguous() && out.dtype == dtype)) return out;
  return scratch_like(ctx, out, dtype);
}

void copy_back(diopiContextHandle_t ctx, const Tensor& out, const Tensor& buf) {
  if (buf.data != out.data && out.numel > 0) cast_copy(stream_of(ctx), out, buf);
}

void zero_fill(cudaStream_t stream, const Tensor& t) {
  if (t.numel == 0) return;
  const cudaError_t err =
      cudaMemsetAsync(t.data, 0, static_cast<size_t>(t.numel * t.itemsize()), stream);
  CUK_CHECK(err == cudaSuccess, "cudaMemsetAsync: %s", cudaGetErrorString(err));
}

Tensor as_dtype(diopiContextHandle_t ctx, const Tensor& t, diopiDtype_t dtype) {
  if (t.dtype == dtype) return t;
  Tensor converted = scratch_like(ctx, t, dtype);
  cast_copy(stream_of(ctx), converted, t);
  return converted;
}

Tensor contiguous(diopiContextHandle_t ctx, const Tensor& t) {
  if (t.is_contiguous()) return t;
  Tensor dense = scratch_like(ctx, t, t.dtype);
  cast_copy(stream_of(ctx), dense, t);
  return dense;
}

namespace {
int float_rank(diopiDtype_t d) {
  switch (d) {
    case diopi_dtype_float16:
    case diopi_dtype_bfloat16:
      return 1;
    case diopi_dtype_float32:
      return 2;
    case diopi_dtype_float64:
      return 3;
    default:
      return 0;
  }
}
}  // namespace

diopiDtype_t common_dtype(diopiDtype_t a, diopiDtype_t b) {
  if (a == b) return a;
  const int fa = float_rank(a), fb = float_rank(b);
  if (fa != 0 || fb != 0) {
    if (fa == fb) return diopi_dtype_float32;  // float16 meets bfloat16
    return fa > fb ? a : b;
  }
  if (a == diopi_dtype_bool) return b;
  if (b == diopi_dtype_bool) return a;
  if (dtype_size(a) == dtype_size(b)) return diopi_dtype_int16;  // int8 meets uint8
  return dtype_size(a) > dtype_size(b) ? a : b;                  // integers: the wider one
}

Scalar scalar_arg(const diopiScalar_t* s, const char* what) {
  if (s == nullptr) failf(diopiErrorOccurred, "scalar %s is NULL", what);
  return scalar_or(s, Scalar{});
}

Scalar scalar_or(const diopiScalar_t* s, Scalar fallback) {
  if (s == nullptr) return fallback;
  const bool is_float = s->stype == diopi_dtype_float16 || s->stype == diopi_dtype_bfloat16 ||
                        s->stype == diopi_dtype_float32 || s->stype == diopi_dtype_float64;
  return is_float ? Scalar{true, s->fval, 0} : Scalar{false, 0, s->ival};
}

}  // namespace cuk
