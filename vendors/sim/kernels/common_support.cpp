// Generic machinery of the sim kernels (see common/): errors, dtype names, tensor views,
// scalars, fault injection and enqueueing on the sim stream.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "common/elementwise.h"
#include "common/error.h"
#include "common/launch.h"
#include "common/scalar.h"
#include "common/view.h"
#include "sim_memory.h"
#include "sim_stream.h"
#include "sim_stream_impl.h"

namespace simk {

// ---------------------------------------------------------------- errors

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

// ---------------------------------------------------------------- dtypes

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
    case diopi_dtype_tfloat32:
      return "tfloat32";
    case diopi_dtype_complex32:
      return "complex32";
    case diopi_dtype_complex64:
      return "complex64";
    case diopi_dtype_complex128:
      return "complex128";
    default:
      return "unknown dtype";
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
      return 0;
  }
}

static std::string dtype_set_names(uint32_t set) {
  std::string s;
  for (unsigned d = 0; d < 32; ++d) {
    if ((set & (uint32_t{1} << d)) == 0) continue;
    if (!s.empty()) s += ", ";
    s += dtype_name(static_cast<diopiDtype_t>(d));
  }
  return s;
}

void throw_dtype_not_supported(diopiDtype_t d, uint32_t supported) {
  failf(diopiDtypeNotSupported, "dtype %s is not supported (supported: %s)", dtype_name(d),
        dtype_set_names(supported).c_str());
}

void check_dtype(const View& v, uint32_t set, const char* what) {
  if (!in_set(v.dtype, set))
    failf(diopiDtypeNotSupported, "%s has dtype %s; supported: %s", what, dtype_name(v.dtype),
          dtype_set_names(set).c_str());
}

// ---------------------------------------------------------------- views

int64_t View::numel() const {
  int64_t n = 1;
  for (int d = 0; d < ndim; ++d) n *= sizes[d];
  return n;
}

int64_t View::itemsize() const { return dtype_size(dtype); }

bool View::is_contiguous() const {
  int64_t expected = 1;
  for (int d = ndim - 1; d >= 0; --d) {
    if (sizes[d] == 1) continue;
    if (strides[d] != expected) return false;
    expected *= sizes[d];
  }
  return true;
}

std::string View::shape_str() const {
  std::string s = "[";
  for (int d = 0; d < ndim; ++d) {
    if (d) s += ", ";
    s += std::to_string(sizes[d]);
  }
  return s + "]";
}

// Everything a kernel needs of a tensor argument, read in one call (the runtime's
// diopiGetTensorLayout extension; DIOPI's four accessors cost four calls per argument).
static View view_of(diopiConstTensorHandle_t t, const char* what) {
  if (t == nullptr) failf(diopiErrorOccurred, "%s is a null tensor", what);
  diopiTensorLayout_t layout{};
  if (diopiGetTensorLayout(t, &layout) != diopiSuccess)
    failf(diopiErrorOccurred, "cannot read the metadata of %s", what);
  const diopiSize_t shape = layout.shape, stride = layout.stride;
  if (shape.len > kMaxDims)
    failf(diopiErrorOccurred, "%s has %lld dims; the sim supports at most %d", what,
          static_cast<long long>(shape.len), kMaxDims);
  if (stride.len != shape.len)
    failf(diopiErrorOccurred, "%s has %lld sizes but %lld strides", what,
          static_cast<long long>(shape.len), static_cast<long long>(stride.len));
  View v;
  v.dtype = layout.dtype;
  v.ndim = static_cast<int>(shape.len);
  for (int d = 0; d < v.ndim; ++d) {
    v.sizes[d] = shape.data[d];
    v.strides[d] = stride.data[d];
  }
  v.data = sim::host_ptr<char>(layout.data);
  if (v.data == nullptr && v.numel() != 0) failf(diopiErrorOccurred, "%s has no data", what);
  return v;
}

View input_view(diopiConstTensorHandle_t t, const char* what) { return view_of(t, what); }

View output_view(diopiTensorHandle_t t, const char* what) { return view_of(t, what); }

View contiguous_view(void* data, diopiDtype_t dtype, const int64_t* sizes, int ndim) {
  View v;
  v.data = static_cast<char*>(data);
  v.dtype = dtype;
  v.ndim = ndim;
  int64_t stride = 1;
  for (int d = ndim - 1; d >= 0; --d) {
    v.sizes[d] = sizes[d];
    v.strides[d] = stride;
    stride *= sizes[d];
  }
  return v;
}

bool same_shape(const View& a, const View& b) {
  if (a.ndim != b.ndim) return false;
  for (int d = 0; d < a.ndim; ++d)
    if (a.sizes[d] != b.sizes[d]) return false;
  return true;
}

bool may_overlap(const View& a, const View& b) {
  if (a.numel() == 0 || b.numel() == 0) return false;
  auto span = [](const View& v, const char** lo, const char** hi) {
    int64_t low = 0, high = 0;
    for (int d = 0; d < v.ndim; ++d) {
      const int64_t step = (v.sizes[d] - 1) * v.strides[d];
      (step < 0 ? low : high) += step;
    }
    *lo = v.data + low * v.itemsize();
    *hi = v.data + (high + 1) * v.itemsize();
  };
  const char *alo, *ahi, *blo, *bhi;
  span(a, &alo, &ahi);
  span(b, &blo, &bhi);
  return alo < bhi && blo < ahi;
}

View broadcast_to(const View& v, const View& ref, const char* what) {
  if (v.ndim > ref.ndim)
    failf(diopiErrorOccurred, "%s of shape %s cannot be broadcast to %s", what,
          v.shape_str().c_str(), ref.shape_str().c_str());
  View b;
  b.data = v.data;
  b.dtype = v.dtype;
  b.ndim = ref.ndim;
  const int lead = ref.ndim - v.ndim;
  for (int d = 0; d < ref.ndim; ++d) {
    b.sizes[d] = ref.sizes[d];
    const int vd = d - lead;
    if (vd < 0) {
      b.strides[d] = 0;
    } else if (v.sizes[vd] == ref.sizes[d]) {
      b.strides[d] = ref.sizes[d] == 1 ? 0 : v.strides[vd];
    } else if (v.sizes[vd] == 1) {
      b.strides[d] = 0;
    } else {
      failf(diopiErrorOccurred, "%s of shape %s cannot be broadcast to %s", what,
            v.shape_str().c_str(), ref.shape_str().c_str());
    }
  }
  return b;
}

// ---------------------------------------------------------------- scratch memory

namespace {

// Freed scratch blocks of this thread, reused best-fit; at most kScratchCacheBytes are kept.
constexpr size_t kScratchCacheBytes = size_t{256} << 20;
constexpr size_t kScratchAlign = 64;

struct ScratchCache {
  struct Block {
    void* mem;
    size_t capacity;
  };
  std::vector<Block> blocks;
  size_t bytes = 0;
  ~ScratchCache() {
    for (const Block& b : blocks) std::free(b.mem);
  }
};

ScratchCache& scratch_cache() {
  thread_local ScratchCache cache;
  return cache;
}

void* scratch_alloc(size_t bytes, size_t* capacity) {
  ScratchCache& cache = scratch_cache();
  size_t best = cache.blocks.size();
  for (size_t i = 0; i < cache.blocks.size(); ++i) {
    const size_t cap = cache.blocks[i].capacity;
    if (cap >= bytes && (best == cache.blocks.size() || cap < cache.blocks[best].capacity))
      best = i;
  }
  if (best != cache.blocks.size()) {
    const ScratchCache::Block b = cache.blocks[best];
    cache.blocks.erase(cache.blocks.begin() + static_cast<std::ptrdiff_t>(best));
    cache.bytes -= b.capacity;
    *capacity = b.capacity;
    return b.mem;
  }
  const size_t cap = (std::max<size_t>(bytes, 1) + 4095) / 4096 * 4096;
  void* mem = std::aligned_alloc(kScratchAlign, cap);
  if (mem == nullptr) throw std::bad_alloc();
  *capacity = cap;
  return mem;
}

void scratch_free(void* mem, size_t capacity) {
  ScratchCache& cache = scratch_cache();
  if (capacity > kScratchCacheBytes) {
    std::free(mem);
    return;
  }
  while (cache.bytes + capacity > kScratchCacheBytes) {  // drop the oldest blocks
    std::free(cache.blocks.front().mem);
    cache.bytes -= cache.blocks.front().capacity;
    cache.blocks.erase(cache.blocks.begin());
  }
  try {
    cache.blocks.push_back({mem, capacity});
    cache.bytes += capacity;
  } catch (...) {
    std::free(mem);
  }
}

}  // namespace

Buffer::Buffer(diopiDtype_t dtype, const int64_t* sizes, int ndim) {
  int64_t n = 1;
  for (int d = 0; d < ndim; ++d) n *= sizes[d];
  mem_ = scratch_alloc(static_cast<size_t>(n * dtype_size(dtype)), &capacity_);
  view_ = contiguous_view(mem_, dtype, sizes, ndim);
}

Buffer::~Buffer() { release(); }

void Buffer::release() {
  if (mem_ != nullptr) scratch_free(mem_, capacity_);
  mem_ = nullptr;
  capacity_ = 0;
}

Buffer::Buffer(Buffer&& other) noexcept
    : mem_(other.mem_), capacity_(other.capacity_), view_(other.view_) {
  other.mem_ = nullptr;
  other.capacity_ = 0;
}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    release();
    mem_ = other.mem_;
    capacity_ = other.capacity_;
    view_ = other.view_;
    other.mem_ = nullptr;
    other.capacity_ = 0;
  }
  return *this;
}

View as_dtype(const View& v, diopiDtype_t dtype, Buffer& scratch) {
  if (v.dtype == dtype) return v;
  scratch = Buffer(dtype, v.sizes, v.ndim);
  cast_copy(scratch.view(), v);
  return scratch.view();
}

// ---------------------------------------------------------------- scalars

Scalar scalar_arg(const diopiScalar_t* s, const char* what) {
  if (s == nullptr) failf(diopiErrorOccurred, "scalar %s is null", what);
  if (is_floating(s->stype)) return Scalar::of_double(s->fval);
  if (is_integral(s->stype) || s->stype == diopi_dtype_bool) return Scalar::of_int(s->ival);
  failf(diopiDtypeNotSupported, "scalar %s has dtype %s", what, dtype_name(s->stype));
}

Scalar scalar_or(const diopiScalar_t* s, Scalar fallback) {
  return s == nullptr ? fallback : scalar_arg(s, "scalar");
}

// ---------------------------------------------------------------- fault injection

static std::vector<std::string> parse_fault_list() {
  std::vector<std::string> names;
  const char* env = std::getenv("OPWEAVE_SIM_FAULT");
  if (env == nullptr) return names;
  std::string cur;
  for (const char* p = env;; ++p) {
    if (*p == ',' || *p == '\0') {
      const size_t b = cur.find_first_not_of(" \t");
      const size_t e = cur.find_last_not_of(" \t");
      if (b != std::string::npos) names.push_back(cur.substr(b, e - b + 1));
      cur.clear();
      if (*p == '\0') break;
    } else {
      cur += *p;
    }
  }
  return names;
}

static const std::vector<std::string>& fault_list() {
  static const std::vector<std::string> list = parse_fault_list();
  return list;
}

namespace {
// Reads OPWEAVE_SIM_FAULT when the library is loaded.
const bool g_fault_list_loaded = (fault_list(), true);
}  // namespace

bool fault_requested(const char* kernel) {
  for (const std::string& name : fault_list())
    if (name == kernel) return true;
  return false;
}

// ---------------------------------------------------------------- streams

void synchronize_on(diopiContextHandle_t ctx) {
  const owStream_t stream = stream_of(ctx);
  const owStatus st = sim::stream_synchronize(stream);
  if (st != owSuccess)
    failf(diopiErrorOccurred, "an earlier kernel on stream %p failed (status %d)",
          static_cast<void*>(stream), static_cast<int>(st));
}

owStream_t stream_of(diopiContextHandle_t ctx) {
  diopiStreamHandle_t stream = nullptr;
  if (diopiGetStream(ctx, &stream) != diopiSuccess)
    failf(diopiErrorOccurred, "cannot get the stream of the context");
  return static_cast<owStream_t>(stream);
}

void enqueue_failed(owStream_t stream, owStatus status) {
  failf(diopiErrorOccurred, "cannot enqueue on stream %p (status %d)", static_cast<void*>(stream),
        static_cast<int>(status));
}

}  // namespace simk
