// The sim's collective seam: argument checks on the calling thread, then the operation as one
// task on the given stream, moving data through the communicator's shared segment.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "../seam/sim_internal.h"
#include "../seam/sim_stream.h"
#include "opweave/collective_seam.h"
#include "p2p.h"
#include "reduce.h"
#include "shm_comm.h"

namespace sim {
namespace {

constexpr char kIdTag[] = "owsim1";

enum Kind : uint32_t {
  kAllReduce = 1,
  kBroadcast,
  kReduce,
  kAllGather,
  kReduceScatter,
  kAllToAll,
  kBarrier
};

// Identifies this host's shared memory: same boot, so /dev/shm is the same.
std::string host_key() {
  std::ifstream f("/proc/sys/kernel/random/boot_id");
  std::string id;
  std::getline(f, id);
  return id.empty() ? "unknown-boot" : id;
}

owStatus get_unique_id(owCommUniqueId* id) {
  if (id == nullptr) return fail(owInvalidValue, "getUniqueId: id is NULL");
  static std::atomic<unsigned> counter{0};
  std::random_device rd;
  const std::string name = "/opweave-sim-" + std::to_string(getpid()) + "-" +
                           std::to_string(counter++) + "-" + std::to_string(rd());
  const std::string text = std::string(kIdTag) + " " + name + " " + host_key();
  if (text.size() >= sizeof(id->bytes)) return fail(owError, "getUniqueId: id too long");
  std::memset(id->bytes, 0, sizeof(id->bytes));
  std::memcpy(id->bytes, text.data(), text.size());
  return owSuccess;
}

owStatus comm_init_rank(owComm_t* comm, int nranks, const owCommUniqueId* id, int rank, int device,
                        int64_t timeout_ms) {
  if (comm == nullptr || id == nullptr) return fail(owInvalidValue, "commInitRank: NULL argument");
  if (nranks < 1 || nranks > kMaxCommRanks || rank < 0 || rank >= nranks) {
    return fail(owInvalidValue, "commInitRank: rank " + std::to_string(rank) + " of " +
                                    std::to_string(nranks) + " (the sim supports 1.." +
                                    std::to_string(kMaxCommRanks) + " ranks)");
  }
  if (device < 0 || device >= kDeviceCount) {
    return fail(owInvalidValue, "commInitRank: invalid device " + std::to_string(device));
  }
  const std::string text(id->bytes, strnlen(id->bytes, sizeof(id->bytes)));
  const size_t a = text.find(' '), b = text.rfind(' ');
  if (text.compare(0, a, kIdTag) != 0 || a == b) {
    return fail(owInvalidValue, "commInitRank: not a sim communicator id");
  }
  if (text.substr(b + 1) != host_key()) {
    return fail(owInvalidValue,
                "commInitRank: rank " + std::to_string(rank) +
                    " is on another host than rank 0; sim collectives share memory within one "
                    "host (use a network-scope vendor, or the host-staged Gloo transport)");
  }
  try {
    *comm = new owComm_(text.substr(a + 1, b - a - 1), host_key(), nranks, rank, device,
                        std::chrono::milliseconds(timeout_ms > 0 ? timeout_ms : 1800000));
  } catch (const std::exception& e) {
    return fail(owError,
                std::string("commInitRank on rank ") + std::to_string(rank) + ": " + e.what());
  }
  return owSuccess;
}

owStatus comm_destroy(owComm_t comm) {
  if (comm == nullptr) return fail(owInvalidValue, "commDestroy: comm is NULL");
  // Pending operations end within the timeout (or at once when the communicator failed).
  while (comm->in_flight().load() != 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  delete comm;
  return owSuccess;
}

// The buffer lies in device memory of the communicator's device.
owStatus check_buffer(owComm_t comm, const void* p, size_t count, diopiDtype_t dtype,
                      const char* what) {
  if (dtype_size(dtype) == 0) {
    return fail(owInvalidValue, std::string(what) + ": dtype " + dtype_name(dtype) +
                                    " is not supported by sim collectives");
  }
  if (count == 0) return owSuccess;
  const owStatus st = mem_check_range(p, count * dtype_size(dtype), what);
  if (st != owSuccess) return st;
  if (device_of(p) != comm->device()) {
    return fail(owInvalidValue, std::string(what) + ": buffer on device " +
                                    std::to_string(device_of(p)) + ", communicator on device " +
                                    std::to_string(comm->device()));
  }
  return owSuccess;
}

owStatus check_call(owComm_t comm, owStream_t stream, const char* what) {
  if (comm == nullptr) return fail(owInvalidValue, std::string(what) + ": comm is NULL");
  if (stream == nullptr || stream_device(stream) != comm->device()) {
    return fail(owInvalidValue, std::string(what) + ": stream is NULL or not on device " +
                                    std::to_string(comm->device()));
  }
  return owSuccess;
}

owStatus check_op(owReduceOp op, diopiDtype_t dtype, const char* what) {
  if (op < owReduceSum || op > owReduceAvg) {
    return fail(owInvalidValue, std::string(what) + ": invalid reduce op " + std::to_string(op));
  }
  const bool floating = dtype == diopi_dtype_float16 || dtype == diopi_dtype_bfloat16 ||
                        dtype == diopi_dtype_float32 || dtype == diopi_dtype_float64;
  if (op == owReduceAvg && !floating) {
    return fail(owInvalidValue, std::string(what) + ": average of " + dtype_name(dtype) +
                                    " is not defined (integral dtype)");
  }
  return owSuccess;
}

}  // namespace

// Queues `body` on `stream` holding the communicator; exceptions become the stream's error.
owStatus submit(owComm_t comm, owStream_t stream, std::function<void()> body) {
  comm->in_flight().fetch_add(1);
  const owStatus st = enqueue(stream, [comm, body = std::move(body)] {
    struct Done {
      owComm_t c;
      ~Done() { c->in_flight().fetch_sub(1); }
    } done{comm};
    std::lock_guard<std::mutex> lock(comm->mutex());
    body();
  });
  if (st != owSuccess) comm->in_flight().fetch_sub(1);
  return st;
}

namespace {

OpDesc make_desc(Kind kind, diopiDtype_t dtype, uint64_t count, int64_t root, int32_t op,
                 uint64_t rounds) {
  OpDesc d{};
  d.kind = kind;
  d.dtype = dtype;
  d.count = count;
  d.root = root;
  d.op = op;
  d.rounds = rounds;
  return d;
}

uint64_t rounds_for(uint64_t count, uint64_t per_round) {
  return (count + per_round - 1) / per_round;
}

// Elements of a `total`-element stream that fall in round k of `per_round`.
size_t piece(uint64_t total, uint64_t k, uint64_t per_round) {
  const uint64_t begin = k * per_round;
  return begin >= total ? 0 : static_cast<size_t>(std::min(per_round, total - begin));
}

// Ranks must agree on dtype, count, root and op (those that apply).
void same_shape(const OpDesc& m, const OpDesc& o, int r) {
  if (m.dtype == o.dtype && m.count == o.count && m.root == o.root && m.op == o.op) return;
  throw CommError("arguments differ between ranks: this rank has " + std::to_string(m.count) + " " +
                  dtype_name(m.dtype) + " elements (root " + std::to_string(m.root) + ", op " +
                  std::to_string(m.op) + "), rank " + std::to_string(r) + " has " +
                  std::to_string(o.count) + " " + dtype_name(o.dtype) + " elements (root " +
                  std::to_string(o.root) + ", op " + std::to_string(o.op) + ")");
}

std::vector<const char*> slots_at(const ShmComm& c, size_t offset) {
  std::vector<const char*> ins(c.nranks());
  for (int r = 0; r < c.nranks(); ++r) ins[r] = c.slot(r) + offset;
  return ins;
}

// Runs `exchange` and turns a mismatch found by a check into a failure of the communicator.
void run(ShmComm& c, const char* what, const OpDesc& d,
         const std::function<void(const OpDesc&, const OpDesc&, int)>& check,
         const std::function<void(uint64_t)>& write, const std::function<void(uint64_t)>& read) {
  const std::string where = std::string(what) + " on rank " + std::to_string(c.rank());
  c.exchange(
      what, d,
      [&](const OpDesc& m, const OpDesc& o, int r) {
        try {
          check(m, o, r);
        } catch (const CommError& e) {
          c.fail(where + ": " + e.what());
        }
      },
      write, read);
}

owStatus all_reduce(const void* send, void* recv, size_t count, diopiDtype_t dtype, owReduceOp op,
                    owComm_t comm, owStream_t stream) {
  owStatus st = check_call(comm, stream, "allReduce");
  if (st == owSuccess) st = check_op(op, dtype, "allReduce");
  if (st == owSuccess) st = check_buffer(comm, send, count, dtype, "allReduce send");
  if (st == owSuccess) st = check_buffer(comm, recv, count, dtype, "allReduce recv");
  if (st != owSuccess) return st;
  const char* in = host_ptr<const char>(send);
  char* out = host_ptr<char>(recv);
  return submit(comm, stream, [=] {
    ShmComm& c = *comm;
    const size_t es = dtype_size(dtype), per = c.slot_bytes() / es;
    run(
        c, "allreduce", make_desc(kAllReduce, dtype, count, -1, op, rounds_for(count, per)),
        same_shape,
        [&](uint64_t k) {
          std::memcpy(c.slot(c.rank()), in + k * per * es, piece(count, k, per) * es);
        },
        [&](uint64_t k) {
          reduce_slots(out + k * per * es, slots_at(c, 0), piece(count, k, per), dtype, op);
        });
  });
}

owStatus reduce(const void* send, void* recv, size_t count, diopiDtype_t dtype, owReduceOp op,
                int root, owComm_t comm, owStream_t stream) {
  owStatus st = check_call(comm, stream, "reduce");
  if (st == owSuccess) st = check_op(op, dtype, "reduce");
  if (st == owSuccess && (root < 0 || root >= comm->nranks())) {
    st = fail(owInvalidValue, "reduce: invalid root " + std::to_string(root));
  }
  if (st == owSuccess) st = check_buffer(comm, send, count, dtype, "reduce send");
  if (st == owSuccess && comm->rank() == root) {
    st = check_buffer(comm, recv, count, dtype, "reduce recv");
  }
  if (st != owSuccess) return st;
  const char* in = host_ptr<const char>(send);
  char* out = host_ptr<char>(recv);
  return submit(comm, stream, [=] {
    ShmComm& c = *comm;
    const size_t es = dtype_size(dtype), per = c.slot_bytes() / es;
    run(
        c, "reduce", make_desc(kReduce, dtype, count, root, op, rounds_for(count, per)), same_shape,
        [&](uint64_t k) {
          std::memcpy(c.slot(c.rank()), in + k * per * es, piece(count, k, per) * es);
        },
        [&](uint64_t k) {
          if (c.rank() != root) return;
          reduce_slots(out + k * per * es, slots_at(c, 0), piece(count, k, per), dtype, op);
        });
  });
}

owStatus broadcast(const void* send, void* recv, size_t count, diopiDtype_t dtype, int root,
                   owComm_t comm, owStream_t stream) {
  owStatus st = check_call(comm, stream, "broadcast");
  if (st == owSuccess && (root < 0 || root >= comm->nranks())) {
    st = fail(owInvalidValue, "broadcast: invalid root " + std::to_string(root));
  }
  if (st == owSuccess && comm->rank() == root) {
    st = check_buffer(comm, send, count, dtype, "broadcast send");
  }
  if (st == owSuccess) st = check_buffer(comm, recv, count, dtype, "broadcast recv");
  if (st != owSuccess) return st;
  const char* in = host_ptr<const char>(send);
  char* out = host_ptr<char>(recv);
  return submit(comm, stream, [=] {
    ShmComm& c = *comm;
    const size_t es = dtype_size(dtype), per = c.slot_bytes() / es;
    const bool is_root = c.rank() == root;
    run(
        c, "broadcast", make_desc(kBroadcast, dtype, count, root, 0, rounds_for(count, per)),
        same_shape,
        [&](uint64_t k) {
          if (is_root) std::memcpy(c.slot(root), in + k * per * es, piece(count, k, per) * es);
        },
        [&](uint64_t k) {
          if (!is_root || in != out) {
            std::memcpy(out + k * per * es, c.slot(root), piece(count, k, per) * es);
          }
        });
  });
}

owStatus all_gather_v(const void* send, size_t sendcount, void* recv, const size_t* recvcounts,
                      const size_t* displs, diopiDtype_t dtype, owComm_t comm, owStream_t stream) {
  owStatus st = check_call(comm, stream, "allGatherV");
  if (st == owSuccess && (recvcounts == nullptr || displs == nullptr)) {
    st = fail(owInvalidValue, "allGatherV: recvcounts/displs is NULL");
  }
  if (st != owSuccess) return st;
  const int n = comm->nranks();
  std::vector<size_t> counts(recvcounts, recvcounts + n), offs(displs, displs + n);
  if (counts[comm->rank()] != sendcount) {
    return fail(owInvalidValue, "allGatherV: recvcounts[rank] differs from sendcount");
  }
  size_t extent = 0;
  for (int r = 0; r < n; ++r) extent = std::max(extent, offs[r] + counts[r]);
  st = check_buffer(comm, send, sendcount, dtype, "allGatherV send");
  if (st == owSuccess) st = check_buffer(comm, recv, extent, dtype, "allGatherV recv");
  if (st != owSuccess) return st;
  const char* in = host_ptr<const char>(send);
  char* out = host_ptr<char>(recv);
  return submit(comm, stream, [=] {
    ShmComm& c = *comm;
    const size_t es = dtype_size(dtype), per = c.slot_bytes() / es;
    OpDesc d = make_desc(kAllGather, dtype, sendcount, -1, 0, rounds_for(sendcount, per));
    for (int r = 0; r < n; ++r) d.counts[r] = counts[r];
    run(
        c, "allgather", d,
        [&](const OpDesc& m, const OpDesc& o, int r) {
          if (o.dtype == m.dtype && o.count == m.counts[r]) return;
          throw CommError("expected " + std::to_string(m.counts[r]) + " " + dtype_name(m.dtype) +
                          " elements from rank " + std::to_string(r) + ", it sends " +
                          std::to_string(o.count) + " " + dtype_name(o.dtype) + " elements");
        },
        [&](uint64_t k) {
          std::memcpy(c.slot(c.rank()), in + k * per * es, piece(sendcount, k, per) * es);
        },
        [&](uint64_t k) {
          for (int r = 0; r < n; ++r) {
            std::memcpy(out + (offs[r] + k * per) * es, c.slot(r), piece(counts[r], k, per) * es);
          }
        });
  });
}

owStatus reduce_scatter(const void* send, void* recv, size_t recvcount, diopiDtype_t dtype,
                        owReduceOp op, owComm_t comm, owStream_t stream) {
  owStatus st = check_call(comm, stream, "reduceScatter");
  if (st == owSuccess) st = check_op(op, dtype, "reduceScatter");
  const int n = comm != nullptr ? comm->nranks() : 0;
  if (st == owSuccess) st = check_buffer(comm, send, recvcount * n, dtype, "reduceScatter send");
  if (st == owSuccess) st = check_buffer(comm, recv, recvcount, dtype, "reduceScatter recv");
  if (st != owSuccess) return st;
  const char* in = host_ptr<const char>(send);
  char* out = host_ptr<char>(recv);
  return submit(comm, stream, [=] {
    ShmComm& c = *comm;
    const size_t es = dtype_size(dtype), per = c.slot_bytes() / es / n;  // per block
    run(
        c, "reduce_scatter",
        make_desc(kReduceScatter, dtype, recvcount, -1, op, rounds_for(recvcount, per)), same_shape,
        [&](uint64_t k) {
          const size_t len = piece(recvcount, k, per);
          for (int b = 0; b < n; ++b) {
            std::memcpy(c.slot(c.rank()) + b * per * es, in + (b * recvcount + k * per) * es,
                        len * es);
          }
        },
        [&](uint64_t k) {
          reduce_slots(out + k * per * es, slots_at(c, c.rank() * per * es),
                       piece(recvcount, k, per), dtype, op);
        });
  });
}

owStatus all_to_all_v(const void* send, const size_t* sendcounts, const size_t* sdispls, void* recv,
                      const size_t* recvcounts, const size_t* rdispls, diopiDtype_t dtype,
                      owComm_t comm, owStream_t stream) {
  owStatus st = check_call(comm, stream, "allToAllV");
  if (st == owSuccess && (!sendcounts || !sdispls || !recvcounts || !rdispls)) {
    st = fail(owInvalidValue, "allToAllV: a count or displacement array is NULL");
  }
  if (st != owSuccess) return st;
  const int n = comm->nranks();
  std::vector<size_t> scount(sendcounts, sendcounts + n), soff(sdispls, sdispls + n),
      rcount(recvcounts, recvcounts + n), roff(rdispls, rdispls + n);
  size_t send_extent = 0, recv_extent = 0, longest = 0;
  for (int r = 0; r < n; ++r) {
    send_extent = std::max(send_extent, soff[r] + scount[r]);
    recv_extent = std::max(recv_extent, roff[r] + rcount[r]);
    longest = std::max({longest, scount[r], rcount[r]});
  }
  st = check_buffer(comm, send, send_extent, dtype, "allToAllV send");
  if (st == owSuccess) st = check_buffer(comm, recv, recv_extent, dtype, "allToAllV recv");
  if (st != owSuccess) return st;
  const char* in = host_ptr<const char>(send);
  char* out = host_ptr<char>(recv);
  return submit(comm, stream, [=] {
    ShmComm& c = *comm;
    const int me = c.rank();
    const size_t es = dtype_size(dtype), per = c.slot_bytes() / es / n;
    OpDesc d = make_desc(kAllToAll, dtype, 0, -1, 0, rounds_for(longest, per));
    for (int r = 0; r < n; ++r) d.counts[r] = scount[r];
    run(
        c, "all_to_all", d,
        [&](const OpDesc& m, const OpDesc& o, int r) {
          if (o.dtype == m.dtype && o.counts[me] == rcount[r]) return;
          throw CommError("expected " + std::to_string(rcount[r]) + " " + dtype_name(m.dtype) +
                          " elements from rank " + std::to_string(r) + ", it sends " +
                          std::to_string(o.counts[me]) + " " + dtype_name(o.dtype) + " elements");
        },
        [&](uint64_t k) {
          for (int b = 0; b < n; ++b) {
            std::memcpy(c.slot(me) + b * per * es, in + (soff[b] + k * per) * es,
                        piece(scount[b], k, per) * es);
          }
        },
        [&](uint64_t k) {
          for (int r = 0; r < n; ++r) {
            std::memcpy(out + (roff[r] + k * per) * es, c.slot(r) + me * per * es,
                        piece(rcount[r], k, per) * es);
          }
        });
  });
}

owStatus barrier(owComm_t comm, owStream_t stream) {
  const owStatus st = check_call(comm, stream, "barrier");
  if (st != owSuccess) return st;
  return submit(comm, stream, [=] {
    run(
        *comm, "barrier", make_desc(kBarrier, diopi_dtype_uint8, 0, -1, 0, 0), same_shape,
        [](uint64_t) {}, [](uint64_t) {});
  });
}

owStatus p2p(bool is_send, void* buf, size_t count, diopiDtype_t dtype, int peer, owComm_t comm,
             owStream_t stream) {
  const char* what = is_send ? "send" : "recv";
  owStatus st = check_call(comm, stream, what);
  if (st == owSuccess && (peer < 0 || peer >= comm->nranks() || peer == comm->rank())) {
    st = fail(owInvalidValue, std::string(what) + ": invalid peer " + std::to_string(peer));
  }
  if (st == owSuccess) st = check_buffer(comm, buf, count, dtype, what);
  if (st != owSuccess) return st;
  return p2p_add(P2pOp{is_send, peer, host_ptr<char>(buf), count, dtype}, comm, stream);
}

owStatus send(const void* buf, size_t count, diopiDtype_t dtype, int peer, owComm_t comm,
              owStream_t stream) {
  return p2p(true, const_cast<void*>(buf), count, dtype, peer, comm, stream);
}

owStatus recv(void* buf, size_t count, diopiDtype_t dtype, int peer, owComm_t comm,
              owStream_t stream) {
  return p2p(false, buf, count, dtype, peer, comm, stream);
}

owCollectiveSeam make_collectives() {
  owCollectiveSeam s{};
  s.version = OW_COLLECTIVES_VERSION;
  s.struct_size = sizeof(owCollectiveSeam);
  s.scope = owCommScopeHost;
  s.getUniqueId = get_unique_id;
  s.commInitRank = comm_init_rank;
  s.commDestroy = comm_destroy;
  s.allReduce = all_reduce;
  s.broadcast = broadcast;
  s.reduce = reduce;
  s.allGatherV = all_gather_v;
  s.reduceScatter = reduce_scatter;
  s.allToAllV = all_to_all_v;
  s.send = send;
  s.recv = recv;
  s.groupStart = p2p_group_start;
  s.groupEnd = p2p_group_end;
  s.barrier = barrier;
  return s;
}

}  // namespace
}  // namespace sim

extern "C" __attribute__((visibility("default"))) const owCollectiveSeam* owGetVendorCollectives(
    void) {
  static const owCollectiveSeam table = sim::make_collectives();
  return &table;
}
