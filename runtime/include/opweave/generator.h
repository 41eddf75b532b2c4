// Random number generator of the opweave device: a seed plus a Philox-style offset.
//
// A kernel reads (seed, offset) with diopiGeneratorGetSeedAndOffset, consumes some counter
// range and advances the offset with diopiGeneratorSetSeedAndOffset, so results depend only on
// the seed and on the sequence of random ops: reproducible by opweave.manual_seed(seed).
#ifndef OPWEAVE_GENERATOR_H_
#define OPWEAVE_GENERATOR_H_

#include <ATen/core/Generator.h>
#include <c10/core/GeneratorImpl.h>
#include <c10/util/Optional.h>
#include <diopi/diopirt.h>

#include <cstdint>

#include "opweave/torch_compat.h"

namespace opweave {

class DeviceGenerator final : public c10::GeneratorImpl {
 public:
  DeviceGenerator(c10::DeviceIndex device, uint64_t seed);

  void set_current_seed(uint64_t seed) override;  // also resets the offset
  uint64_t current_seed() const override;
  uint64_t seed() override;  // reseeds non-deterministically, returns the new seed
  // State: a CPU uint8 tensor of 16 bytes, {seed, offset} in host byte order.
  c10::intrusive_ptr<c10::TensorImpl> get_state() const override;
  void set_state(const c10::TensorImpl& new_state) override;

  uint64_t offset() const { return offset_; }
  // Pure virtual in torch 2.x's GeneratorImpl (plain members on 1.13).
  void set_offset(uint64_t offset) OPWEAVE_OVERRIDE_2X { offset_ = offset; }
  uint64_t get_offset() const OPWEAVE_OVERRIDE_2X { return offset_; }
  static c10::DeviceType device_type() { return c10::DeviceType::PrivateUse1; }

 private:
  DeviceGenerator* clone_impl() const override;
  uint64_t seed_;
  uint64_t offset_ = 0;
};

// Default generator of a device (created on first use, seeded with 67280421310721 like CUDA).
const at::Generator& default_generator(c10::DeviceIndex device);
// Seeds the default generator of every device.
void manual_seed_all(uint64_t seed);

// Handle for a kernel's generator argument: `gen` when given (it must be an opweave
// generator), else the default generator of `device`.
diopiGeneratorHandle_t generator_handle(const c10::optional<at::Generator>& gen,
                                        c10::DeviceIndex device);
inline DeviceGenerator* generator_of(diopiConstGeneratorHandle_t h) {
  return reinterpret_cast<DeviceGenerator*>(const_cast<diopiGenerator*>(h));
}

}  // namespace opweave

#endif  // OPWEAVE_GENERATOR_H_
