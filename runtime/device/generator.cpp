// The opweave device generator and its default instances.
#include "opweave/generator.h"

#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <c10/util/Exception.h>

#include <cstring>
#include <mutex>
#include <random>

#include "opweave/stream.h"
#include "opweave/vendor.h"

namespace opweave {
namespace {

constexpr uint64_t kDefaultSeed = 67280421310721ULL;  // same default as CUDA's generator
constexpr size_t kStateBytes = 2 * sizeof(uint64_t);

}  // namespace

DeviceGenerator::DeviceGenerator(c10::DeviceIndex device, uint64_t seed)
    : c10::GeneratorImpl(c10::Device(c10::DeviceType::PrivateUse1, device),
                         c10::DispatchKeySet(c10::DispatchKey::PrivateUse1)),
      seed_(seed) {}

void DeviceGenerator::set_current_seed(uint64_t seed) {
  seed_ = seed;
  offset_ = 0;
}

uint64_t DeviceGenerator::current_seed() const { return seed_; }

uint64_t DeviceGenerator::seed() {
  std::random_device rd;
  const uint64_t s = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  set_current_seed(s);
  return s;
}

c10::intrusive_ptr<c10::TensorImpl> DeviceGenerator::get_state() const {
  at::Tensor state =
      at::empty({static_cast<int64_t>(kStateBytes)}, at::TensorOptions().dtype(at::kByte));
  const uint64_t words[2] = {seed_, offset_};
  std::memcpy(state.data_ptr(), words, kStateBytes);
  return state.getIntrusivePtr();
}

void DeviceGenerator::set_state(const c10::TensorImpl& new_state) {
  TORCH_CHECK(
      new_state.device().is_cpu() && new_state.dtype() == caffe2::TypeMeta::Make<uint8_t>() &&
          new_state.numel() == static_cast<int64_t>(kStateBytes) && new_state.is_contiguous(),
      "opweave generator: state must be a contiguous CPU uint8 tensor of ", kStateBytes,
      " bytes (from get_state)");
  uint64_t words[2];
  std::memcpy(words, new_state.data(), kStateBytes);
  seed_ = words[0];
  offset_ = words[1];
}

DeviceGenerator* DeviceGenerator::clone_impl() const {
  auto* g = new DeviceGenerator(device().index(), seed_);
  g->offset_ = offset_;
  return g;
}

const at::Generator& default_generator(c10::DeviceIndex device) {
  device = checked_device_index(device, "default_generator");
  static std::once_flag once[kMaxDevices];
  static at::Generator* gens = new at::Generator[kMaxDevices];  // leaked on purpose
  std::call_once(once[device], [device] {
    gens[device] = at::make_generator<DeviceGenerator>(device, kDefaultSeed);
  });
  return gens[device];
}

void manual_seed_all(uint64_t seed) {
  for (int d = 0; d < device_count(); ++d) {
    at::Generator g = default_generator(static_cast<c10::DeviceIndex>(d));
    std::lock_guard<std::mutex> lock(g.mutex());
    g.set_current_seed(seed);
  }
}

diopiGeneratorHandle_t generator_handle(const c10::optional<at::Generator>& gen,
                                        c10::DeviceIndex device) {
  c10::GeneratorImpl* impl = nullptr;
  if (gen.has_value() && gen->defined()) {
    TORCH_CHECK(gen->device().type() == c10::DeviceType::PrivateUse1, "expected a ",
                c10::DeviceTypeName(c10::DeviceType::PrivateUse1, true), " generator, got one for ",
                gen->device());
    impl = gen->unsafeGetGeneratorImpl();
  } else {
    impl = default_generator(device).unsafeGetGeneratorImpl();
  }
  return reinterpret_cast<diopiGeneratorHandle_t>(static_cast<DeviceGenerator*>(impl));
}

}  // namespace opweave
