// torch.ops.opweave.comm_*: communicators of the vendor's collective seam for the c10d backend
// (runtime/python/opweave/distributed).
//
// Each communicator has its own stream on its device. An operation first makes that stream wait
// for the work queued on the device's current stream (an event), then enqueues the vendor's
// collective there and records a completion event: compute and communication overlap until
// the work is waited for, as with NCCL. The tensors of an operation are kept alive until its
// completion event has been seen, so freeing them early cannot hand their memory to compute that
// is still being read by the collective.
#include <torch/library.h>

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "opweave/diopi_convert.h"
#include "opweave/stream.h"
#include "opweave/torch_compat.h"
#include "opweave/vendor.h"

namespace opweave {
namespace {

struct PendingWork {
  owEvent_t done = nullptr;
  std::vector<at::Tensor> keep;
  std::string what;
};

struct Comm {
  std::mutex mu;
  owComm_t vcomm = nullptr;
  owStream_t stream = nullptr;
  c10::DeviceIndex device = 0;
  int64_t rank = 0, size = 0;
  int64_t next_work = 1;
  std::unordered_map<int64_t, PendingWork> works;
};

struct Registry {
  std::mutex mu;
  int64_t next = 1;
  std::unordered_map<int64_t, std::shared_ptr<Comm>> comms;
};
Registry& registry() {
  static Registry* r = new Registry();  // leaked: communicators may outlive static destructors
  return *r;
}

const owCollectiveSeam& collectives() {
  const VendorInfo& v = vendor_info();
  TORCH_CHECK(v.collectives != nullptr, "opweave: vendor '", v.name, "' has no collectives",
              v.collectives_error.empty() ? "" : " (", v.collectives_error,
              v.collectives_error.empty() ? "" : ")");
  return *v.collectives;
}

std::shared_ptr<Comm> comm_at(int64_t id) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.comms.find(id);
  TORCH_CHECK(it != r.comms.end(), "opweave: unknown communicator ", id);
  return it->second;
}

[[noreturn]] void fail(const Comm& c, const std::string& what, owStatus st) {
  TORCH_CHECK(false, "opweave ", what, " on rank ", c.rank, " of ", c.size, " failed (",
              vendor_info().name, " status ", static_cast<int>(st), "): ", seam().lastError());
}

void check(const Comm& c, const std::string& what, owStatus st) {
  if (st != owSuccess) fail(c, what, st);
}

std::string to_hex(const char* p, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += digits[(static_cast<unsigned char>(p[i]) >> 4) & 15];
    s += digits[static_cast<unsigned char>(p[i]) & 15];
  }
  return s;
}

std::string unique_id_op() {
  owCommUniqueId id{};
  check_seam(collectives().getUniqueId(&id), "getUniqueId");
  return to_hex(id.bytes, sizeof(id.bytes));
}

int64_t init_op(const std::string& hex, int64_t rank, int64_t size, int64_t device,
                int64_t timeout_ms) {
  const owCollectiveSeam& cs = collectives();
  TORCH_CHECK(hex.size() == 2 * sizeof(owCommUniqueId), "opweave: malformed communicator id");
  owCommUniqueId id{};
  for (size_t i = 0; i < sizeof(id.bytes); ++i) {
    id.bytes[i] = static_cast<char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  }
  auto c = std::make_shared<Comm>();
  c->device = checked_device_index(static_cast<c10::DeviceIndex>(device), "comm_init");
  c->rank = rank;
  c->size = size;
  check_seam(seam().streamCreate(c->device, &c->stream), "streamCreate");
  const owStatus st = cs.commInitRank(&c->vcomm, static_cast<int>(size), &id,
                                      static_cast<int>(rank), c->device, timeout_ms);
  if (st != owSuccess) {
    const std::string msg = seam().lastError();
    seam().streamDestroy(c->stream);
    TORCH_CHECK(false, "opweave: creating the communicator on rank ", rank, " of ", size,
                " failed: ", msg);
  }
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.comms[r.next] = c;
  return r.next++;
}

void destroy_op(int64_t id) {
  std::shared_ptr<Comm> c = comm_at(id);
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    r.comms.erase(id);
  }
  std::lock_guard<std::mutex> lock(c->mu);
  seam().streamSynchronize(c->stream);  // an error was reported by the works already
  for (auto& [_, w] : c->works) seam().eventDestroy(w.done);
  c->works.clear();
  collectives().commDestroy(c->vcomm);
  seam().streamDestroy(c->stream);
}

// The tensor's data for the vendor: a contiguous tensor on the communicator's device.
void* buffer(const Comm& c, const at::Tensor& t, const std::string& what) {
  TORCH_CHECK(t.device().type() == c10::DeviceType::PrivateUse1 && t.device().index() == c.device,
              "opweave ", what, ": tensor on ", t.device(), ", communicator on device ",
              static_cast<int>(c.device));
  TORCH_CHECK(t.is_contiguous(), "opweave ", what, ": tensor is not contiguous");
  return t.data_ptr();
}

diopiDtype_t dtype_of(const std::vector<at::Tensor>& ts, const std::string& what) {
  TORCH_CHECK(!ts.empty(), "opweave ", what, ": no tensor");
  const diopiDtype_t d = diopi_dtype(ts[0].scalar_type());
  for (const at::Tensor& t : ts) {
    TORCH_CHECK(t.scalar_type() == ts[0].scalar_type(), "opweave ", what,
                ": tensors of different dtypes (", ts[0].scalar_type(), ", ", t.scalar_type(), ")");
  }
  TORCH_CHECK(d != diopi_dtype_unsupported, "opweave ", what, ": dtype ", ts[0].scalar_type(),
              " is not supported by collectives");
  return d;
}

std::vector<size_t> sizes(c10::IntArrayRef v) { return std::vector<size_t>(v.begin(), v.end()); }
std::vector<size_t> offsets(const std::vector<size_t>& counts) {
  std::vector<size_t> out(counts.size());
  size_t at = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    out[i] = at;
    at += counts[i];
  }
  return out;
}

// Orders the communicator's stream after the device's current stream, runs `enqueue` with it,
// and records the completion; returns the work id.
template <class F>
int64_t submit(Comm& c, const std::string& what, std::vector<at::Tensor> keep, F&& enqueue) {
  const owVendorSeam& s = seam();
  owEvent_t ready = nullptr;
  check_seam(s.eventCreate(&ready), "eventCreate");
  check_seam(s.eventRecord(ready, current_native_stream(c.device)), "eventRecord");
  check_seam(s.streamWaitEvent(c.stream, ready), "streamWaitEvent");
  s.eventDestroy(ready);
  check(c, what, enqueue(c.stream));
  PendingWork w;
  w.what = what;
  w.keep = std::move(keep);
  check_seam(s.eventCreate(&w.done), "eventCreate");
  check_seam(s.eventRecord(w.done, c.stream), "eventRecord");
  const int64_t id = c.next_work++;
  c.works.emplace(id, std::move(w));
  return id;
}

int64_t run_op(int64_t comm, const std::string& kind, const std::vector<at::Tensor>& inputs,
               const std::vector<at::Tensor>& outputs, int64_t op, int64_t root,
               c10::IntArrayRef send_counts, c10::IntArrayRef recv_counts) {
  std::shared_ptr<Comm> cp = comm_at(comm);
  Comm& c = *cp;
  std::lock_guard<std::mutex> lock(c.mu);
  const owCollectiveSeam& cs = collectives();
  std::vector<at::Tensor> keep(inputs);
  keep.insert(keep.end(), outputs.begin(), outputs.end());
  const auto rop = static_cast<owReduceOp>(op);
  const int r = static_cast<int>(root);
  if (kind == "barrier") {
    return submit(c, kind, {}, [&](owStream_t st) { return cs.barrier(c.vcomm, st); });
  }
  TORCH_CHECK(inputs.size() == 1 && outputs.size() == 1, "opweave ", kind,
              ": expects one input and one output tensor");
  const diopiDtype_t dt = dtype_of(keep, kind);
  void* in = buffer(c, inputs[0], kind);
  void* out = buffer(c, outputs[0], kind);
  const size_t n_in = inputs[0].numel(), n_out = outputs[0].numel();
  if (kind == "allreduce") {
    TORCH_CHECK(n_in == n_out, "opweave allreduce: input and output sizes differ");
    return submit(c, kind, keep,
                  [&](owStream_t st) { return cs.allReduce(in, out, n_in, dt, rop, c.vcomm, st); });
  }
  if (kind == "broadcast") {
    return submit(c, kind, keep,
                  [&](owStream_t st) { return cs.broadcast(in, out, n_out, dt, r, c.vcomm, st); });
  }
  if (kind == "reduce") {
    return submit(c, kind, keep,
                  [&](owStream_t st) { return cs.reduce(in, out, n_in, dt, rop, r, c.vcomm, st); });
  }
  if (kind == "allgather") {
    const std::vector<size_t> counts = sizes(recv_counts), displs = offsets(counts);
    TORCH_CHECK(counts.size() == static_cast<size_t>(c.size), "opweave allgather: ", counts.size(),
                " counts for ", c.size, " ranks");
    return submit(c, kind, keep, [&](owStream_t st) {
      return cs.allGatherV(in, n_in, out, counts.data(), displs.data(), dt, c.vcomm, st);
    });
  }
  if (kind == "reduce_scatter") {
    TORCH_CHECK(n_in == n_out * static_cast<size_t>(c.size),
                "opweave reduce_scatter: input must hold size * output elements");
    return submit(c, kind, keep, [&](owStream_t st) {
      return cs.reduceScatter(in, out, n_out, dt, rop, c.vcomm, st);
    });
  }
  if (kind == "all_to_all") {
    const std::vector<size_t> sc = sizes(send_counts), rc = sizes(recv_counts);
    const std::vector<size_t> sd = offsets(sc), rd = offsets(rc);
    TORCH_CHECK(sc.size() == static_cast<size_t>(c.size) && rc.size() == sc.size(),
                "opweave all_to_all: one count per rank expected");
    return submit(c, kind, keep, [&](owStream_t st) {
      return cs.allToAllV(in, sc.data(), sd.data(), out, rc.data(), rd.data(), dt, c.vcomm, st);
    });
  }
  TORCH_CHECK(false, "opweave: unknown collective '", kind, "'");
}

// One group of sends and receives that progress together (batch_isend_irecv).
int64_t p2p_op(int64_t comm, const std::vector<at::Tensor>& tensors, c10::IntArrayRef peers,
               c10::IntArrayRef is_send) {
  std::shared_ptr<Comm> cp = comm_at(comm);
  Comm& c = *cp;
  std::lock_guard<std::mutex> lock(c.mu);
  const owCollectiveSeam& cs = collectives();
  TORCH_CHECK(tensors.size() == peers.size() && peers.size() == is_send.size(),
              "opweave send/recv: one peer and direction per tensor expected");
  std::vector<void*> bufs;
  std::vector<diopiDtype_t> dtypes;
  for (const at::Tensor& t : tensors) {
    bufs.push_back(buffer(c, t, "send/recv"));
    dtypes.push_back(dtype_of({t}, "send/recv"));
  }
  return submit(c, is_send.size() == 1 ? (is_send[0] ? "send" : "recv") : "send/recv group",
                tensors, [&](owStream_t st) {
                  owStatus s = cs.groupStart();
                  for (size_t i = 0; i < tensors.size() && s == owSuccess; ++i) {
                    const size_t n = tensors[i].numel();
                    const int peer = static_cast<int>(peers[i]);
                    s = is_send[i] != 0 ? cs.send(bufs[i], n, dtypes[i], peer, c.vcomm, st)
                                        : cs.recv(bufs[i], n, dtypes[i], peer, c.vcomm, st);
                  }
                  const owStatus e = cs.groupEnd();
                  return s != owSuccess ? s : e;
                });
}

// Blocks until the work is done; raises what failed on the communicator's stream, naming the
// collective and the rank.
void wait_op(int64_t comm, int64_t work) {
  std::shared_ptr<Comm> cp = comm_at(comm);
  Comm& c = *cp;
  owEvent_t done = nullptr;
  std::string what;
  {
    std::lock_guard<std::mutex> lock(c.mu);
    auto it = c.works.find(work);
    TORCH_CHECK(it != c.works.end(), "opweave: unknown work ", work);
    done = it->second.done;
    what = it->second.what;
  }
  const owVendorSeam& s = seam();
  check(c, what, s.eventSynchronize(done));
  std::lock_guard<std::mutex> lock(c.mu);
  const owStatus st = s.streamQuery(c.stream);  // reports a failed task of the stream
  if (st != owSuccess && st != owNotReady) fail(c, what, st);
  check_seam(s.streamWaitEvent(current_native_stream(c.device), done), "streamWaitEvent");
  auto it = c.works.find(work);
  if (it != c.works.end()) {
    s.eventDestroy(it->second.done);
    c.works.erase(it);
  }
}

}  // namespace

TORCH_LIBRARY_FRAGMENT(opweave, m) {
  m.def("comm_unique_id() -> str", &unique_id_op);
  m.def("comm_init(str id, int rank, int size, int device, int timeout_ms) -> int", &init_op);
  m.def("comm_destroy(int comm) -> ()", &destroy_op);
  m.def(
      "comm_run(int comm, str kind, Tensor[] inputs, Tensor(a!)[] outputs, int op, int root, "
      "int[] send_counts, int[] recv_counts) -> int",
      &run_op);
  m.def("comm_p2p(int comm, Tensor(a!)[] tensors, int[] peers, int[] is_send) -> int", &p2p_op);
  m.def("comm_wait(int comm, int work) -> ()", &wait_op);
}

#if !OPWEAVE_TORCH_AT_LEAST(2, 0)
// torch 1.13 registers no autograd fallthrough for PrivateUse1, so c10d's dispatcher ops
// (c10d::broadcast_, which DDP's parameter check calls on device tensors) fail at
// AutogradPrivateUse1. torch 2.x registers exactly this fallthrough itself.
TORCH_LIBRARY_IMPL(_, AutogradPrivateUse1, m) { m.fallback(torch::CppFunction::makeFallthrough()); }
#endif

}  // namespace opweave
