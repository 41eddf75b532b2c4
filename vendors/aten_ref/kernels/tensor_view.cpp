// DIOPI arguments as ATen values (see aten_ref.h).
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ScalarOps.h>
#include <ATen/native/TypeProperties.h>
#include <ATen/ops/empty.h>
#include <c10/core/StorageImpl.h>
#include <c10/core/TensorImpl.h>
#include <c10/util/Exception.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "aten_ref.h"
#include "opweave/diopi_convert.h"  // the runtime's dtype tables (libopweave, linked anyway)

extern "C" void opweave_set_last_error(const char* msg);  // implemented by the runtime

namespace aten_ref {

at::ScalarType dtype(diopiDtype_t t) {
  const at::ScalarType type = opweave::aten_dtype(t);
  TORCH_CHECK(type != at::ScalarType::Undefined, "aten_ref: DIOPI dtype ", static_cast<int>(t),
              " has no ATen type");
  return type;
}

diopiDtype_t diopi_dtype(at::ScalarType t) {
  const diopiDtype_t type = opweave::diopi_dtype(t);
  TORCH_CHECK(type != diopi_dtype_unsupported, "aten_ref: ATen dtype ", t, " has no DIOPI type");
  return type;
}

c10::optional<at::ScalarType> optional_dtype(const diopiDtype_t* t) {
  if (t == nullptr) return c10::nullopt;
  return dtype(*t);
}

namespace {

c10::Storage borrowed_storage(void* data, size_t nbytes) {
  return c10::Storage(c10::Storage::use_byte_size_t(), nbytes,
                      at::DataPtr(data, c10::Device(c10::kCPU)), /*allocator=*/nullptr,
                      /*resizable=*/false);
}

// The CPU tensors a thread's kernels view DIOPI handles through, reused from call to call.
// Building one with from_blob and destroying it afterwards (a TensorImpl and a StorageImpl,
// allocated, initialised and freed) was about 1,300 instructions per tensor argument: most of
// what a 1-element aten_ref op cost over native CPU. A view is taken again only when nothing
// else holds it or its storage (the kernel's locals are gone), and it is then re-pointed as a
// fresh from_blob would have been made: new data pointer, size, stride, offset 0, dtype.
//
// Views are kept by geometry (dtype, sizes, strides) in a small set-associative table, so a
// model's next op on a shape it has seen finds a view already shaped: setting sizes and
// strides (and recomputing the contiguity flags) is ~290 instructions, and with the first free
// view taken whatever its shape, four views in five of a tiny-GPT forward paid it (121 of 153,
// callgrind, torch 1.13).
class ViewPool {
 public:
  at::Tensor view(const diopiTensorLayout_t& layout) {
    const caffe2::TypeMeta meta = type_meta(layout.dtype);
    const auto [set, nbytes] = place(layout, meta.itemsize());
    c10::intrusive_ptr<c10::TensorImpl>* ways = &views_[set * kWays];
    for (size_t w = 0; w < kWays; ++w) {
      if (ways[w] && free_to_reuse(ways[w]) && same_geometry(*ways[w], layout, meta)) {
        return repoint(ways[w], layout, meta, nbytes, /*geometry_kept=*/true);
      }
    }
    return reshape_or_add(set, layout, meta, nbytes);
  }

 private:
  static constexpr size_t kWays = 4;
  // A power of two. 16 sets left a quarter of a small CNN step's views to be reshaped (44 of
  // 183 a step, ~490 instructions each; the ResNet-style step of bench/icount_steps.h): a
  // step's geometries did not fit. 64 sets keep most; 128 sets, or 8 ways, did no better.
  static constexpr size_t kSets = 64;

  // No free view of this geometry: a new one while the set has room, else a free view of
  // another geometry reshaped (the set's ways in turn), else a one-off view (all in use).
  C10_NOINLINE at::Tensor reshape_or_add(size_t set, const diopiTensorLayout_t& layout,
                                         caffe2::TypeMeta meta, size_t nbytes) {
    c10::intrusive_ptr<c10::TensorImpl>* ways = &views_[set * kWays];
    for (size_t w = 0; w < kWays; ++w) {
      if (!ways[w]) {
        ways[w] = fresh(layout, meta, nbytes);
        return at::Tensor(ways[w]);
      }
    }
    for (size_t i = 0; i < kWays; ++i) {
      const size_t w = (cursor_[set] + i) % kWays;
      if (free_to_reuse(ways[w])) {
        cursor_[set] = static_cast<uint8_t>((w + 1) % kWays);
        return repoint(ways[w], layout, meta, nbytes, /*geometry_kept=*/false);
      }
    }
    return at::Tensor(fresh(layout, meta, nbytes));
  }

  // Nothing but the table holds the view: a kernel may keep one (a returned alias, a saved
  // result), and then it is left be. A storage the kernel still shares is replaced in repoint.
  static bool free_to_reuse(const c10::intrusive_ptr<c10::TensorImpl>& impl) {
    return impl.use_count() == 1 && impl.weak_use_count() == 1 && impl->autograd_meta() == nullptr;
  }

  static bool same_geometry(const c10::TensorImpl& impl, const diopiTensorLayout_t& layout,
                            caffe2::TypeMeta meta) {
    return impl.dtype() == meta && same_ints(impl.sizes(), layout.shape) &&
           same_ints(impl.strides(), layout.stride) && impl.storage_offset() == 0;
  }

  // The geometry's set in the table and the bytes the view spans from its first element
  // (from_blob's size; 0 when empty), in one pass over the dimensions.
  struct Place {
    size_t set;
    size_t nbytes;
  };
  static Place place(const diopiTensorLayout_t& layout, size_t itemsize) {
    uint64_t h =
        (static_cast<uint64_t>(layout.dtype) << 8) ^ static_cast<uint64_t>(layout.shape.len);
    int64_t last = 0;
    bool empty = false;
    for (int64_t d = 0; d < layout.shape.len; ++d) {
      const int64_t size = layout.shape.data[d];
      const int64_t stride = layout.stride.data[d];
      h = (h ^ static_cast<uint64_t>(size)) * 0x100000001b3ULL;
      h = (h ^ static_cast<uint64_t>(stride)) * 0x100000001b3ULL;
      empty |= size == 0;
      last += (size - 1) * stride;
    }
    return {static_cast<size_t>(h ^ (h >> 29)) & (kSets - 1),
            empty ? 0 : static_cast<size_t>(last + 1) * itemsize};
  }

  static c10::intrusive_ptr<c10::TensorImpl> fresh(const diopiTensorLayout_t& layout,
                                                   caffe2::TypeMeta meta, size_t nbytes) {
    auto impl = c10::make_intrusive<c10::TensorImpl>(
        borrowed_storage(layout.data, nbytes), c10::DispatchKeySet(c10::DispatchKey::CPU), meta);
    impl->set_sizes_and_strides(ints(layout.shape), ints(layout.stride));
    return impl;
  }

  C10_ALWAYS_INLINE static at::Tensor repoint(c10::intrusive_ptr<c10::TensorImpl>& impl,
                                              const diopiTensorLayout_t& layout,
                                              caffe2::TypeMeta meta, size_t nbytes,
                                              bool geometry_kept) {
    const c10::Storage& held = impl->unsafe_storage();
    c10::StorageImpl* storage = held.unsafeGetStorageImpl();
    if (storage != nullptr && held.use_count() == 1 && !storage->resizable() &&
        storage->allocator() == nullptr) {
      if (storage->data() != layout.data) {  // a loop over one tensor finds it set
        storage->set_data_ptr_noswap(at::DataPtr(layout.data, c10::Device(c10::kCPU)));
      }
      // Mostly unchanged: a model's next tensor of a shape spans what its last one did. Setting
      // it anyway cost ~23 instructions a view on torch 1.13 (the size becomes a SymInt).
      if (storage->nbytes() != nbytes) storage->set_nbytes(nbytes);
      if (impl->dtype() != meta) impl->set_storage_and_dtype(held, meta);
    } else {  // the kernel shares or swapped the storage: give this view a fresh one
      impl->set_storage_and_dtype(borrowed_storage(layout.data, nbytes), meta);
    }
    if (!geometry_kept) {
      impl->set_sizes_and_strides(ints(layout.shape), ints(layout.stride), /*storage_offset=*/0);
    }
    return at::Tensor(impl);
  }

  // The last dtype's TypeMeta: a kernel's tensors mostly share one, and converting through the
  // runtime's table (two calls across libraries and a check) was ~25 instructions per view.
  caffe2::TypeMeta type_meta(diopiDtype_t t) {
    if (C10_LIKELY(static_cast<int>(t) == last_dtype_)) return last_meta_;
    last_meta_ = c10::scalarTypeToTypeMeta(dtype(t));  // throws for a dtype ATen lacks
    last_dtype_ = static_cast<int>(t);
    return last_meta_;
  }

  std::array<c10::intrusive_ptr<c10::TensorImpl>, kSets * kWays> views_;
  std::array<uint8_t, kSets> cursor_{};  // per set: the way a new geometry replaces next
  int last_dtype_ = -1;                  // none yet (an int: -1 is no diopiDtype_t)
  caffe2::TypeMeta last_meta_;
};

// This thread's pool. The pointer is in the static TLS block (initial-exec: one load, where a
// thread_local object in a shared library costs a __tls_get_addr call and a guard check on
// every access, ~20 instructions per tensor argument); the pool it points to is created, and
// destroyed at thread exit, by an ordinary thread_local touched once per thread. The pool
// lives on the heap: with an initial-exec variable in it, this library's whole TLS segment
// must fit the small static TLS surplus glibc keeps for libraries loaded with dlopen (a
// 2 KiB table inline made the vendor fail to load: "cannot allocate memory in static TLS").
__attribute__((tls_model("initial-exec"))) thread_local ViewPool* t_pool = nullptr;

ViewPool& make_pool() {
  thread_local const std::unique_ptr<ViewPool> owned = std::make_unique<ViewPool>();
  t_pool = owned.get();
  return *owned;
}

ViewPool& pool() {
  ViewPool* p = t_pool;
  return C10_LIKELY(p != nullptr) ? *p : make_pool();
}

diopiTensorLayout_t layout_of(diopiConstTensorHandle_t h) {
  TORCH_CHECK(h != nullptr, "aten_ref: a required tensor argument is null");
  // One call for what DIOPI's accessors give in four (the runtime's extension): a quarter of
  // what viewing a handle cost.
  diopiTensorLayout_t layout{};
  TORCH_CHECK(diopiGetTensorLayout(h, &layout) == diopiSuccess,
              "aten_ref: cannot read a DIOPI tensor handle");
  return layout;
}

}  // namespace

at::Tensor wrap(diopiConstTensorHandle_t h) { return pool().view(layout_of(h)); }

c10::optional<at::Tensor> wrap_optional(diopiConstTensorHandle_t h) {
  if (h == nullptr) return c10::nullopt;
  return wrap(h);
}

std::vector<at::Tensor> wrap_list(const diopiConstTensorHandle_t* hs, int64_t n) {
  std::vector<at::Tensor> out;
  out.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out.push_back(wrap(hs[i]));
  return out;
}

std::vector<at::Tensor> wrap_list(const diopiTensorHandle_t* hs, int64_t n) {
  return wrap_list(reinterpret_cast<const diopiConstTensorHandle_t*>(hs), n);
}

c10::List<c10::optional<at::Tensor>> wrap_optional_list(const diopiConstTensorHandle_t* hs,
                                                        int64_t n) {
  c10::List<c10::optional<at::Tensor>> out;
  out.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out.push_back(wrap_optional(hs[i]));
  return out;
}

at::Tensor number_operand(const at::Tensor& input, const diopiScalar_t* s) {
  const at::Scalar value = scalar(s);
  // ATen's promotion of (tensor, Python number): a float number counts as the default dtype
  at::native::ResultTypeState state{};
  state = at::native::update_result_type_state(input, state);
  state.wrappedResult = value.isFloatingPoint()
                            ? c10::typeMetaToScalarType(c10::get_default_dtype())
                            : (value.isBoolean() ? at::kBool : at::kLong);
  at::ScalarType dtype = at::native::result_type(state);
  if (dtype == at::kHalf || dtype == at::kBFloat16) dtype = at::kFloat;
  return at::detail::scalar_tensor_static(value, dtype, at::kCPU);
}

at::Scalar scalar(const diopiScalar_t* s) {
  TORCH_CHECK(s != nullptr, "aten_ref: a required scalar argument is null");
  switch (s->stype) {
    case diopi_dtype_float16:
    case diopi_dtype_bfloat16:
    case diopi_dtype_float32:
    case diopi_dtype_float64:
      return at::Scalar(s->fval);
    case diopi_dtype_bool:
      return at::Scalar(s->ival != 0);
    default:
      return at::Scalar(s->ival);
  }
}

c10::optional<at::Scalar> optional_scalar(const diopiScalar_t* s) {
  if (s == nullptr) return c10::nullopt;
  return scalar(s);
}

c10::optional<c10::string_view> round_mode(diopiRoundMode_t mode) {
  switch (mode) {
    case RoundModeTrunc:
      return c10::string_view("trunc");
    case RoundModeFloor:
      return c10::string_view("floor");
    default:
      return c10::nullopt;
  }
}

SeededCpuGenerator::SeededCpuGenerator(diopiGeneratorHandle_t device_generator) {
  if (device_generator == nullptr) return;
  uint64_t seed = 0, offset = 0;
  TORCH_CHECK(
      diopiGeneratorGetSeedAndOffset(device_generator, &seed, &offset) == diopiSuccess &&
          diopiGeneratorSetSeedAndOffset(device_generator, seed, offset + 1) == diopiSuccess,
      "aten_ref: cannot read the device generator");
  // splitmix64 of (seed, offset): well-spread seeds for consecutive offsets
  uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (offset + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  generator_ = at::make_generator<at::CPUGeneratorImpl>(z ^ (z >> 31));
}

Output::Output(diopiTensorHandle_t h, Mode mode) : handle_(h) {
  const diopiTensorLayout_t layout = layout_of(h);
  // The device tensor's own strides (the runtime keeps them unchanged while the kernel runs):
  // commit() compares against them without asking the runtime again.
  stride_ = layout.stride;
  view_ = pool().view(layout);
  const bool direct = view_.is_contiguous() && (mode == kInPlace || view_.numel() > 1);
  work_ = direct ? view_ : at::empty(view_.sizes(), view_.options());
}

void Output::commit() {
  if (!work_.is_same(view_)) {
    view_.copy_(work_);
    return;
  }
  // Written in place. A kernel that restrided its out= (max_unpool2d follows a channels-last
  // input) wrote in its own layout: lay the values out as the handle's. The check is a stride
  // comparison, not a per-call alias (that cost every aten_ref out= kernel ~1300 instructions).
  if (C10_UNLIKELY(!same_ints(work_.strides(), stride_))) {
    const at::Tensor values = work_.clone();
    wrap(handle_).copy_(values);
  }
}

// ATen's grain size: from here on copy_ splits the copy across threads.
constexpr int64_t kMemcpyBelow = 32768;

void copy_result(diopiTensorHandle_t out, const at::Tensor& result) {
  if (out == nullptr) return;
  copy_into(wrap(out), result);
}

void copy_into(const at::Tensor& target, const at::Tensor& result) {
  // The caller sized out by the catalogue's rule; this torch's kernel may promote further
  // (torch 2.x's native_dropout_backward gives float for an int64 gradient). copy_ would
  // truncate silently: decline instead, as ATen's own out= check refuses the same cast.
  if (!c10::canCast(result.scalar_type(), target.scalar_type())) {
    throw DtypeDeclined(std::string("aten_ref: this torch computes ") +
                        c10::toString(result.scalar_type()) + ", which an out of " +
                        c10::toString(target.scalar_type()) + " cannot hold");
  }
  // A functional kernel's result in the caller's layout and dtype: the bytes as they are.
  // copy_ through TensorIterator cost ~3,000 instructions even for one element, a quarter of a
  // small functional op (relu, the softmax family); large copies keep copy_'s parallel loop.
  if (result.scalar_type() == target.scalar_type() && result.sizes().equals(target.sizes()) &&
      result.is_contiguous() && target.is_contiguous() && result.numel() < kMemcpyBelow &&
      !result.is_conj() && !result.is_neg()) {  // lazy conjugate / negation: copy_ applies them
    const size_t nbytes = static_cast<size_t>(result.numel()) * result.element_size();
    if (nbytes > 0) std::memmove(target.data_ptr(), result.data_ptr(), nbytes);
    return;
  }
  target.copy_(result);
}

void return_allocated(diopiContextHandle_t ctx, diopiTensorHandle_t* out,
                      const at::Tensor& result) {
  TORCH_CHECK(out != nullptr, "aten_ref: null output slot");
  const diopiSize_t shape{result.sizes().data(), result.dim()};
  const diopiDtype_t type = diopi_dtype(result.scalar_type());
  TORCH_CHECK(diopiRequireTensor(ctx, out, &shape, nullptr, type, diopi_device) == diopiSuccess,
              "aten_ref: cannot allocate an output of shape ", result.sizes());
  copy_result(*out, result);
}

diopiError_t fail(const std::exception& e) noexcept {
  const auto* error = dynamic_cast<const c10::Error*>(&e);
  const std::string message =
      std::string("aten_ref: ") + (error != nullptr ? error->what_without_backtrace() : e.what());
  opweave_set_last_error(message.c_str());
  // ATen has no CPU kernel for this dtype (float16 in 1.13, mostly): the wrapper then runs the
  // op through the CPU fallback, which upcasts, instead of failing the call.
  if (message.find("not implemented for '") != std::string::npos) return diopiDtypeNotSupported;
  if (dynamic_cast<const DtypeDeclined*>(&e) != nullptr) return diopiDtypeNotSupported;
  return diopiErrorOccurred;
}

}  // namespace aten_ref
