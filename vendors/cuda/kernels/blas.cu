// Matrix products on cuBLASLt: diopiMm, diopiBmm, diopiAddmm, diopiBaddbmm, diopiBaddbmmInp.
//
// Layouts. cuBLASLt reads column-major matrices; a row-major [r, c] matrix with row stride ld is
// the column-major [c, r] matrix with the same ld, i.e. its transpose. So out = A @ B is run as
// out^T = B^T @ A^T: cuBLASLt's "A" is our B, its "B" is our A, and D (column-major [n, m]) is
// out read row-major. An operand dense along its rows is used in place with op N, one dense
// along its columns (a transposed view) with op T; any other layout (both strides != 1, zero or
// negative strides) is packed with cuk::contiguous first. out is written in place when it is
// row-major with a leading dimension (and no operand overlaps it), else through scratch.
//
// Precision as torch's defaults: float32 computes in CUBLAS_COMPUTE_32F (no TF32), float16 and
// bfloat16 in float with split-K partials also kept in float (no reduced-precision reduction),
// float64 in CUBLAS_COMPUTE_64F. Operands of another dtype than out are converted to out's.
//
// addmm/baddbmm: beta == 0 ignores `input` (NaN included: cuBLASLt never reads C when beta is
// 0); otherwise `input` is broadcast into D and the GEMM accumulates onto it with beta. addmm
// with a [n] bias and beta == 1 adds the bias in cuBLASLt's epilogue instead (no copy pass).
// k == 0: out = beta * input, or zeros, without cuBLASLt.
#include <cublasLt.h>
#include <diopi/functions.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "common/cuk.h"
#include "common/device.cuh"
#include "common/elementwise.cuh"

namespace {

constexpr int kMaxDevices = 64;
// The most workspace the heuristic may ask for (what torch allows on Hopper). Only what the
// chosen algorithm needs is allocated, per call, from the context's stream-ordered allocator:
// a persistent per-device buffer would race between calls on different streams.
constexpr uint64_t kMaxWorkspaceBytes = uint64_t{32} << 20;
constexpr size_t kMaxCachedPlans = 512;  // per thread; the cache is dropped when it fills up

void lt_check(cublasStatus_t st, const char* what) {
  if (st != CUBLAS_STATUS_SUCCESS)
    cuk::failf(diopiErrorOccurred, "%s failed: %s", what, cublasLtGetStatusName(st));
}

int current_device() {
  int device = 0;
  const cudaError_t err = cudaGetDevice(&device);
  if (err != cudaSuccess)
    cuk::failf(diopiErrorOccurred, "cudaGetDevice failed: %s", cudaGetErrorString(err));
  CUK_CHECK(device >= 0 && device < kMaxDevices, "device %d is beyond the %d supported", device,
            kMaxDevices);
  return device;
}

// One cuBLASLt handle per device, created on first use. After creation call_once is a single
// acquire load, so the hot path takes no lock. A cuBLASLt handle holds no per-call state (the
// stream is an argument of cublasLtMatmul), so threads share it. Handles live until the process
// ends on purpose: destroying them from static destructors may run after the driver is gone.
cublasLtHandle_t lt_handle(int device) {
  static std::once_flag once[kMaxDevices];
  static cublasLtHandle_t handles[kMaxDevices];
  std::call_once(once[device],
                 [device] { lt_check(cublasLtCreate(&handles[device]), "cublasLtCreate"); });
  return handles[device];
}

cudaDataType_t cuda_type(diopiDtype_t d) {  // d is in cuk::kFloating (checked by the callers)
  return d == diopi_dtype_float16    ? CUDA_R_16F
         : d == diopi_dtype_bfloat16 ? CUDA_R_16BF
         : d == diopi_dtype_float32  ? CUDA_R_32F
                                     : CUDA_R_64F;
}

// The largest power of two (at most 256, cuBLASLt's default assumption) dividing every address
// a matrix starts at: its base and, for batches, its batch stride in bytes.
int64_t alignment(const void* p, int64_t batch_stride_bytes = 0) {
  const uint64_t bits =
      reinterpret_cast<uintptr_t>(p) | static_cast<uint64_t>(batch_stride_bytes) | 256;
  return static_cast<int64_t>(bits & (~bits + 1));
}

// ---- operands

// A stored column-major cuBLASLt matrix (rows x cols, leading dimension ld) and the op that
// turns it into the transpose of our row-major matrix.
struct LtMat {
  void* data = nullptr;
  cublasOperation_t op = CUBLAS_OP_N;
  int64_t rows = 0, cols = 0, ld = 1;
  int64_t batch_stride = 0;  // elements; 0 when there is one matrix or a broadcast batch
};

// The last two dims [r, c] of `t` as cuBLASLt's view of their transpose, when the layout allows
// it in place. Size-1 dims have meaningless strides, hence the r == 1 / c == 1 cases.
bool as_lt_mat(const cuk::Tensor& t, LtMat* m) {
  const int nd = t.ndim;
  const int64_t r = t.sizes[nd - 2], c = t.sizes[nd - 1];
  const int64_t s0 = t.strides[nd - 2], s1 = t.strides[nd - 1];
  const int64_t batch = nd == 3 ? t.sizes[0] : 1;
  m->data = t.data;
  m->batch_stride = batch > 1 ? t.strides[0] : 0;
  if (m->batch_stride < 0) return false;  // cuBLASLt takes non-negative batch strides only
  if ((c == 1 || s1 == 1) && (r == 1 || s0 >= std::max<int64_t>(1, c))) {
    // Row-major: stored column-major [c, r], already our transpose.
    m->op = CUBLAS_OP_N;
    m->rows = c;
    m->cols = r;
    m->ld = r == 1 ? std::max<int64_t>(1, c) : s0;
    return true;
  }
  if ((r == 1 || s0 == 1) && (c == 1 || s1 >= std::max<int64_t>(1, r))) {
    // Column-major (a transposed view): stored column-major [r, c], transposed by the op.
    m->op = CUBLAS_OP_T;
    m->rows = r;
    m->cols = c;
    m->ld = c == 1 ? std::max<int64_t>(1, r) : s1;
    return true;
  }
  return false;
}

// `t` as a cuBLASLt operand, packed densely first when its layout is not usable in place.
LtMat operand(diopiContextHandle_t ctx, const cuk::Tensor& t) {
  LtMat m;
  if (as_lt_mat(t, &m)) return m;
  const bool ok = as_lt_mat(cuk::contiguous(ctx, t), &m);
  CUK_CHECK(ok, "packed operand %s is not a dense matrix", t.shape_str().c_str());
  return m;
}

// `out` as cuBLASLt's D (op N, column-major [n, m]) when it is row-major with a leading
// dimension and its batches do not overlap.
bool as_output(const cuk::Tensor& out, LtMat* d) {
  if (!as_lt_mat(out, d) || d->op != CUBLAS_OP_N) return false;
  const int nd = out.ndim;
  if (nd == 3 && out.sizes[0] > 1)
    return d->batch_stride >= (d->cols - 1) * d->ld + d->rows && d->batch_stride > 0;
  return true;
}

// ---- plans: descriptors and the heuristic's algorithm per problem, cached per thread (no
// locking; a plan's descriptors are also mutated per call to set the bias pointer).

struct PlanKey {
  int64_t v[24] = {};
  bool operator==(const PlanKey& o) const { return std::memcmp(v, o.v, sizeof v) == 0; }
};
struct PlanKeyHash {
  size_t operator()(const PlanKey& k) const {
    uint64_t h = 1469598103934665603ull;  // FNV-1a over the fields
    for (int64_t x : k.v) h = (h ^ static_cast<uint64_t>(x)) * 1099511628211ull;
    return static_cast<size_t>(h);
  }
};

struct Plan {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, d = nullptr;  // C shares D's layout
  cublasLtMatmulAlgo_t algo{};
  size_t workspace = 0;
  bool found = false;  // false: cuBLASLt has no algorithm (cached so the miss stays cheap)

  Plan() = default;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan() {
    if (d) cublasLtMatrixLayoutDestroy(d);
    if (b) cublasLtMatrixLayoutDestroy(b);
    if (a) cublasLtMatrixLayoutDestroy(a);
    if (op) cublasLtMatmulDescDestroy(op);
  }
};

// One GEMM as cuBLASLt runs it: D = alpha * op(A) op(B) + beta * C (+ bias), C == D.
struct Gemm {
  diopiDtype_t dtype;
  LtMat a, b, d;  // cuBLASLt's A and B (our B^T and A^T) and D (out^T)
  int64_t batch = 1;
  const void* bias = nullptr;  // epilogue bias of d.rows elements, or null
};

cublasLtMatrixLayout_t make_layout(const Gemm& g, const LtMat& m) {
  cublasLtMatrixLayout_t l = nullptr;
  lt_check(cublasLtMatrixLayoutCreate(&l, cuda_type(g.dtype), static_cast<uint64_t>(m.rows),
                                      static_cast<uint64_t>(m.cols), m.ld),
           "cublasLtMatrixLayoutCreate");
  if (g.batch > 1) {
    const int32_t count = static_cast<int32_t>(g.batch);
    lt_check(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count,
                                              sizeof count),
             "cublasLtMatrixLayoutSetAttribute(BATCH_COUNT)");
    lt_check(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                                              &m.batch_stride, sizeof m.batch_stride),
             "cublasLtMatrixLayoutSetAttribute(STRIDED_BATCH_OFFSET)");
  }
  return l;
}

template <class T>
void set_desc(cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attr, const T& value,
              const char* what) {
  lt_check(cublasLtMatmulDescSetAttribute(desc, attr, &value, sizeof value), what);
}
template <class T>
void set_pref(cublasLtMatmulPreference_t pref, cublasLtMatmulPreferenceAttributes_t attr,
              const T& value) {
  lt_check(cublasLtMatmulPreferenceSetAttribute(pref, attr, &value, sizeof value),
           "cublasLtMatmulPreferenceSetAttribute");
}

std::unique_ptr<Plan> make_plan(cublasLtHandle_t handle, const Gemm& g, const int64_t* align) {
  auto p = std::make_unique<Plan>();
  const bool f64 = g.dtype == diopi_dtype_float64;
  lt_check(cublasLtMatmulDescCreate(&p->op, f64 ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F,
                                    f64 ? CUDA_R_64F : CUDA_R_32F),
           "cublasLtMatmulDescCreate");
  set_desc(p->op, CUBLASLT_MATMUL_DESC_TRANSA, g.a.op, "set TRANSA");
  set_desc(p->op, CUBLASLT_MATMUL_DESC_TRANSB, g.b.op, "set TRANSB");
  if (g.bias != nullptr) {
    set_desc(p->op, CUBLASLT_MATMUL_DESC_EPILOGUE, CUBLASLT_EPILOGUE_BIAS, "set EPILOGUE");
    // The heuristic reads the pointer's alignment; run() sets each call's own pointer.
    set_desc(p->op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, g.bias, "set BIAS_POINTER");
  }
  p->a = make_layout(g, g.a);
  p->b = make_layout(g, g.b);
  p->d = make_layout(g, g.d);

  cublasLtMatmulPreference_t pref = nullptr;
  lt_check(cublasLtMatmulPreferenceCreate(&pref), "cublasLtMatmulPreferenceCreate");
  std::unique_ptr<cublasLtMatmulPreferenceOpaque_t, cublasStatus_t (*)(cublasLtMatmulPreference_t)>
      pref_guard(pref, cublasLtMatmulPreferenceDestroy);
  set_pref(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, kMaxWorkspaceBytes);
  set_pref(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, static_cast<uint32_t>(align[0]));
  set_pref(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, static_cast<uint32_t>(align[1]));
  set_pref(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, static_cast<uint32_t>(align[2]));
  set_pref(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, static_cast<uint32_t>(align[2]));
  if (g.dtype == diopi_dtype_float16 || g.dtype == diopi_dtype_bfloat16) {
    // Split-K partials in float, never summed in the 16-bit output type (in place or not).
    const uint32_t mask = CUBLASLT_REDUCTION_SCHEME_NONE | CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE;
    set_pref(pref, CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, mask);
  }
  cublasLtMatmulHeuristicResult_t result{};
  int returned = 0;
  const cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(handle, p->op, p->a, p->b, p->d, p->d,
                                                           pref, 1, &result, &returned);
  if (st == CUBLAS_STATUS_NOT_SUPPORTED || (st == CUBLAS_STATUS_SUCCESS && returned == 0))
    return p;  // no algorithm: found stays false
  lt_check(st, "cublasLtMatmulAlgoGetHeuristic");
  p->algo = result.algo;
  p->workspace = result.workspaceSize;
  p->found = true;
  return p;
}

// The cached plan for `g` on `device` (built on a miss).
Plan& plan_for(int device, const Gemm& g) {
  const int64_t es = cuk::dtype_size(g.dtype);
  const int64_t align[] = {
      alignment(g.a.data, g.a.batch_stride * es), alignment(g.b.data, g.b.batch_stride * es),
      alignment(g.d.data, g.d.batch_stride * es), g.bias != nullptr ? alignment(g.bias) : 0};
  PlanKey key;
  int i = 0;
  for (int64_t x :
       {int64_t{device}, int64_t{g.dtype}, g.batch, align[0], align[1], align[2], align[3]})
    key.v[i++] = x;
  for (const LtMat* m : {&g.a, &g.b, &g.d})
    for (int64_t x : {int64_t{m->op}, m->rows, m->cols, m->ld, m->batch_stride}) key.v[i++] = x;
  thread_local std::unordered_map<PlanKey, std::unique_ptr<Plan>, PlanKeyHash> cache;
  auto it = cache.find(key);
  if (it != cache.end()) return *it->second;
  std::unique_ptr<Plan> p = make_plan(lt_handle(device), g, align);
  if (cache.size() >= kMaxCachedPlans) cache.clear();
  return *cache.emplace(key, std::move(p)).first->second;
}

// 256-byte aligned device workspace valid until this DIOPI call returns.
void* workspace(diopiContextHandle_t ctx, size_t bytes) {
  if (bytes == 0) return nullptr;
  diopiTensorHandle_t h = nullptr;
  void* p = nullptr;
  if (diopiRequireBuffer(ctx, &h, static_cast<int64_t>(bytes + 256), diopi_device) !=
          diopiSuccess ||
      h == nullptr || diopiGetTensorData(h, &p) != diopiSuccess)
    cuk::failf(diopiErrorOccurred, "cannot allocate %zu bytes of cuBLASLt workspace", bytes);
  return reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(p) + 255) & ~uintptr_t{255});
}

void run(diopiContextHandle_t ctx, cudaStream_t stream, int device, const Gemm& g, Plan& p,
         double alpha, double beta) {
  if (g.bias != nullptr)
    set_desc(p.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, g.bias, "set BIAS_POINTER");
  void* ws = workspace(ctx, p.workspace);
  const float alpha_f = static_cast<float>(alpha), beta_f = static_cast<float>(beta);
  const bool f64 = g.dtype == diopi_dtype_float64;
  const void* alpha_p = f64 ? static_cast<const void*>(&alpha) : &alpha_f;
  const void* beta_p = f64 ? static_cast<const void*>(&beta) : &beta_f;
  lt_check(cublasLtMatmul(lt_handle(device), p.op, alpha_p, g.a.data, p.a, g.b.data, p.b, beta_p,
                          g.d.data, p.d, g.d.data, p.d, &p.algo, ws, p.workspace, stream),
           "cublasLtMatmul");
}

// ---- k == 0: the product is zero.

struct ZeroF {
  __device__ float operator()() const { return 0.f; }
};
struct ScaleF {
  double beta;
  template <class A>
  __device__ A operator()(A x) const {
    return static_cast<A>(beta) * x;
  }
};

// ---- the product

// out [.., m, n] = beta * bias + alpha * (a [.., m, k] @ b [.., k, n]); bias (broadcast to out)
// may be null, and is ignored when beta == 0.
void product(diopiContextHandle_t ctx, const cuk::Tensor& out, cuk::Tensor a, cuk::Tensor b,
             const cuk::Tensor* bias, double alpha, double beta) {
  const int nd = out.ndim;
  const int64_t n = out.sizes[nd - 1], k = a.sizes[nd - 1];
  const int64_t batch = nd == 3 ? out.sizes[0] : 1;
  if (out.numel == 0) return;
  const cudaStream_t stream = cuk::stream_of(ctx);
  const bool use_bias = bias != nullptr && beta != 0;
  const diopiDtype_t ct = out.dtype;
  // `input` partly overlapping out would be overwritten while read: read it from a copy.
  cuk::Tensor in;
  if (use_bias) {
    in = *bias;
    if (!cuk::same_view(in, out) && cuk::overlaps(in, out)) {
      const cuk::Tensor copy = cuk::scratch_like(ctx, in, in.dtype);
      cuk::cast_copy(stream, copy, in);
      in = copy;
    }
  }

  if (k == 0) {
    cuk::dispatch<cuk::kFloating>(ct, "out", [&](auto tag) {
      using T = cuk::TypeOf<decltype(tag)>;
      if (!use_bias) {
        cuk::map<T>(stream, out, ZeroF{});
        return;
      }
      if (!same_view(in, out)) cuk::cast_copy(stream, out, in);
      if (beta != 1) cuk::map<T, T>(stream, out, ScaleF{beta}, out);
    });
    return;
  }

  CUK_DECLINE_UNLESS(batch <= INT32_MAX, "batch %lld exceeds cuBLASLt's batch count range",
                     static_cast<long long>(batch));
  a = cuk::as_dtype(ctx, a, ct);
  b = cuk::as_dtype(ctx, b, ct);
  Gemm g;
  g.dtype = ct;
  g.batch = batch;
  g.a = operand(ctx, b);  // cuBLASLt's A is B^T [n, k]
  g.b = operand(ctx, a);  // cuBLASLt's B is A^T [k, m]
  // D: out itself, or dense scratch copied into out at the end. (`in` overlapping out is the
  // same view or was copied above, so only the matrices can alias it.)
  const bool direct = as_output(out, &g.d) && !cuk::overlaps(out, a) && !cuk::overlaps(out, b);
  cuk::Tensor dst = out;
  if (!direct) {
    dst = cuk::scratch_like(ctx, out, ct);
    const bool ok = as_output(dst, &g.d);
    CUK_CHECK(ok, "scratch output %s is not dense", dst.shape_str().c_str());
  }

  const int device = current_device();
  bool done = false;
  // addmm's bias row ([n] or [1, n]) with beta 1 goes to the epilogue: D = alpha * A @ B + bias
  // (the bias vector runs along D's rows, i.e. along out's columns), one pass and no copy.
  if (use_bias && beta == 1 && nd == 2 && in.dtype == ct && in.ndim >= 1 && in.numel == n &&
      in.sizes[in.ndim - 1] == n && (n == 1 || in.strides[in.ndim - 1] == 1) &&
      !cuk::overlaps(in, dst)) {
    g.bias = in.data;
    Plan& p = plan_for(device, g);
    if (p.found) {
      run(ctx, stream, device, g, p, alpha, 0.0);
      done = true;
    }
    g.bias = nullptr;  // else no epilogue algorithm for this problem: copy the bias instead
  }
  if (!done) {
    Plan& p = plan_for(device, g);
    CUK_DECLINE_UNLESS(p.found, "cuBLASLt has no algorithm for %s @ %s (%s)", a.shape_str().c_str(),
                       b.shape_str().c_str(), cuk::dtype_name(ct));
    if (use_bias && !same_view(in, dst)) cuk::cast_copy(stream, dst, in);
    run(ctx, stream, device, g, p, alpha, use_bias ? beta : 0.0);
  }
  if (!direct) cuk::cast_copy(stream, out, dst);
}

// Dtypes, and shapes: out [.., M, N] = a [.., M, K] @ b [.., K, N], all of rank `nd`.
void check_product(const cuk::Tensor& out, const cuk::Tensor& a, const cuk::Tensor& b, int nd,
                   const char* a_name, const char* b_name) {
  // Dtypes first: an unsupported one declines to the CPU, which reports any shape error.
  cuk::check_dtype(out, cuk::kFloating, "out");
  cuk::check_dtype(a, cuk::kFloating, a_name);
  cuk::check_dtype(b, cuk::kFloating, b_name);
  CUK_CHECK(a.ndim == nd && b.ndim == nd && out.ndim == nd,
            "expected %d-D tensors, got %s %s, %s %s, out %s", nd, a_name, a.shape_str().c_str(),
            b_name, b.shape_str().c_str(), out.shape_str().c_str());
  const int r = nd - 2, c = nd - 1;
  CUK_CHECK(a.sizes[c] == b.sizes[r] && out.sizes[r] == a.sizes[r] && out.sizes[c] == b.sizes[c] &&
                (nd == 2 || (a.sizes[0] == b.sizes[0] && out.sizes[0] == a.sizes[0])),
            "shapes do not match: %s @ %s -> %s", a.shape_str().c_str(), b.shape_str().c_str(),
            out.shape_str().c_str());
}

void add_product(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                 diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t a_h,
                 diopiConstTensorHandle_t b_h, int nd, double beta, double alpha) {
  const char* a_name = nd == 2 ? "mat1" : "batch1";
  const char* b_name = nd == 2 ? "mat2" : "batch2";
  const cuk::Tensor out = cuk::output(out_h, "out");
  const cuk::Tensor input = cuk::input(input_h, "input");
  const cuk::Tensor a = cuk::input(a_h, a_name), b = cuk::input(b_h, b_name);
  check_product(out, a, b, nd, a_name, b_name);
  cuk::check_dtype(input, cuk::kAllTypes, "input");
  cuk::broadcast_to(input, out, "input");  // validates the shapes before any work
  product(ctx, out, a, b, &input, alpha, beta);
}

}  // namespace

extern "C" diopiError_t diopiMm(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat2) {
  return cuk::guarded("diopiMm", [&] {
    const cuk::Tensor o = cuk::output(out, "out");
    const cuk::Tensor a = cuk::input(input, "input"), b = cuk::input(mat2, "mat2");
    check_product(o, a, b, 2, "input", "mat2");
    product(ctx, o, a, b, nullptr, 1.0, 0.0);
  });
}

extern "C" diopiError_t diopiBmm(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat2) {
  return cuk::guarded("diopiBmm", [&] {
    const cuk::Tensor o = cuk::output(out, "out");
    const cuk::Tensor a = cuk::input(input, "input"), b = cuk::input(mat2, "mat2");
    check_product(o, a, b, 3, "input", "mat2");
    product(ctx, o, a, b, nullptr, 1.0, 0.0);
  });
}

extern "C" diopiError_t diopiAddmm(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat1,
                                   diopiConstTensorHandle_t mat2, const diopiScalar_t* beta,
                                   const diopiScalar_t* alpha) {
  return cuk::guarded("diopiAddmm", [&] {
    const cuk::Scalar one = cuk::scalar_of(int64_t{1});
    add_product(ctx, out, input, mat1, mat2, 2, cuk::scalar_or(beta, one).to_double(),
                cuk::scalar_or(alpha, one).to_double());
  });
}

extern "C" diopiError_t diopiBaddbmm(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input,
                                     diopiConstTensorHandle_t batch1,
                                     diopiConstTensorHandle_t batch2, double beta, double alpha) {
  return cuk::guarded("diopiBaddbmm",
                      [&] { add_product(ctx, out, input, batch1, batch2, 3, beta, alpha); });
}

extern "C" diopiError_t diopiBaddbmmInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                        diopiConstTensorHandle_t batch1,
                                        diopiConstTensorHandle_t batch2, double beta,
                                        double alpha) {
  return cuk::guarded("diopiBaddbmmInp",
                      [&] { add_product(ctx, input, input, batch1, batch2, 3, beta, alpha); });
}
