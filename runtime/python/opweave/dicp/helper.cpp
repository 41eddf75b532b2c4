// opweave.dicp runtime helper: loads compiled graphs and runs them on the device.
//
// Compiled once per build (by opweave.dicp.native, cached next to libopweave.so) and loaded
// with torch.ops.load_library. It owns everything that needs ATen, so the per-graph code
// does not: it turns at::Tensor inputs into DIOPI handles, resolves the graph's kernels from
// the runtime's DIOPI slot table, and implements the ow_dicp_rt callbacks (allocation, the
// scratch arena, views). Ops:
//
//   opweave_dicp::load(str path) -> int            dlopen a graph library, resolve kernels
//   opweave_dicp::run(int graph, Tensor[] inputs, int[] sym) -> Tensor[]
#include <ATen/ExpandUtils.h>
#include <ATen/InferSize.h>
#include <ATen/TensorUtils.h>
#include <ATen/core/Tensor.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/TensorImpl.h>
#include <dlfcn.h>
#include <torch/library.h>

#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "opweave/allocator.h"
#include "opweave/context.h"
#include "opweave/diopi_convert.h"
#include "opweave/diopi_errors.h"
#include "opweave/diopi_slots.h"
#include "opweave/stream.h"
#include "ow_dicp_abi.h"

namespace {

struct Graph {
  std::string path;
  void* dl = nullptr;
  ow_dicp_run_fn run = nullptr;
  std::vector<void*> kernels;
  std::vector<std::string> kernel_names;
  std::vector<std::string> nodes;
  int64_t num_inputs = 0;
  int64_t num_outputs = 0;
};

std::mutex g_mutex;
std::deque<Graph> g_graphs;  // never shrinks: ids stay valid, entries never move

// State of one run: tensors the graph created (stable addresses: they are the handles).
struct Run {
  c10::DeviceIndex device;
  std::deque<at::Tensor> temps;
  at::Tensor arena;
  std::vector<at::Tensor> outputs;
  std::string error;
  int64_t failed_node = -1;
};

at::Tensor& tensor(diopiConstTensorHandle_t h) {
  return *reinterpret_cast<at::Tensor*>(const_cast<diopiTensor*>(h));
}

diopiTensorHandle_t keep(Run* r, at::Tensor t) {
  r->temps.push_back(std::move(t));
  return reinterpret_cast<diopiTensorHandle_t>(&r->temps.back());
}

at::Tensor fresh(c10::DeviceIndex device, c10::IntArrayRef sizes, c10::ScalarType st) {
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  const size_t nbytes = static_cast<size_t>(numel) * c10::elementSize(st);
  c10::Storage storage(c10::Storage::use_byte_size_t(), nbytes,
                       opweave::allocate_on(device, nbytes), opweave::device_allocator(), false);
  auto impl = c10::make_intrusive<c10::TensorImpl>(
      std::move(storage), c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
      c10::scalarTypeToTypeMeta(st));
  impl->set_sizes_contiguous(sizes);
  return at::Tensor(std::move(impl));
}

at::Tensor view_of(const at::Tensor& src, c10::IntArrayRef sizes, c10::IntArrayRef strides,
                   int64_t offset) {
  auto impl = c10::make_intrusive<c10::TensorImpl>(c10::TensorImpl::VIEW,
                                                   c10::Storage(src.storage()), src.key_set(),
                                                   src.dtype());
  impl->set_sizes_and_strides(sizes, strides);
  impl->set_storage_offset(offset);
  return at::Tensor(std::move(impl));
}

template <class F>
auto guarded(void* self, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const c10::Error& e) {
    static_cast<Run*>(self)->error = e.what_without_backtrace();
  } catch (const std::exception& e) {
    static_cast<Run*>(self)->error = e.what();
  }
  return decltype(f())();
}

diopiTensorHandle_t cb_empty(void* self, int64_t ndim, const int64_t* sizes, diopiDtype_t dtype) {
  return guarded(self, [&]() -> diopiTensorHandle_t {
    Run* r = static_cast<Run*>(self);
    return keep(r, fresh(r->device, c10::IntArrayRef(sizes, ndim), opweave::aten_dtype(dtype)));
  });
}

int cb_arena(void* self, int64_t nbytes) {
  return guarded(self, [&]() -> int {
    Run* r = static_cast<Run*>(self);
    if (nbytes > 0) r->arena = fresh(r->device, {nbytes}, c10::ScalarType::Byte);
    return 0;
  });
}

diopiTensorHandle_t cb_scratch(void* self, int64_t offset, int64_t ndim, const int64_t* sizes,
                               diopiDtype_t dtype) {
  return guarded(self, [&]() -> diopiTensorHandle_t {
    Run* r = static_cast<Run*>(self);
    const c10::ScalarType st = opweave::aten_dtype(dtype);
    const int64_t item = static_cast<int64_t>(c10::elementSize(st));
    TORCH_CHECK(offset % item == 0, "scratch offset ", offset, " is not aligned");
    auto impl = c10::make_intrusive<c10::TensorImpl>(
        c10::TensorImpl::VIEW, c10::Storage(r->arena.storage()), r->arena.key_set(),
        c10::scalarTypeToTypeMeta(st));
    impl->set_sizes_contiguous(c10::IntArrayRef(sizes, ndim));
    impl->set_storage_offset(offset / item);
    return keep(r, at::Tensor(std::move(impl)));
  });
}

int64_t wrap(int64_t d, int64_t rank) {
  const int64_t n = rank > 0 ? rank : 1;
  TORCH_CHECK(d >= -n && d < n, "dim ", d, " out of range for rank ", rank);
  return d < 0 ? d + n : d;
}

diopiTensorHandle_t cb_view(void* self, diopiConstTensorHandle_t src_h, int kind, int64_t n,
                            const int64_t* p) {
  return guarded(self, [&]() -> diopiTensorHandle_t {
    Run* r = static_cast<Run*>(self);
    const at::Tensor& src = tensor(src_h);
    std::vector<int64_t> sizes(src.sizes().begin(), src.sizes().end());
    std::vector<int64_t> strides(src.strides().begin(), src.strides().end());
    int64_t offset = src.storage_offset();
    const int64_t rank = src.dim();
    switch (kind) {
      case OW_VIEW_ALIAS:
        break;
      case OW_VIEW_TRANSPOSE: {
        const int64_t a = wrap(p[0], rank), b = wrap(p[1], rank);
        std::swap(sizes[a], sizes[b]);
        std::swap(strides[a], strides[b]);
        break;
      }
      case OW_VIEW_PERMUTE: {
        TORCH_CHECK(n == rank, "permute: ", n, " dims for rank ", rank);
        for (int64_t i = 0; i < n; ++i) {
          const int64_t d = wrap(p[i], rank);
          sizes[i] = src.size(d);
          strides[i] = src.stride(d);
        }
        break;
      }
      case OW_VIEW_RESHAPE: {
        const auto shape = at::infer_size_dv(c10::IntArrayRef(p, n), src.numel());
        auto st = at::detail::computeStride(src.sizes(), src.strides(), shape);
        TORCH_CHECK(st.has_value(), "reshape of this layout needs a copy");
        sizes.assign(shape.begin(), shape.end());
        strides.assign(st->begin(), st->end());
        break;
      }
      case OW_VIEW_EXPAND: {
        auto geo = at::inferExpandGeometry(src.sizes(), src.strides(), c10::IntArrayRef(p, n));
        sizes.assign(std::get<0>(geo).begin(), std::get<0>(geo).end());
        strides.assign(std::get<1>(geo).begin(), std::get<1>(geo).end());
        break;
      }
      case OW_VIEW_UNSQUEEZE: {
        const int64_t d = wrap(p[0], rank + 1);
        const int64_t stride = d >= rank ? 1 : sizes[d] * strides[d];
        sizes.insert(sizes.begin() + d, 1);
        strides.insert(strides.begin() + d, stride);
        break;
      }
      case OW_VIEW_SQUEEZE: {
        if (rank == 0) break;
        const int64_t d = wrap(p[0], rank);
        if (sizes[d] == 1) {
          sizes.erase(sizes.begin() + d);
          strides.erase(strides.begin() + d);
        }
        break;
      }
      case OW_VIEW_SELECT: {
        const int64_t d = wrap(p[0], rank);
        int64_t i = p[1] < 0 ? p[1] + sizes[d] : p[1];
        TORCH_CHECK(i >= 0 && i < sizes[d], "select: index ", p[1], " out of range");
        offset += i * strides[d];
        sizes.erase(sizes.begin() + d);
        strides.erase(strides.begin() + d);
        break;
      }
      case OW_VIEW_SLICE: {
        const int64_t d = wrap(p[0], rank);
        const int64_t size = sizes[d];
        int64_t start = p[1] == OW_DICP_NONE ? 0 : p[1];
        int64_t end = p[2] == OW_DICP_NONE ? size : p[2];
        if (start < 0) start += size;
        if (end < 0) end += size;
        start = std::min(std::max<int64_t>(start, 0), size);
        end = std::min(std::max(end, start), size);
        offset += start * strides[d];
        sizes[d] = end - start;
        break;
      }
      default:
        TORCH_CHECK(false, "unknown view kind ", kind);
    }
    return keep(r, view_of(src, sizes, strides, offset));
  });
}

void cb_output(void* self, int64_t index, diopiConstTensorHandle_t t) {
  static_cast<Run*>(self)->outputs[index] = tensor(t);
}

int cb_fail(void* self, int64_t node, int status) {
  Run* r = static_cast<Run*>(self);
  r->failed_node = node;
  if (r->error.empty()) {
    const char* msg = diopiGetLastErrorString();
    r->error = std::string("DIOPI status ") + std::to_string(status) + (msg && *msg ? ": " : "") +
               (msg ? msg : "");
  }
  return status != 0 ? status : -1;
}

template <class T>
T symbol(void* dl, const char* name, const std::string& path) {
  void* s = dlsym(dl, name);
  TORCH_CHECK(s != nullptr, "opweave.dicp: ", path, " lacks ", name);
  return reinterpret_cast<T>(s);
}

int64_t load_op(std::string path) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (size_t i = 0; i < g_graphs.size(); ++i) {
    if (g_graphs[i].path == path) return static_cast<int64_t>(i);
  }
  void* dl = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  TORCH_CHECK(dl != nullptr, "opweave.dicp: cannot load ", path, ": ", dlerror());
  Graph g;
  g.path = path;
  g.dl = dl;
  const int version = *symbol<const int*>(dl, "ow_dicp_abi_version", path);
  TORCH_CHECK(version == OW_DICP_ABI_VERSION, "opweave.dicp: ", path, " has ABI version ", version,
              ", the helper ", OW_DICP_ABI_VERSION);
  g.run = symbol<ow_dicp_run_fn>(dl, "ow_dicp_run", path);
  g.num_inputs = *symbol<const int64_t*>(dl, "ow_dicp_num_inputs", path);
  g.num_outputs = *symbol<const int64_t*>(dl, "ow_dicp_num_outputs", path);
  for (const char* const* k = symbol<const char* const*>(dl, "ow_dicp_kernels", path); *k; ++k) {
    const int slot = opweave::diopi_slot_index(*k);
    void* fn = slot >= 0 ? opweave::g_diopi_slots[slot] : nullptr;
    TORCH_CHECK(fn != nullptr, "opweave.dicp: the loaded vendor has no kernel ", *k);
    g.kernels.push_back(fn);
    g.kernel_names.emplace_back(*k);
  }
  for (const char* const* n = symbol<const char* const*>(dl, "ow_dicp_nodes", path); *n; ++n) {
    g.nodes.emplace_back(*n);
  }
  g_graphs.push_back(std::move(g));
  return static_cast<int64_t>(g_graphs.size() - 1);
}

const Graph& graph(int64_t id) {
  std::lock_guard<std::mutex> lock(g_mutex);
  TORCH_CHECK(id >= 0 && id < static_cast<int64_t>(g_graphs.size()), "opweave.dicp: no graph ",
              id);
  return g_graphs[id];
}

std::vector<at::Tensor> run_op(int64_t id, std::vector<at::Tensor> inputs,
                               std::vector<int64_t> sym) {
  const Graph& g = graph(id);
  TORCH_CHECK(static_cast<int64_t>(inputs.size()) == g.num_inputs, "opweave.dicp: graph takes ",
              g.num_inputs, " inputs, got ", inputs.size());
  c10::DeviceIndex device = -1;
  for (const at::Tensor& t : inputs) {
    if (!t.defined()) continue;
    TORCH_CHECK(t.device().type() == c10::DeviceType::PrivateUse1,
                "opweave.dicp: compiled graphs take device tensors, got one on ", t.device());
    if (device < 0) device = t.device().index();
    TORCH_CHECK(t.device().index() == device, "opweave.dicp: inputs on several devices");
  }
  if (device < 0) device = opweave::current_device();
  c10::DeviceGuard guard(c10::Device(c10::DeviceType::PrivateUse1, device));
  diopiContext ctx(device);
  Run r;
  r.device = device;
  r.outputs.resize(g.num_outputs);
  std::vector<diopiTensorHandle_t> handles(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    handles[i] = inputs[i].defined() ? reinterpret_cast<diopiTensorHandle_t>(&inputs[i]) : nullptr;
  }
  const ow_dicp_rt rt{OW_DICP_ABI_VERSION, &r, &ctx, g.kernels.data(), cb_empty, cb_arena,
                      cb_scratch, cb_view, cb_output, cb_fail};
  const int status = g.run(&rt, handles.data(), sym.data());
  if (status != 0) {
    const std::string where = r.failed_node >= 0 && r.failed_node < static_cast<int64_t>(g.nodes.size())
                                  ? g.nodes[r.failed_node]
                                  : std::string("(set-up)");
    TORCH_CHECK(false, "opweave.dicp: compiled graph ", g.path, " failed at node ", where, ": ",
                r.error);
  }
  return std::move(r.outputs);
}

}  // namespace

TORCH_LIBRARY(opweave_dicp, m) {
  m.def("load(str path) -> int", &load_op);
  m.def("run(int graph, Tensor[] inputs, int[] sym) -> Tensor[]", &run_op);
}
