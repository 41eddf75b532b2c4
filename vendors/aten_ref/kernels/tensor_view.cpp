// DIOPI arguments as ATen values (see aten_ref.h).
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/from_blob.h>
#include <c10/util/Exception.h>

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

at::Tensor wrap(diopiConstTensorHandle_t h) {
  TORCH_CHECK(h != nullptr, "aten_ref: a required tensor argument is null");
  void* data = nullptr;
  diopiSize_t shape{}, stride{};
  diopiDtype_t type{};
  if (diopiGetTensorDataConst(h, const_cast<const void**>(&data)) != diopiSuccess ||
      diopiGetTensorShape(h, &shape) != diopiSuccess ||
      diopiGetTensorStride(h, &stride) != diopiSuccess ||
      diopiGetTensorDtype(h, &type) != diopiSuccess) {
    TORCH_CHECK(false, "aten_ref: cannot read a DIOPI tensor handle");
  }
  return at::from_blob(data, ints(shape), ints(stride),
                       at::TensorOptions().dtype(dtype(type)).device(at::kCPU));
}

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

Output::Output(diopiTensorHandle_t h, Mode mode) : handle_(h), view_(wrap(h)) {
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
  // read, not a per-call alias (that cost every aten_ref out= kernel ~1300 instructions).
  diopiSize_t stride{};
  if (diopiGetTensorStride(handle_, &stride) == diopiSuccess &&
      !work_.strides().equals(ints(stride))) {
    const at::Tensor values = work_.clone();
    wrap(handle_).copy_(values);
  }
}

void copy_result(diopiTensorHandle_t out, const at::Tensor& result) {
  if (out == nullptr) return;
  at::Tensor target = wrap(out);
  // The caller sized out by the catalogue's rule; this torch's kernel may promote further
  // (torch 2.x's native_dropout_backward gives float for an int64 gradient). copy_ would
  // truncate silently: decline instead, as ATen's own out= check refuses the same cast.
  if (!c10::canCast(result.scalar_type(), target.scalar_type())) {
    throw DtypeDeclined(std::string("aten_ref: this torch computes ") +
                        c10::toString(result.scalar_type()) + ", which an out of " +
                        c10::toString(target.scalar_type()) + " cannot hold");
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
