// diopirt accessors over at::Tensor handles, the context (stream + scratch), generators, and the
// error path: no exception crosses the C ABI, the message is kept per thread.
#include <ATen/ATen.h>
#include <diopi/functions.h>
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "opweave/allocator.h"
#include "opweave/context.h"
#include "opweave/diopi_convert.h"
#include "opweave/diopi_errors.h"
#include "opweave/diopi_handles.h"
#include "opweave/diopi_slots.h"
#include "opweave/generator.h"
#include "opweave/stream.h"
#include "opweave/vendor.h"

namespace {

using opweave::const_handle;
using opweave::handle;

const at::TensorOptions kDev = at::TensorOptions().device("privateuseone:1").dtype(at::kFloat);

TEST(Diopirt, HandleIsTheTensorAddress) {
  at::Tensor t = at::empty({2, 3}, kDev);
  EXPECT_EQ(static_cast<const void*>(handle(t)), static_cast<const void*>(&t));
  EXPECT_TRUE(opweave::tensor(const_handle(t)).is_same(t));
  EXPECT_EQ(const_handle(c10::optional<at::Tensor>()), nullptr);
}

TEST(Diopirt, AccessorsDescribeADeviceTensorView) {
  at::Tensor base = at::empty({4, 6}, kDev);
  at::Tensor t = base.slice(1, 2, 6).t();  // sizes {4, 4}, strides {1, 6}, offset 2
  diopiConstTensorHandle_t h = const_handle(t);

  diopiSize_t shape{}, stride{};
  ASSERT_EQ(diopiGetTensorShape(h, &shape), diopiSuccess);
  ASSERT_EQ(diopiGetTensorStride(h, &stride), diopiSuccess);
  EXPECT_EQ(std::vector<int64_t>(shape.data, shape.data + shape.len), t.sizes().vec());
  EXPECT_EQ(std::vector<int64_t>(stride.data, stride.data + stride.len), t.strides().vec());

  diopiDtype_t dtype{};
  diopiDevice_t device{};
  diopiDeviceIndex_t index = -1;
  int64_t numel = 0, itemsize = 0, offset = 0;
  size_t nbytes = 0;
  ASSERT_EQ(diopiGetTensorDtype(h, &dtype), diopiSuccess);
  ASSERT_EQ(diopiGetTensorDevice(h, &device), diopiSuccess);
  ASSERT_EQ(diopiGetTensorDeviceIndex(h, &index), diopiSuccess);
  ASSERT_EQ(diopiGetTensorNumel(h, &numel), diopiSuccess);
  ASSERT_EQ(diopiGetTensorElemSize(h, &itemsize), diopiSuccess);
  ASSERT_EQ(diopiGetTensorStorageOffset(h, &offset), diopiSuccess);
  ASSERT_EQ(diopiGetTensorStorageNbytes(h, &nbytes), diopiSuccess);
  EXPECT_EQ(dtype, diopi_dtype_float32);
  EXPECT_EQ(device, diopi_device);
  EXPECT_EQ(index, 1);
  EXPECT_EQ(numel, 16);
  EXPECT_EQ(itemsize, 4);
  EXPECT_EQ(offset, 2);
  EXPECT_EQ(nbytes, 24u * 4u);

  const void* data = nullptr;
  void* storage = nullptr;
  ASSERT_EQ(diopiGetTensorDataConst(h, &data), diopiSuccess);
  ASSERT_EQ(diopiGetTensorStoragePtr(h, &storage), diopiSuccess);
  EXPECT_EQ(data, t.data_ptr());
  EXPECT_EQ(static_cast<const char*>(data), static_cast<char*>(storage) + 2 * 4);
  void* mutable_data = nullptr;
  ASSERT_EQ(diopiGetTensorData(handle(t), &mutable_data), diopiSuccess);
  EXPECT_EQ(mutable_data, data);

  // The one-call extension says the same as the four accessors.
  diopiTensorLayout_t layout{};
  ASSERT_EQ(diopiGetTensorLayout(h, &layout), diopiSuccess);
  EXPECT_EQ(layout.data, data);
  EXPECT_EQ(std::vector<int64_t>(layout.shape.data, layout.shape.data + layout.shape.len),
            t.sizes().vec());
  EXPECT_EQ(std::vector<int64_t>(layout.stride.data, layout.stride.data + layout.stride.len),
            t.strides().vec());
  EXPECT_EQ(layout.dtype, diopi_dtype_float32);

  // An empty tensor has no data pointer (as data_ptr() says), whatever its storage offset.
  const at::Tensor empty = at::empty({4, 3}, kDev).narrow(0, 2, 0);
  ASSERT_EQ(diopiGetTensorLayout(const_handle(empty), &layout), diopiSuccess);
  EXPECT_EQ(layout.data, empty.data_ptr());
  EXPECT_EQ(layout.data, nullptr);
  EXPECT_EQ(layout.shape.len, 2);
  EXPECT_EQ(layout.shape.data[0], 0);
}

TEST(Diopirt, HostTensorsAreReportedAsHost) {
  at::Tensor t = at::zeros({3}, at::kLong);
  diopiDevice_t device{};
  diopiDtype_t dtype{};
  diopiDeviceIndex_t index = 0;
  ASSERT_EQ(diopiGetTensorDevice(const_handle(t), &device), diopiSuccess);
  ASSERT_EQ(diopiGetTensorDtype(const_handle(t), &dtype), diopiSuccess);
  ASSERT_EQ(diopiGetTensorDeviceIndex(const_handle(t), &index), diopiSuccess);
  EXPECT_EQ(device, diopi_host);
  EXPECT_EQ(dtype, diopi_dtype_int64);
  EXPECT_EQ(index, -1);
}

TEST(Diopirt, DtypesRoundTrip) {
  for (auto st : {at::kChar, at::kByte, at::kShort, at::kInt, at::kLong, at::kHalf, at::kFloat,
                  at::kDouble, at::kBool, at::kBFloat16, at::kComplexFloat, at::kComplexDouble}) {
    EXPECT_EQ(opweave::aten_dtype(opweave::diopi_dtype(st)), st) << st;
  }
  EXPECT_EQ(opweave::diopi_dtype(at::kQInt8), diopi_dtype_unsupported);
  EXPECT_EQ(opweave::aten_dtype(diopi_dtype_uint32), at::ScalarType::Undefined);
  const diopiScalar_t f = opweave::diopi_scalar(2.5);
  EXPECT_EQ(f.stype, diopi_dtype_float64);
  EXPECT_EQ(f.fval, 2.5);
  const diopiScalar_t b = opweave::diopi_scalar(true);
  EXPECT_EQ(b.stype, diopi_dtype_int64);
  EXPECT_EQ(b.ival, 1);
}

TEST(Diopirt, ContextCarriesTheCurrentStream) {
  const c10::Stream side = opweave::stream_from_pool(1);
  const c10::Stream previous = opweave::exchange_stream(side);
  opweave::OpContext ctx(c10::Device(c10::DeviceType::PrivateUse1, 1));
  opweave::exchange_stream(previous);
  diopiStreamHandle_t stream = nullptr;
  ASSERT_EQ(diopiGetStream(&ctx, &stream), diopiSuccess);
  EXPECT_EQ(stream, static_cast<void*>(opweave::native_stream(side)));
  opweave::OpContext ctx0(0);
  ASSERT_EQ(diopiGetStream(&ctx0, &stream), diopiSuccess);
  EXPECT_EQ(stream, static_cast<void*>(opweave::current_native_stream(0)));
}

TEST(Diopirt, RequiredTensorsLiveUntilTheContextEnds) {
  const auto before = opweave::allocator_stats(1).allocated;
  {
    opweave::OpContext ctx(1);
    diopiTensorHandle_t t = nullptr, strided = nullptr, buf = nullptr, host = nullptr;
    const int64_t sizes[] = {2, 3}, strides[] = {1, 2};
    const diopiSize_t size{sizes, 2}, stride{strides, 2};
    ASSERT_EQ(diopiRequireTensor(&ctx, &t, &size, nullptr, diopi_dtype_float16, diopi_device),
              diopiSuccess);
    ASSERT_EQ(diopiRequireTensor(&ctx, &strided, &size, &stride, diopi_dtype_int32, diopi_device),
              diopiSuccess);
    ASSERT_EQ(diopiRequireBuffer(&ctx, &buf, 100, diopi_device), diopiSuccess);
    ASSERT_EQ(diopiRequireTensor(&ctx, &host, &size, nullptr, diopi_dtype_float64, diopi_host),
              diopiSuccess);
    EXPECT_EQ(opweave::tensor(t).scalar_type(), at::kHalf);
    EXPECT_EQ(opweave::tensor(t).device(), c10::Device("privateuseone:1"));
    EXPECT_EQ(opweave::tensor(strided).strides(), c10::IntArrayRef(strides));
    EXPECT_EQ(opweave::tensor(buf).nbytes(), 100u);
    EXPECT_TRUE(opweave::tensor(host).is_cpu());
    // Handles stay valid as more scratch is added.
    EXPECT_EQ(opweave::tensor(t).sizes(), c10::IntArrayRef(sizes));
    EXPECT_GT(opweave::allocator_stats(1).allocated, before);
  }
  EXPECT_EQ(opweave::allocator_stats(1).allocated, before);
}

TEST(Diopirt, NullHandleIsAnErrorWithMessageNotAnException) {
  void* data = nullptr;
  EXPECT_EQ(diopiGetTensorData(nullptr, &data), diopiErrorOccurred);
  EXPECT_NE(std::string(diopiGetLastErrorString()).find("diopiGetTensorData"), std::string::npos);
  at::Tensor undefined;
  int64_t numel = 0;
  EXPECT_EQ(diopiGetTensorNumel(const_handle(undefined), &numel), diopiErrorOccurred);
  EXPECT_NE(std::string(diopiGetLastErrorString()).find("undefined"), std::string::npos);
}

// Every tensor accessor goes through one checked path: a NULL result pointer, a NULL handle and
// an undefined tensor each give diopiErrorOccurred and a message naming the accessor.
template <class T>
void expect_checked(diopiError_t (*fn)(diopiConstTensorHandle_t, T*), const char* name,
                    const char* out_name) {
  SCOPED_TRACE(name);
  at::Tensor t = at::empty({2}, kDev), undefined;
  T value{};
  ASSERT_EQ(fn(const_handle(t), &value), diopiSuccess);
  const auto expect_error = [&](diopiError_t err, const std::string& what) {
    EXPECT_EQ(err, diopiErrorOccurred);
    EXPECT_EQ(std::string(diopiGetLastErrorString()), std::string(name) + ": " + what);
  };
  expect_error(fn(const_handle(t), nullptr), std::string(out_name) + " is NULL");
  expect_error(fn(nullptr, &value), "tensor handle is NULL");
  expect_error(fn(const_handle(undefined), &value), "tensor is undefined");
}

TEST(Diopirt, EveryTensorAccessorChecksItsArguments) {
  expect_checked(diopiGetTensorDataConst, "diopiGetTensorDataConst", "data");
  expect_checked(diopiGetTensorShape, "diopiGetTensorShape", "size");
  expect_checked(diopiGetTensorStride, "diopiGetTensorStride", "stride");
  expect_checked(diopiGetTensorDtype, "diopiGetTensorDtype", "dtype");
  expect_checked(diopiGetTensorDevice, "diopiGetTensorDevice", "device");
  expect_checked(diopiGetTensorNumel, "diopiGetTensorNumel", "numel");
  expect_checked(diopiGetTensorElemSize, "diopiGetTensorElemSize", "itemsize");
  expect_checked(diopiGetTensorStoragePtr, "diopiGetTensorStoragePtr", "ptr");
  expect_checked(diopiGetTensorStorageOffset, "diopiGetTensorStorageOffset", "offset");
  expect_checked(diopiGetTensorStorageNbytes, "diopiGetTensorStorageNbytes", "nbytes");
  expect_checked(diopiGetTensorDeviceIndex, "diopiGetTensorDeviceIndex", "index");
  expect_checked(diopiGetTensorLayout, "diopiGetTensorLayout", "layout");
  void* data = nullptr;  // takes a non-const handle
  EXPECT_EQ(diopiGetTensorData(nullptr, &data), diopiErrorOccurred);
  EXPECT_EQ(std::string(diopiGetLastErrorString()), "diopiGetTensorData: tensor handle is NULL");
}

TEST(Diopirt, ExceptionInsideTheRuntimeBecomesAnErrorCode) {
  // Asking for more memory than the sim has makes the allocator throw a c10::Error inside
  // diopiRequireBuffer; the caller sees a code and the allocator's message.
  opweave::OpContext ctx(0);
  diopiTensorHandle_t t = nullptr;
  EXPECT_EQ(diopiRequireBuffer(&ctx, &t, int64_t{1} << 50, diopi_device), diopiErrorOccurred);
  const std::string msg = diopiGetLastErrorString();
  EXPECT_NE(msg.find("out of memory"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("Exception raised from"), std::string::npos) << "backtrace leaked: " << msg;
}

TEST(Diopirt, UnsupportedDtypeIsReported) {
  opweave::OpContext ctx(0);
  diopiTensorHandle_t t = nullptr;
  const int64_t sizes[] = {2};
  const diopiSize_t size{sizes, 1};
  EXPECT_EQ(diopiRequireTensor(&ctx, &t, &size, nullptr, diopi_dtype_uint64, diopi_device),
            diopiDtypeNotSupported);
  EXPECT_NE(std::string(diopiGetLastErrorString()).find("dtype"), std::string::npos);
}

TEST(Diopirt, LastErrorIsPerThreadAndSettableByVendors) {
  opweave_set_last_error("vendor says no");
  std::string other;
  std::thread([&] { other = diopiGetLastErrorString(); }).join();
  EXPECT_EQ(std::string(diopiGetLastErrorString()), "vendor says no");
  EXPECT_EQ(other, "");
}

TEST(Diopirt, CheckDiopiThrowsNamingOpAndFunction) {
  opweave_set_last_error("bad shape");
  try {
    opweave::check_diopi(diopiErrorOccurred, "diopiAdd", "aten::add.out");
    FAIL();
  } catch (const c10::Error& e) {
    const std::string msg = e.what_without_backtrace();
    EXPECT_NE(msg.find("aten::add.out"), std::string::npos);
    EXPECT_NE(msg.find("diopiAdd"), std::string::npos);
    EXPECT_NE(msg.find("bad shape"), std::string::npos);
  }
  EXPECT_STREQ(opweave::diopi_error_name(diopiForceFallbackToCPU), "diopiForceFallbackToCPU");
}

TEST(Diopirt, GeneratorSeedAndOffsetAreReproducible) {
  opweave::manual_seed_all(1234);
  diopiGeneratorHandle_t g = opweave::generator_handle(c10::nullopt, 1);
  uint64_t seed = 0, offset = 99;
  ASSERT_EQ(diopiGeneratorGetSeedAndOffset(g, &seed, &offset), diopiSuccess);
  EXPECT_EQ(seed, 1234u);
  EXPECT_EQ(offset, 0u);
  ASSERT_EQ(diopiGeneratorSetSeedAndOffset(g, seed, offset + 16), diopiSuccess);

  opweave::OpContext ctx(1);
  diopiTensorHandle_t state = nullptr;
  ASSERT_EQ(diopiGeneratorGetState(&ctx, g, &state), diopiSuccess);
  EXPECT_EQ(opweave::tensor(state).numel(), 16);
  opweave::manual_seed_all(1);
  ASSERT_EQ(diopiGeneratorSetState(g, state), diopiSuccess);  // restore {1234, 16}
  ASSERT_EQ(diopiGeneratorGetSeedAndOffset(g, &seed, &offset), diopiSuccess);
  EXPECT_EQ(seed, 1234u);
  EXPECT_EQ(offset, 16u);

  at::Generator explicit_gen = at::make_generator<opweave::DeviceGenerator>(0, 5);
  EXPECT_EQ(opweave::generator_handle(explicit_gen, 1),
            reinterpret_cast<diopiGeneratorHandle_t>(explicit_gen.unsafeGetGeneratorImpl()));
  EXPECT_THROW(opweave::generator_handle(at::detail::getDefaultCPUGenerator(), 0), c10::Error);
}

TEST(Diopirt, SlotsFollowTheCatalogue) {
  ASSERT_GT(opweave::kDiopiFnCount, 0);
  EXPECT_EQ(opweave::diopi_slot_index(opweave::kDiopiFnNames[0]), 0);
  EXPECT_EQ(opweave::diopi_slot_index("diopiNoSuchFunction"), -1);
  // A runtime function is never mistaken for a vendor kernel.
  for (int i = 0; i < opweave::kDiopiFnCount; ++i) {
    EXPECT_NE(opweave::g_diopi_slots[i], reinterpret_cast<void*>(&diopiGetTensorData));
  }
  EXPECT_EQ(opweave::vendor_info().name, "sim");
  EXPECT_EQ(opweave::device_count(), 2);
  EXPECT_STREQ(diopiGetVendorName(), "sim");
}

TEST(Diopirt, RecordRangesOpenAndClose) {
  void* record = nullptr;
  ASSERT_EQ(diopiRecordStart("phase", &record), diopiSuccess);
  EXPECT_NE(record, nullptr);
  ASSERT_EQ(diopiRecordEnd(&record), diopiSuccess);
  EXPECT_EQ(record, nullptr);
}

}  // namespace
