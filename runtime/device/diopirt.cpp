// The diopirt accessors kernels call: tensor metadata, context, generators, profiler ranges.
// Every entry point runs its body in opweave::diopi_guard, which converts C++ exceptions into an
// error code plus the last-error message.
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_strided.h>
#include <ATen/record_function.h>
#include <diopi/prototypes.h>

#include <mutex>
#include <stdexcept>
#include <string>

#include "opweave/context.h"
#include "opweave/diopi_convert.h"
#include "opweave/diopi_errors.h"
#include "opweave/diopi_handles.h"
#include "opweave/generator.h"
#include "opweave/torch_compat.h"
#include "opweave/vendor.h"

using opweave::diopi_fail;

namespace {

const at::Tensor& checked(diopiConstTensorHandle_t th, const char* fn) {
  if (th == nullptr) throw std::invalid_argument(std::string(fn) + ": tensor handle is NULL");
  const at::Tensor& t = opweave::tensor(th);
  if (!t.defined()) throw std::invalid_argument(std::string(fn) + ": tensor is undefined");
  return t;
}

void require(bool ok, const char* fn, const char* what) {
  if (!ok) throw std::invalid_argument(std::string(fn) + ": " + what);
}

at::TensorOptions options_for(diopiContextHandle_t ctx, diopiDtype_t dtype, diopiDevice_t device,
                              const char* fn) {
  const c10::ScalarType st = opweave::aten_dtype(dtype);
  if (st == c10::ScalarType::Undefined) {
    throw std::domain_error(std::string(fn) + ": dtype " + std::to_string(dtype) +
                            " is not supported by torch");
  }
  at::TensorOptions opts = at::TensorOptions().dtype(st);
  return device == diopi_host ? opts.device(c10::kCPU)
                              : opts.device(c10::Device(c10::DeviceType::PrivateUse1, ctx->device));
}

// The tensor accessors' one pattern: `out` must not be NULL, `th` must name a defined tensor,
// then *out = get(tensor); an exception becomes a code plus the last-error message.
template <class T, class Get>
diopiError_t tensor_query(const char* fn, diopiConstTensorHandle_t th, T* out, const char* what,
                          Get get) {
  return opweave::diopi_guard([&] {
    require(out != nullptr, fn, what);
    *out = get(checked(th, fn));
  });
}

}  // namespace

extern "C" {

const char* diopiGetVersion(void) { return "DIOPI 1.0.0 (OpWeave runtime)"; }

const char* diopiGetVendorName(void) { return opweave::vendor_info().name.c_str(); }

const char* diopiGetImplVersion(void) { return "OpWeave runtime 0.1, seam version 1"; }

diopiError_t diopiGetTensorData(diopiTensorHandle_t th, void** data) {
  return tensor_query(__func__, th, data, "data is NULL",
                      [](const at::Tensor& t) { return t.data_ptr(); });
}

diopiError_t diopiGetTensorDataConst(diopiConstTensorHandle_t th, const void** data) {
  return tensor_query(__func__, th, data, "data is NULL",
                      [](const at::Tensor& t) { return t.data_ptr(); });
}

diopiError_t diopiGetTensorShape(diopiConstTensorHandle_t th, diopiSize_t* size) {
  return tensor_query(__func__, th, size, "size is NULL", [](const at::Tensor& t) {
    return diopiSize_t{t.sizes().data(), t.dim()};
  });
}

diopiError_t diopiGetTensorStride(diopiConstTensorHandle_t th, diopiSize_t* stride) {
  return tensor_query(__func__, th, stride, "stride is NULL", [](const at::Tensor& t) {
    return diopiSize_t{t.strides().data(), t.dim()};
  });
}

diopiError_t diopiGetTensorDtype(diopiConstTensorHandle_t th, diopiDtype_t* dtype) {
  return tensor_query(__func__, th, dtype, "dtype is NULL",
                      [](const at::Tensor& t) { return opweave::diopi_dtype(t.scalar_type()); });
}

diopiError_t diopiGetTensorDevice(diopiConstTensorHandle_t th, diopiDevice_t* device) {
  return tensor_query(__func__, th, device, "device is NULL",
                      [](const at::Tensor& t) { return t.is_cpu() ? diopi_host : diopi_device; });
}

diopiError_t diopiGetTensorNumel(diopiConstTensorHandle_t th, int64_t* numel) {
  return tensor_query(__func__, th, numel, "numel is NULL",
                      [](const at::Tensor& t) { return t.numel(); });
}

diopiError_t diopiGetTensorElemSize(diopiConstTensorHandle_t th, int64_t* itemsize) {
  return tensor_query(__func__, th, itemsize, "itemsize is NULL",
                      [](const at::Tensor& t) { return static_cast<int64_t>(t.element_size()); });
}

diopiError_t diopiGetTensorStoragePtr(diopiConstTensorHandle_t th, void** ptr) {
  return tensor_query(__func__, th, ptr, "ptr is NULL", [](const at::Tensor& t) {
    return opweave::compat::storage_data(t.storage());
  });
}

diopiError_t diopiGetTensorStorageOffset(diopiConstTensorHandle_t th, int64_t* offset) {
  return tensor_query(__func__, th, offset, "offset is NULL",
                      [](const at::Tensor& t) { return t.storage_offset(); });
}

diopiError_t diopiGetTensorStorageNbytes(diopiConstTensorHandle_t th, size_t* nbytes) {
  return tensor_query(__func__, th, nbytes, "nbytes is NULL",
                      [](const at::Tensor& t) { return t.storage().nbytes(); });
}

diopiError_t diopiGetTensorDeviceIndex(diopiConstTensorHandle_t th, diopiDeviceIndex_t* index) {
  return tensor_query(__func__, th, index, "index is NULL", [](const at::Tensor& t) {
    return static_cast<diopiDeviceIndex_t>(t.is_cpu() ? -1 : t.device().index());
  });
}

// The accessor a host-memory vendor calls for every tensor argument (aten_ref: three per
// 1-element add). A tensor with a storage is read straight off its TensorImpl: data_ptr()'s
// checks (a virtual has_storage(), the dtype) and the guard's NULL check as a call were ~30 of
// its ~85 instructions. A NULL argument and a tensor whose storage has no memory behind it (an
// undefined one, a fake tensor of torch 2.x, an empty one that never had memory) take the
// checked path below, which reports them or, for the empty tensor, gives no data pointer.
diopiError_t diopiGetTensorLayout(diopiConstTensorHandle_t th, diopiTensorLayout_t* layout) {
  if (C10_LIKELY(th != nullptr && layout != nullptr)) {
    const at::Tensor& t = opweave::tensor(th);
    const c10::Storage& storage = t.unsafeGetTensorImpl()->unsafe_storage();
    const c10::StorageImpl* memory = storage.unsafeGetStorageImpl();
    if (C10_LIKELY(memory != nullptr && memory->data() != nullptr)) {
      const c10::IntArrayRef sizes = t.sizes();
      void* data = t.numel() == 0 ? nullptr  // as data_ptr(): no offset into an empty tensor
                                  : static_cast<char*>(opweave::compat::storage_data(storage)) +
                                        t.storage_offset() * static_cast<int64_t>(t.itemsize());
      *layout = diopiTensorLayout_t{data,
                                    {sizes.data(), static_cast<int64_t>(sizes.size())},
                                    {t.strides().data(), static_cast<int64_t>(sizes.size())},
                                    opweave::diopi_dtype(t.scalar_type())};
      return diopiSuccess;
    }
  }
  return tensor_query(__func__, th, layout, "layout is NULL", [](const at::Tensor& t) {
    return diopiTensorLayout_t{const_cast<void*>(t.data_ptr()),
                               {t.sizes().data(), t.dim()},
                               {t.strides().data(), t.dim()},
                               opweave::diopi_dtype(t.scalar_type())};
  });
}

diopiError_t diopiGetStream(diopiContextHandle_t ctx, diopiStreamHandle_t* stream) {
  return opweave::diopi_guard([&] {
    require(ctx != nullptr && stream != nullptr, "diopiGetStream", "NULL argument");
    *stream = ctx->stream;
  });
}

diopiError_t diopiRequireTensor(diopiContextHandle_t ctx, diopiTensorHandle_t* tensor,
                                const diopiSize_t* size, const diopiSize_t* stride,
                                const diopiDtype_t dtype, const diopiDevice_t device) {
  return opweave::diopi_guard([&] {
    const char* fn = "diopiRequireTensor";
    require(ctx != nullptr && tensor != nullptr && size != nullptr, fn, "NULL argument");
    require(size->len >= 0 && (size->len == 0 || size->data != nullptr), fn, "invalid size");
    if (opweave::aten_dtype(dtype) == c10::ScalarType::Undefined) {
      return diopi_fail(
          diopiDtypeNotSupported,
          ("diopiRequireTensor: dtype " + std::to_string(dtype) + " is not supported").c_str());
    }
    const at::TensorOptions opts = options_for(ctx, dtype, device, fn);
    const c10::IntArrayRef sizes(size->data, static_cast<size_t>(size->len));
    at::Tensor t;
    if (stride != nullptr && stride->data != nullptr) {
      require(stride->len == size->len, fn, "stride and size lengths differ");
      t = at::empty_strided(sizes, c10::IntArrayRef(stride->data, static_cast<size_t>(stride->len)),
                            opts);
    } else {
      t = at::empty(sizes, opts);
    }
    *tensor = opweave::handle(ctx->keep(std::move(t)));
    return diopiSuccess;
  });
}

diopiError_t diopiRequireBuffer(diopiContextHandle_t ctx, diopiTensorHandle_t* tensor,
                                int64_t num_bytes, diopiDevice_t device) {
  return opweave::diopi_guard([&] {
    require(ctx != nullptr && tensor != nullptr && num_bytes >= 0, "diopiRequireBuffer",
            "NULL argument or negative size");
    at::Tensor t =
        at::empty({num_bytes}, options_for(ctx, diopi_dtype_uint8, device, "diopiRequireBuffer"));
    *tensor = opweave::handle(ctx->keep(std::move(t)));
  });
}

diopiError_t diopiGeneratorGetState(diopiContextHandle_t ctx, diopiConstGeneratorHandle_t th,
                                    diopiTensorHandle_t* data) {
  return opweave::diopi_guard([&] {
    require(ctx != nullptr && th != nullptr && data != nullptr, "diopiGeneratorGetState",
            "NULL argument");
    opweave::DeviceGenerator* g = opweave::generator_of(th);
    c10::intrusive_ptr<c10::TensorImpl> state;
    {
      std::lock_guard<std::mutex> lock(g->mutex_);
      state = g->get_state();
    }
    *data = opweave::handle(ctx->keep(at::Tensor(std::move(state))));
  });
}

diopiError_t diopiGeneratorSetState(diopiGeneratorHandle_t th, diopiConstTensorHandle_t state) {
  return opweave::diopi_guard([&] {
    require(th != nullptr, "diopiGeneratorSetState", "generator handle is NULL");
    const at::Tensor& s = checked(state, "diopiGeneratorSetState");
    opweave::DeviceGenerator* g = opweave::generator_of(th);
    std::lock_guard<std::mutex> lock(g->mutex_);
    g->set_state(*s.unsafeGetTensorImpl());
  });
}

diopiError_t diopiGeneratorGetSeedAndOffset(diopiGeneratorHandle_t th, uint64_t* seed,
                                            uint64_t* offset) {
  return opweave::diopi_guard([&] {
    require(th != nullptr && seed != nullptr && offset != nullptr, "diopiGeneratorGetSeedAndOffset",
            "NULL argument");
    opweave::DeviceGenerator* g = opweave::generator_of(th);
    std::lock_guard<std::mutex> lock(g->mutex_);
    *seed = g->current_seed();
    *offset = g->offset();
  });
}

diopiError_t diopiGeneratorSetSeedAndOffset(diopiGeneratorHandle_t th, uint64_t seed,
                                            uint64_t offset) {
  return opweave::diopi_guard([&] {
    require(th != nullptr, "diopiGeneratorSetSeedAndOffset", "generator handle is NULL");
    opweave::DeviceGenerator* g = opweave::generator_of(th);
    std::lock_guard<std::mutex> lock(g->mutex_);
    g->set_current_seed(seed);
    g->set_offset(offset);
  });
}

diopiError_t diopiRecordStart(const char* record_name, void** record) {
  return opweave::diopi_guard([&] {
    require(record_name != nullptr && record != nullptr, "diopiRecordStart", "NULL argument");
    // Shows up in torch.profiler; inactive (and cheap) when nobody profiles.
    auto* rf = new at::RecordFunction(at::RecordScope::USER_SCOPE);
    if (rf->isActive()) rf->before(std::string(record_name));
    *record = rf;
  });
}

diopiError_t diopiRecordEnd(void** record) {
  return opweave::diopi_guard([&] {
    require(record != nullptr, "diopiRecordEnd", "record is NULL");
    delete static_cast<at::RecordFunction*>(*record);  // its destructor closes the range
    *record = nullptr;
  });
}

}  // extern "C"
