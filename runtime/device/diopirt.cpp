// The diopirt accessors kernels call: tensor metadata, context, generators, profiler ranges.
// Every entry point converts C++ exceptions into an error code plus the last-error message.
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

}  // namespace

extern "C" {

const char* diopiGetVersion(void) { return "DIOPI 1.0.0 (OpWeave runtime)"; }

const char* diopiGetVendorName(void) { return opweave::vendor_info().name.c_str(); }

const char* diopiGetImplVersion(void) { return "OpWeave runtime 0.1, seam version 1"; }

diopiError_t diopiGetTensorData(diopiTensorHandle_t th, void** data) {
  OPWEAVE_DIOPI_TRY
  require(data != nullptr, "diopiGetTensorData", "data is NULL");
  *data = checked(th, "diopiGetTensorData").data_ptr();
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiGetTensorDataConst(diopiConstTensorHandle_t th, const void** data) {
  OPWEAVE_DIOPI_TRY
  require(data != nullptr, "diopiGetTensorDataConst", "data is NULL");
  *data = checked(th, "diopiGetTensorDataConst").data_ptr();
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiGetTensorShape(diopiConstTensorHandle_t th, diopiSize_t* size) {
  OPWEAVE_DIOPI_TRY
  require(size != nullptr, "diopiGetTensorShape", "size is NULL");
  const at::Tensor& t = checked(th, "diopiGetTensorShape");
  *size = diopiSize_t{t.sizes().data(), t.dim()};
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiGetTensorStride(diopiConstTensorHandle_t th, diopiSize_t* stride) {
  OPWEAVE_DIOPI_TRY
  require(stride != nullptr, "diopiGetTensorStride", "stride is NULL");
  const at::Tensor& t = checked(th, "diopiGetTensorStride");
  *stride = diopiSize_t{t.strides().data(), t.dim()};
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiGetTensorDtype(diopiConstTensorHandle_t th, diopiDtype_t* dtype) {
  OPWEAVE_DIOPI_TRY
  require(dtype != nullptr, "diopiGetTensorDtype", "dtype is NULL");
  *dtype = opweave::diopi_dtype(checked(th, "diopiGetTensorDtype").scalar_type());
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiGetTensorDevice(diopiConstTensorHandle_t th, diopiDevice_t* device) {
  OPWEAVE_DIOPI_TRY
  require(device != nullptr, "diopiGetTensorDevice", "device is NULL");
  *device = checked(th, "diopiGetTensorDevice").is_cpu() ? diopi_host : diopi_device;
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiGetTensorNumel(diopiConstTensorHandle_t th, int64_t* numel) {
  OPWEAVE_DIOPI_TRY
  require(numel != nullptr, "diopiGetTensorNumel", "numel is NULL");
  *numel = checked(th, "diopiGetTensorNumel").numel();
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiGetTensorElemSize(diopiConstTensorHandle_t th, int64_t* itemsize) {
  OPWEAVE_DIOPI_TRY
  require(itemsize != nullptr, "diopiGetTensorElemSize", "itemsize is NULL");
  *itemsize = static_cast<int64_t>(checked(th, "diopiGetTensorElemSize").element_size());
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiGetTensorStoragePtr(diopiConstTensorHandle_t th, void** ptr) {
  OPWEAVE_DIOPI_TRY
  require(ptr != nullptr, "diopiGetTensorStoragePtr", "ptr is NULL");
  *ptr = opweave::compat::storage_data(checked(th, "diopiGetTensorStoragePtr").storage());
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiGetTensorStorageOffset(diopiConstTensorHandle_t th, int64_t* offset) {
  OPWEAVE_DIOPI_TRY
  require(offset != nullptr, "diopiGetTensorStorageOffset", "offset is NULL");
  *offset = checked(th, "diopiGetTensorStorageOffset").storage_offset();
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiGetTensorStorageNbytes(diopiConstTensorHandle_t th, size_t* nbytes) {
  OPWEAVE_DIOPI_TRY
  require(nbytes != nullptr, "diopiGetTensorStorageNbytes", "nbytes is NULL");
  *nbytes = checked(th, "diopiGetTensorStorageNbytes").storage().nbytes();
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiGetTensorDeviceIndex(diopiConstTensorHandle_t th, diopiDeviceIndex_t* index) {
  OPWEAVE_DIOPI_TRY
  require(index != nullptr, "diopiGetTensorDeviceIndex", "index is NULL");
  const at::Tensor& t = checked(th, "diopiGetTensorDeviceIndex");
  *index = static_cast<diopiDeviceIndex_t>(t.is_cpu() ? -1 : t.device().index());
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiGetStream(diopiContextHandle_t ctx, diopiStreamHandle_t* stream) {
  OPWEAVE_DIOPI_TRY
  require(ctx != nullptr && stream != nullptr, "diopiGetStream", "NULL argument");
  *stream = ctx->stream;
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiRequireTensor(diopiContextHandle_t ctx, diopiTensorHandle_t* tensor,
                                const diopiSize_t* size, const diopiSize_t* stride,
                                const diopiDtype_t dtype, const diopiDevice_t device) {
  OPWEAVE_DIOPI_TRY
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
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiRequireBuffer(diopiContextHandle_t ctx, diopiTensorHandle_t* tensor,
                                int64_t num_bytes, diopiDevice_t device) {
  OPWEAVE_DIOPI_TRY
  require(ctx != nullptr && tensor != nullptr && num_bytes >= 0, "diopiRequireBuffer",
          "NULL argument or negative size");
  at::Tensor t =
      at::empty({num_bytes}, options_for(ctx, diopi_dtype_uint8, device, "diopiRequireBuffer"));
  *tensor = opweave::handle(ctx->keep(std::move(t)));
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiGeneratorGetState(diopiContextHandle_t ctx, diopiConstGeneratorHandle_t th,
                                    diopiTensorHandle_t* data) {
  OPWEAVE_DIOPI_TRY
  require(ctx != nullptr && th != nullptr && data != nullptr, "diopiGeneratorGetState",
          "NULL argument");
  opweave::DeviceGenerator* g = opweave::generator_of(th);
  c10::intrusive_ptr<c10::TensorImpl> state;
  {
    std::lock_guard<std::mutex> lock(g->mutex_);
    state = g->get_state();
  }
  *data = opweave::handle(ctx->keep(at::Tensor(std::move(state))));
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiGeneratorSetState(diopiGeneratorHandle_t th, diopiConstTensorHandle_t state) {
  OPWEAVE_DIOPI_TRY
  require(th != nullptr, "diopiGeneratorSetState", "generator handle is NULL");
  const at::Tensor& s = checked(state, "diopiGeneratorSetState");
  opweave::DeviceGenerator* g = opweave::generator_of(th);
  std::lock_guard<std::mutex> lock(g->mutex_);
  g->set_state(*s.unsafeGetTensorImpl());
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiGeneratorGetSeedAndOffset(diopiGeneratorHandle_t th, uint64_t* seed,
                                            uint64_t* offset) {
  OPWEAVE_DIOPI_TRY
  require(th != nullptr && seed != nullptr && offset != nullptr, "diopiGeneratorGetSeedAndOffset",
          "NULL argument");
  opweave::DeviceGenerator* g = opweave::generator_of(th);
  std::lock_guard<std::mutex> lock(g->mutex_);
  *seed = g->current_seed();
  *offset = g->offset();
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiGeneratorSetSeedAndOffset(diopiGeneratorHandle_t th, uint64_t seed,
                                            uint64_t offset) {
  OPWEAVE_DIOPI_TRY
  require(th != nullptr, "diopiGeneratorSetSeedAndOffset", "generator handle is NULL");
  opweave::DeviceGenerator* g = opweave::generator_of(th);
  std::lock_guard<std::mutex> lock(g->mutex_);
  g->set_current_seed(seed);
  g->set_offset(offset);
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiRecordStart(const char* record_name, void** record) {
  OPWEAVE_DIOPI_TRY
  require(record_name != nullptr && record != nullptr, "diopiRecordStart", "NULL argument");
  // Shows up in torch.profiler; inactive (and cheap) when nobody profiles.
  auto* rf = new at::RecordFunction(at::RecordScope::USER_SCOPE);
  if (rf->isActive()) rf->before(std::string(record_name));
  *record = rf;
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

diopiError_t diopiRecordEnd(void** record) {
  OPWEAVE_DIOPI_TRY
  require(record != nullptr, "diopiRecordEnd", "record is NULL");
  delete static_cast<at::RecordFunction*>(*record);  // its destructor closes the range
  *record = nullptr;
  return diopiSuccess;
  OPWEAVE_DIOPI_CATCH
}

}  // extern "C"
