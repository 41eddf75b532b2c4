// Functional ATen kernels that compute straight into the DIOPI outputs (see ResultMemory in
// aten_ref.h).
//
// ATen has no CPU out= kernel for convolution, batch norm, layer norm and their backwards: the
// reference computed them into fresh CPU memory and copied the result into the output the
// wrapper had allocated. On the small ResNet that copy was the largest cost aten_ref added over
// native CPU (callgrind: 1.4M of the 2.2M extra instructions per training step were memcpy).
// Instead, while such a kernel runs, this thread's CPU allocations of exactly an output's size
// are placed in that output: the kernel's result is then already where the caller wants it.
// Whatever the kernel does with the memory it is handed (a workspace of the same size, a result
// it returns as a view, a result for another output), copy_out() still puts every result in its
// output correctly: results found in the wrong output's memory are moved aside first.
#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>
#include <c10/core/alignment.h>

#include <algorithm>
#include <cstdint>

#include "aten_ref.h"
#include "opweave/torch_compat.h"  // OPWEAVE_ALLOCATE_CONST

namespace aten_ref {
namespace {

// The outputs of the kernel this thread is running (nullptr outside one).
// Initial-exec (the static TLS block, one load): every CPU allocation and raw free in the
// process reads these two; a shared library's default TLS access is a __tls_get_addr call.
__attribute__((tls_model("initial-exec"))) thread_local ResultMemory* t_active = nullptr;

// Output memory this thread has handed to an allocation that is not released yet: whatever
// frees it (the tensor's deleter, or raw_deallocate, which mkldnn's scratch buffers use and
// which calls the allocator's raw_deleter on the bare pointer) must not pass it to free().
thread_local void* t_lent[8];
__attribute__((tls_model("initial-exec"))) thread_local int t_lent_count = 0;

bool unlend(void* p) {
  for (int i = 0; i < t_lent_count; ++i) {
    if (t_lent[i] == p) {
      t_lent[i] = t_lent[--t_lent_count];
      if (t_active != nullptr) t_active->release(p);
      return true;
    }
  }
  return false;
}

void give_back(void* p) { unlend(p); }  // a lent allocation's deleter: the output owns the memory

c10::DeleterFnPtr g_base_raw_deleter = nullptr;

void raw_free(void* p) {
  if (!unlend(p) && g_base_raw_deleter != nullptr) g_base_raw_deleter(p);
}

// The process's CPU allocator, wrapped: outside a ResultMemory scope it is the allocator it
// wraps, plus one thread-local load per allocation.
class ResultAllocator final : public c10::Allocator {
 public:
  explicit ResultAllocator(c10::Allocator* base) : base_(base) {
    g_base_raw_deleter = base->raw_deleter();
  }

  c10::DataPtr allocate(size_t n) OPWEAVE_ALLOCATE_CONST override {
    if (C10_UNLIKELY(t_active != nullptr) && t_lent_count < 8) {
      if (void* p = t_active->take(n)) {
        t_lent[t_lent_count++] = p;
        return {p, p, &give_back, c10::Device(c10::kCPU)};
      }
    }
    return base_->allocate(n);
  }
  c10::DeleterFnPtr raw_deleter() const override { return &raw_free; }
#if OPWEAVE_TORCH_AT_LEAST(2, 3)
  void copy_data(void* dst, const void* src, std::size_t n) const override {
    base_->copy_data(dst, src, n);
  }
#endif

 private:
  c10::Allocator* base_;
};

// Installed when the vendor library is loaded: every ATen CPU allocation goes through it.
// Never destroyed: ATen may allocate and free CPU memory from other static destructors at exit.
c10::Allocator* install() {
  auto* allocator = new ResultAllocator(c10::GetCPUAllocator());
  c10::SetCPUAllocator(allocator, /*priority=*/UINT8_MAX);
  return allocator;
}
c10::Allocator* const g_allocator = install();

bool inside(const void* p, const char* begin, size_t nbytes) {
  const char* c = static_cast<const char*>(p);
  return c >= begin && c < begin + nbytes;
}

// The bytes [data, data + n) a tensor's elements may touch (0 when it has none).
std::pair<const char*, size_t> span(const at::Tensor& t) {
  if (!t.defined() || t.numel() == 0) return {nullptr, 0};
  int64_t last = 0;
  for (int64_t d = 0; d < t.dim(); ++d) last += (t.size(d) - 1) * std::abs(t.stride(d));
  return {static_cast<const char*>(t.data_ptr()), static_cast<size_t>(last + 1) * t.itemsize()};
}

}  // namespace

ResultMemory::ResultMemory(std::initializer_list<diopiTensorHandle_t> outs) {
  TORCH_CHECK(outs.size() <= kMaxOutputs, "aten_ref: too many outputs for ResultMemory");
  (void)g_allocator;
  for (diopiTensorHandle_t h : outs) {
    Slot& s = slots_[count_++];
    s.handle = h;
    if (h == nullptr) continue;
    s.view = wrap(h);
    // Contiguous, large enough that a copy costs more than this bookkeeping, and aligned as
    // ATen's own CPU allocations are (vectorised kernels assume it).
    const size_t nbytes = static_cast<size_t>(s.view.numel()) * s.view.itemsize();
    if (nbytes >= kMinBytes && s.view.is_contiguous() &&
        reinterpret_cast<uintptr_t>(s.view.data_ptr()) % c10::gAlignment == 0) {
      s.nbytes = nbytes;
      ++offered_;
    }
  }
}

void ResultMemory::keep_clear_of(const at::Tensor& input) {
  if (offered_ == 0) return;  // small outputs only: nothing to check
  const auto [begin, n] = span(input);
  if (n == 0) return;
  for (int i = 0; i < count_; ++i) {
    Slot& s = slots_[i];
    if (s.nbytes == 0) continue;
    const char* data = static_cast<const char*>(s.view.data_ptr());
    if (begin < data + s.nbytes && data < begin + n) {  // the kernel reads it
      s.nbytes = 0;
      --offered_;
    }
  }
}

void ResultMemory::lend_after(diopiTensorHandle_t out, int count) {
  for (int i = 0; i < count_; ++i) {
    if (slots_[i].handle == out && out != nullptr) slots_[i].skip = count;
  }
}

ResultMemory::Active::Active(ResultMemory& m) : previous_(t_active) { t_active = &m; }
ResultMemory::Active::~Active() { t_active = previous_; }

void* ResultMemory::take(size_t n) {
  if (offered_ == 0) return nullptr;
  for (int i = 0; i < count_; ++i) {
    Slot& s = slots_[i];
    if (n != 0 && s.nbytes == n && !s.in_use) {
      if (s.skip > 0) {  // an allocation the kernel will not return (lend_after)
        --s.skip;
        continue;
      }
      s.in_use = s.lent = true;
      return s.view.data_ptr();
    }
  }
  return nullptr;
}

void ResultMemory::release(void* p) {
  for (int i = 0; i < count_; ++i) {
    if (slots_[i].nbytes != 0 && slots_[i].view.data_ptr() == p) slots_[i].in_use = false;
  }
}

const ResultMemory::Slot& ResultMemory::slot_of(diopiTensorHandle_t out) const {
  const Slot* slot =
      std::find_if(slots_, slots_ + count_, [&](const Slot& s) { return s.handle == out; });
  TORCH_CHECK(slot != slots_ + count_, "aten_ref: copy_out of an output ResultMemory lacks");
  return *slot;
}

void ResultMemory::copy_out(std::initializer_list<Into> results) {
  TORCH_CHECK(t_active != this, "aten_ref: ResultMemory::copy_out inside the kernel call");
  if (offered_ == 0) {  // nothing was lent: every result is in memory of its own
    for (const Into& r : results) {
      if (r.out != nullptr) copy_into(slot_of(r.out).view, r.result);
    }
    return;
  }
  std::pair<const Slot*, at::Tensor> pending[kMaxOutputs];
  int n = 0;
  for (const Into& r : results) {
    if (r.out == nullptr) continue;
    const Slot& slot = slot_of(r.out);
    const at::Tensor& view = slot.view;
    const at::Tensor& result = r.result;
    if (result.defined() && result.data_ptr() == view.data_ptr() &&
        result.scalar_type() == view.scalar_type() && result.sizes().equals(view.sizes()) &&
        result.strides().equals(view.strides())) {
      continue;  // computed in place
    }
    pending[n++] = {&slot, result};
  }
  // A result that lives in memory handed to the kernel (another output's, or a view of its own
  // output's in another layout) would be overwritten by the copies below: move it aside first.
  for (int i = 0; i < n; ++i) {
    const at::Tensor& r = pending[i].second;
    if (!r.defined() || r.numel() == 0) continue;
    for (int k = 0; k < count_; ++k) {
      if (slots_[k].lent &&
          inside(r.data_ptr(), static_cast<const char*>(slots_[k].view.data_ptr()),
                 slots_[k].nbytes)) {
        pending[i].second = r.clone();
        break;
      }
    }
  }
  for (int i = 0; i < n; ++i) copy_into(pending[i].first->view, pending[i].second);
}

}  // namespace aten_ref
