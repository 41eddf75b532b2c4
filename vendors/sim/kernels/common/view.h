// TensorView: everything a kernel needs about a tensor, captured by value on the calling thread
// (host data pointer, dtype, sizes, strides in elements), so that the compute enqueued on a
// stream never touches a diopi handle.
#ifndef SIM_KERNELS_COMMON_VIEW_H_
#define SIM_KERNELS_COMMON_VIEW_H_

#include <diopi/diopirt.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace simk {

constexpr int kMaxDims = 16;

struct View {
  char* data = nullptr;  // host address of the first element
  diopiDtype_t dtype = diopi_dtype_float32;
  int ndim = 0;
  int64_t sizes[kMaxDims] = {};
  int64_t strides[kMaxDims] = {};  // in elements

  int64_t numel() const;
  int64_t itemsize() const;
  bool is_contiguous() const;
  std::string shape_str() const;  // "[2, 3]"
  template <class T>
  T* ptr() const {
    return reinterpret_cast<T*>(data);
  }
};

// Views of a kernel argument; `what` names it in error messages. A null handle is an error.
View input_view(diopiConstTensorHandle_t t, const char* what);
View output_view(diopiTensorHandle_t t, const char* what);

// A contiguous view of `data` with the given shape.
View contiguous_view(void* data, diopiDtype_t dtype, const int64_t* sizes, int ndim);

bool same_shape(const View& a, const View& b);

// True when the memory spans of a and b intersect (conservative: strided views that interleave
// without sharing an element count as overlapping).
bool may_overlap(const View& a, const View& b);

// `v` broadcast (right-aligned, size-1 or missing dims get stride 0) to the shape of `ref`;
// throws KernelError when the shapes are not broadcast-compatible.
View broadcast_to(const View& v, const View& ref, const char* what);

// Host scratch memory for a kernel running on a stream: a contiguous tensor of `dtype` with the
// given shape, 64-byte aligned, uninitialised. Blocks are recycled through a per-thread cache
// (each stream has its own worker thread), so a kernel's scratch costs no page faults after the
// first call.
class Buffer {
 public:
  Buffer() = default;
  Buffer(diopiDtype_t dtype, const int64_t* sizes, int ndim);
  ~Buffer();
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  const View& view() const { return view_; }

 private:
  void release();
  void* mem_ = nullptr;
  size_t capacity_ = 0;
  View view_;
};

// `v` itself when it already has `dtype`; otherwise its values converted into `scratch`.
View as_dtype(const View& v, diopiDtype_t dtype, Buffer& scratch);

// dst[i] = convert(src[i]) with src broadcast to dst's shape; any dtypes of the sim.
void cast_copy(const View& dst, const View& src);

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_VIEW_H_
