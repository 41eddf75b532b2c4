// opweave.dicp runtime helper: loads compiled graphs and runs them on the device.
//
// Built by `make build` (lib/libopweave_dicp_helper.so, beside libopweave.so) and loaded by
// opweave.dicp.native with torch.ops.load_library. It owns everything that needs ATen, so the
// per-graph code does not: it turns at::Tensor inputs into DIOPI handles, resolves the graph's
// kernels from the runtime's DIOPI slot table, and implements the ow_dicp_rt callbacks (allocation,
// the scratch arena, views). Ops:
//
//   opweave_dicp::load(str path) -> int            dlopen a graph library, resolve kernels
//   opweave_dicp::run(int graph, Tensor[] inputs, int[] sym) -> Tensor[]
//   opweave_dicp::plan(...) -> int                 a compiled call: forward (and backward)
//                                                  graphs with their input/output maps
//   opweave_dicp::call(int plan, int s0, Tensor[] inputs) -> Tensor[]     inference
//   opweave_dicp::train(int plan, int s0, Tensor[] primals) -> Tensor[]  training: a C++
//       autograd function whose backward runs the backward graph (no Python, no GIL)
//   opweave_dicp::step(int plan, int s0, Tensor[] primals) -> Tensor[]   a whole training
//       step (forward, backward, .grad accumulated) on the calling thread, no autograd engine
//
// A run submits the graph's kernels to the device stream as one batch when the vendor seam
// offers streamBeginBatch/streamEndBatch (the sim does): one queue operation and one worker
// wake-up per graph instead of one per kernel.
#include <ATen/ExpandUtils.h>
#include <ATen/InferSize.h>
#include <ATen/TensorUtils.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/ones_like.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/GradMode.h>
#include <c10/core/TensorImpl.h>
#include <dlfcn.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>

#include <deque>
#include <iterator>
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
#include "opweave/vendor.h"
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
  auto impl = c10::make_intrusive<c10::TensorImpl>(
      c10::TensorImpl::VIEW, c10::Storage(src.storage()), src.key_set(), src.dtype());
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

// A graph-level kernel (a fused op outside the DIOPI catalogue) exported by the loaded vendor
// library, or null.
void* vendor_symbol(const char* name) {
  static void* const vendor = [] {
    const std::string& path = opweave::vendor_info().library;
    return path.empty() ? nullptr : dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  }();
  return vendor != nullptr ? dlsym(vendor, name) : nullptr;
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
    void* fn = slot >= 0 ? opweave::g_diopi_slots[slot] : vendor_symbol(*k);
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
  TORCH_CHECK(id >= 0 && id < static_cast<int64_t>(g_graphs.size()), "opweave.dicp: no graph ", id);
  return g_graphs[id];
}

// Submits the work a run enqueues on `stream` as one batch (when the vendor can); ends the
// batch on every path out of the run, before the run's temporaries are released.
class StreamBatch {
 public:
  explicit StreamBatch(owStream_t stream) {
    const owVendorSeam& s = opweave::seam();
    if (s.streamBeginBatch != nullptr && s.streamEndBatch != nullptr &&
        s.streamBeginBatch(stream) == owSuccess) {
      stream_ = stream;
      end_ = s.streamEndBatch;
    }
  }
  StreamBatch(const StreamBatch&) = delete;
  StreamBatch& operator=(const StreamBatch&) = delete;
  ~StreamBatch() {
    if (end_ != nullptr) end_(stream_);
  }

 private:
  owStream_t stream_ = nullptr;
  owStatus (*end_)(owStream_t) = nullptr;
};

std::vector<at::Tensor> run_graph(const Graph& g, const std::vector<at::Tensor>& inputs,
                                  const int64_t* sym) {
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
    handles[i] = inputs[i].defined()
                     ? reinterpret_cast<diopiTensorHandle_t>(const_cast<at::Tensor*>(&inputs[i]))
                     : nullptr;
  }
  const ow_dicp_rt rt{OW_DICP_ABI_VERSION, &r,      &ctx,      g.kernels.data(), cb_empty, cb_arena,
                      cb_scratch,          cb_view, cb_output, cb_fail};
  int status;
  {
    StreamBatch batch(ctx.stream);
    status = g.run(&rt, handles.data(), sym);
  }
  if (status != 0) {
    const std::string where =
        r.failed_node >= 0 && r.failed_node < static_cast<int64_t>(g.nodes.size())
            ? g.nodes[r.failed_node]
            : std::string("(set-up)");
    TORCH_CHECK(false, "opweave.dicp: compiled graph ", g.path, " failed at node ", where, ": ",
                r.error);
  }
  return std::move(r.outputs);
}

std::vector<at::Tensor> run_op(int64_t id, std::vector<at::Tensor> inputs,
                               std::vector<int64_t> sym) {
  TORCH_CHECK(!sym.empty(), "opweave.dicp: run needs the symbolic sizes");
  return run_graph(graph(id), inputs, sym.data());
}

// One executor of a plan: a graph plus where its inputs come from and its outputs go.
struct Exec {
  const Graph* graph = nullptr;
  std::vector<int64_t> in;   // graph input k <- executor input in[k]
  std::vector<int64_t> out;  // executor output j <- graph output out[j] (>= 0) or executor
                             // input -out[j]-1 (an input passed through)
};

struct Plan {
  Exec fw, bw;                    // bw.graph is null for inference plans
  int64_t n_user = 0;             // forward outputs: n_user user outputs, then saved values
  std::vector<bool> out_diff;     // per user output: differentiable
  std::vector<int64_t> grad_pos;  // backward output k is the gradient of primal grad_pos[k]
  int64_t n_primals = 0;
};

std::deque<Plan> g_plans;  // guarded by g_mutex; never shrinks

std::vector<at::Tensor> exec(const Exec& e, const std::vector<at::Tensor>& in, int64_t s0) {
  std::vector<at::Tensor> gin;
  gin.reserve(e.in.size());
  for (int64_t k : e.in) gin.push_back(in[k]);
  std::vector<at::Tensor> gout = run_graph(*e.graph, gin, &s0);
  std::vector<at::Tensor> out;
  out.reserve(e.out.size());
  for (int64_t j : e.out) out.push_back(j >= 0 ? gout[j] : in[-j - 1]);
  return out;
}

Exec make_exec(int64_t graph_id, std::vector<int64_t> in, std::vector<int64_t> out, int64_t n_in) {
  Exec e;
  e.graph = &graph(graph_id);
  TORCH_CHECK(static_cast<int64_t>(in.size()) == e.graph->num_inputs, "opweave.dicp: plan maps ",
              in.size(), " inputs of a graph taking ", e.graph->num_inputs);
  for (int64_t k : in) TORCH_CHECK(k >= 0 && k < n_in, "opweave.dicp: plan input ", k);
  for (int64_t j : out) {
    TORCH_CHECK(j < e.graph->num_outputs && -j - 1 < n_in, "opweave.dicp: plan output ", j);
  }
  e.in = std::move(in);
  e.out = std::move(out);
  return e;
}

int64_t plan_op(int64_t fw, std::vector<int64_t> fw_in, std::vector<int64_t> fw_out, int64_t bw,
                std::vector<int64_t> bw_in, std::vector<int64_t> bw_out, int64_t n_user,
                std::vector<int64_t> out_diff, std::vector<int64_t> grad_pos, int64_t n_primals) {
  Plan p;
  p.fw = make_exec(fw, std::move(fw_in), std::move(fw_out), n_primals);
  p.n_user = n_user;
  p.n_primals = n_primals;
  TORCH_CHECK(n_user >= 0 && n_user <= static_cast<int64_t>(p.fw.out.size()),
              "opweave.dicp: plan with ", n_user, " user outputs");
  if (bw >= 0) {
    const int64_t n_saved = static_cast<int64_t>(p.fw.out.size()) - n_user;
    int64_t n_tangents = 0;
    for (int64_t d : out_diff) n_tangents += d != 0;
    TORCH_CHECK(static_cast<int64_t>(out_diff.size()) == n_user, "opweave.dicp: out_diff");
    p.bw = make_exec(bw, std::move(bw_in), std::move(bw_out), n_saved + n_tangents);
    TORCH_CHECK(p.bw.out.size() == grad_pos.size(), "opweave.dicp: grad_pos");
    for (int64_t k : grad_pos) TORCH_CHECK(k >= 0 && k < n_primals, "opweave.dicp: grad_pos");
    for (int64_t d : out_diff) p.out_diff.push_back(d != 0);
    p.grad_pos = std::move(grad_pos);
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  g_plans.push_back(std::move(p));
  return static_cast<int64_t>(g_plans.size() - 1);
}

const Plan& plan(int64_t id) {
  std::lock_guard<std::mutex> lock(g_mutex);
  TORCH_CHECK(id >= 0 && id < static_cast<int64_t>(g_plans.size()), "opweave.dicp: no plan ", id);
  return g_plans[id];
}

std::vector<at::Tensor> call_op(int64_t plan_id, int64_t s0, std::vector<at::Tensor> inputs) {
  const Plan& p = plan(plan_id);
  TORCH_CHECK(static_cast<int64_t>(inputs.size()) == p.n_primals, "opweave.dicp: plan takes ",
              p.n_primals, " inputs, got ", inputs.size());
  return exec(p.fw, inputs, s0);
}

// The compiled training call as a C++ autograd function: the forward graph's user outputs
// are returned, its saved values kept for the backward graph, which runs on the autograd
// engine's device thread without taking the GIL.
struct CompiledTrain : public torch::autograd::Function<CompiledTrain> {
  static torch::autograd::variable_list forward(torch::autograd::AutogradContext* ctx,
                                                int64_t plan_id, int64_t s0,
                                                at::TensorList primals) {
    const Plan& p = plan(plan_id);
    TORCH_CHECK(static_cast<int64_t>(primals.size()) == p.n_primals, "opweave.dicp: plan takes ",
                p.n_primals, " inputs, got ", primals.size());
    std::vector<at::Tensor> in(primals.begin(), primals.end());
    std::vector<at::Tensor> outs = exec(p.fw, in, s0);
    std::vector<at::Tensor> user(outs.begin(), outs.begin() + p.n_user);
    ctx->save_for_backward(std::vector<at::Tensor>(outs.begin() + p.n_user, outs.end()));
    ctx->saved_data["plan"] = plan_id;
    ctx->saved_data["s0"] = s0;
    std::vector<at::Tensor> non_diff;
    for (int64_t i = 0; i < p.n_user; ++i) {
      if (!p.out_diff[i]) non_diff.push_back(user[i]);
    }
    if (!non_diff.empty()) ctx->mark_non_differentiable(non_diff);
    return user;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    const Plan& p = plan(ctx->saved_data["plan"].toInt());
    const int64_t s0 = ctx->saved_data["s0"].toInt();
    std::vector<at::Tensor> in = ctx->get_saved_variables();
    for (int64_t i = 0; i < p.n_user; ++i) {
      if (p.out_diff[i]) in.push_back(grads[i].contiguous());  // (materialized: never undefined)
    }
    std::vector<at::Tensor> res = exec(p.bw, in, s0);
    torch::autograd::variable_list full(2 + p.n_primals);
    for (size_t k = 0; k < res.size(); ++k) full[2 + p.grad_pos[k]] = res[k];
    return full;
  }
};

std::vector<at::Tensor> train_op(int64_t plan_id, int64_t s0, std::vector<at::Tensor> primals) {
  TORCH_CHECK(plan(plan_id).bw.graph != nullptr, "opweave.dicp: plan ", plan_id,
              " has no backward graph");
  return CompiledTrain::apply(plan_id, s0, at::TensorList(primals));
}

// A gradient the step may hand to .grad as it is: not the same memory as an input, the loss or
// another gradient (a backward graph may pass a saved value through, or give two parameters
// one tensor), and laid out as the parameter is (AccumulateGrad's layout contract).
bool owns_memory(const at::Tensor& g, size_t k, const std::vector<at::Tensor>& grads,
                 const std::vector<at::Tensor>& primals, const at::Tensor& loss) {
  const auto shares = [&](const at::Tensor& t) {
    return t.defined() && t.storage().is_alias_of(g.storage());
  };
  if (shares(loss)) return false;
  for (const at::Tensor& t : primals) {
    if (shares(t)) return false;
  }
  for (size_t j = 0; j < grads.size(); ++j) {
    if (j != k && shares(grads[j])) return false;
  }
  return true;
}

// One training step with no autograd engine: the forward graph, the backward graph seeded with
// d(loss) = 1, and each gradient accumulated into its parameter's .grad as AccumulateGrad does
// (taken when .grad is unset, added otherwise). loss.backward() on a device tensor hands the
// backward to the engine's device thread and waits for it: two thread wake-ups per step, tens
// of microseconds on a small machine, more than the compiled MLP's twelve kernels cost. Here the
// whole step runs on the calling thread. Returns the loss, detached.
std::vector<at::Tensor> step_op(int64_t plan_id, int64_t s0, std::vector<at::Tensor> primals) {
  const Plan& p = plan(plan_id);
  TORCH_CHECK(p.bw.graph != nullptr, "opweave.dicp: train_step: plan ", plan_id,
              " has no backward graph (nothing requires grad)");
  TORCH_CHECK(p.n_user == 1 && p.out_diff[0],
              "opweave.dicp: train_step needs a function that returns one differentiable value "
              "(the loss); this one returns ",
              p.n_user, " values");
  TORCH_CHECK(static_cast<int64_t>(primals.size()) == p.n_primals, "opweave.dicp: plan takes ",
              p.n_primals, " inputs, got ", primals.size());
  for (int64_t k : p.grad_pos) {
    const at::Tensor& t = primals[k];
    TORCH_CHECK(!t.requires_grad() || t.is_leaf(), "opweave.dicp: train_step: input ", k,
                " requires grad but is not a leaf (it comes from other autograd operations); "
                "call the compiled function and .backward() instead");
  }
  std::vector<at::Tensor> outs = exec(p.fw, primals, s0);
  const at::Tensor loss = outs[0];
  TORCH_CHECK(loss.numel() == 1, "opweave.dicp: train_step: the loss must be one value, got shape ",
              loss.sizes());
  const c10::AutoGradMode no_grad(false);
  std::vector<at::Tensor> bw_in(std::make_move_iterator(outs.begin() + 1),
                                std::make_move_iterator(outs.end()));
  bw_in.push_back(at::ones_like(loss));
  const std::vector<at::Tensor> grads = exec(p.bw, bw_in, s0);
  for (size_t k = 0; k < grads.size(); ++k) {
    const at::Tensor& g = grads[k];
    at::Tensor& param = primals[p.grad_pos[k]];
    if (!g.defined() || !param.requires_grad()) continue;
    at::Tensor& slot = param.mutable_grad();
    if (slot.defined()) {
      slot.add_(g);
    } else if (g.strides() == param.strides() && owns_memory(g, k, grads, primals, loss)) {
      slot = g;
    } else {
      slot = at::empty_like(param).copy_(g);
    }
  }
  return {loss};
}

}  // namespace

TORCH_LIBRARY(opweave_dicp, m) {
  m.def("load(str path) -> int", &load_op);
  m.def("run(int graph, Tensor[] inputs, int[] sym) -> Tensor[]", &run_op);
  m.def(
      "plan(int fw, int[] fw_in, int[] fw_out, int bw, int[] bw_in, int[] bw_out, int n_user, "
      "int[] out_diff, int[] grad_pos, int n_primals) -> int",
      &plan_op);
  m.def("call(int plan, int s0, Tensor[] inputs) -> Tensor[]", &call_op);
  m.def("train(int plan, int s0, Tensor[] primals) -> Tensor[]", &train_op);
  m.def("step(int plan, int s0, Tensor[] primals) -> Tensor[]", &step_op);
}
