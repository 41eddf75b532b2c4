// Send/recv groups of the sim communicator (see p2p.h).
#include "p2p.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "../seam/sim_internal.h"
#include "shm_comm.h"

namespace sim {
namespace {

struct Group {
  int depth = 0;
  owComm_t comm = nullptr;
  owStream_t stream = nullptr;
  std::vector<P2pOp> ops;
};
thread_local Group t_group;

struct Progress {
  P2pOp op;
  uint64_t seq = 0;      // message number on the (me, peer) direction
  size_t done = 0;       // bytes moved
  bool started = false;  // first chunk moved (an empty message is one empty chunk)
  bool finished = false;
};

std::string describe(const char* dir, int me, int peer, uint64_t seq) {
  return std::string(dir) + " #" + std::to_string(seq) +
         (dir[0] == 's' ? " from rank " : " on rank ") + std::to_string(me) +
         (dir[0] == 's' ? " to rank " : " from rank ") + std::to_string(peer);
}

// Moves one chunk of `p` if its mailbox allows; true when it did.
bool step(ShmComm& c, Progress& p) {
  const size_t es = dtype_size(p.op.dtype), total = p.op.count * es;
  const int me = c.rank(), peer = p.op.peer;
  if (p.op.is_send) {
    Mailbox& m = c.mailbox(me, peer);
    if (m.posted.load(std::memory_order_acquire) != m.consumed.load(std::memory_order_acquire)) {
      return false;
    }
    const size_t len = std::min(c.mail_bytes(), total - p.done);
    std::memcpy(c.mail_buffer(me, peer), p.op.buf + p.done, len);
    m.msg_seq = p.seq;
    m.total = p.op.count;
    m.dtype = p.op.dtype;
    m.offset = p.done;
    m.bytes = len;
    m.posted.fetch_add(1, std::memory_order_release);
    p.done += len;
  } else {
    Mailbox& m = c.mailbox(peer, me);
    if (m.posted.load(std::memory_order_acquire) == m.consumed.load(std::memory_order_acquire)) {
      return false;
    }
    if (m.msg_seq != p.seq || m.total != p.op.count || m.dtype != p.op.dtype ||
        m.offset != p.done) {
      c.fail(describe("recv", me, peer, p.seq) + ": expected " + std::to_string(p.op.count) + " " +
             dtype_name(p.op.dtype) + " elements, rank " + std::to_string(peer) +
             " sent message #" + std::to_string(m.msg_seq) + " of " + std::to_string(m.total) +
             " " + dtype_name(m.dtype) + " elements");
    }
    std::memcpy(p.op.buf + p.done, c.mail_buffer(peer, me), m.bytes);
    p.done += m.bytes;
    m.consumed.fetch_add(1, std::memory_order_release);
  }
  p.started = true;
  p.finished = p.done == total;
  return true;
}

void run_group(ShmComm& c, const std::vector<P2pOp>& ops) {
  std::vector<Progress> work(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    work[i].op = ops[i];
    work[i].seq = ops[i].is_send ? c.next_send_seq(ops[i].peer) : c.next_recv_seq(ops[i].peer);
  }
  // Only the oldest unfinished message per direction and peer may move (messages keep order).
  auto head = [&](size_t i) {
    for (size_t j = 0; j < i; ++j) {
      if (!work[j].finished && work[j].op.is_send == work[i].op.is_send &&
          work[j].op.peer == work[i].op.peer) {
        return false;
      }
    }
    return true;
  };
  for (;;) {
    bool all_done = true, moved = false;
    std::vector<int> peers;
    for (size_t i = 0; i < work.size(); ++i) {
      if (work[i].finished) continue;
      all_done = false;
      peers.push_back(work[i].op.peer);
      if (head(i) && step(c, work[i])) moved = true;
    }
    if (all_done) return;
    if (moved) continue;
    c.wait_for(
        "send/recv",
        [&] {
          for (size_t i = 0; i < work.size(); ++i) {
            if (work[i].finished || !head(i)) continue;
            const Progress& p = work[i];
            const Mailbox& m =
                p.op.is_send ? c.mailbox(c.rank(), p.op.peer) : c.mailbox(p.op.peer, c.rank());
            const bool empty = m.posted.load(std::memory_order_acquire) ==
                               m.consumed.load(std::memory_order_acquire);
            if (p.op.is_send == empty) return true;
          }
          return false;
        },
        peers);
  }
}

owStatus flush(Group& g) {
  std::vector<P2pOp> ops;
  ops.swap(g.ops);
  owComm_t comm = g.comm;
  g.comm = nullptr;
  if (ops.empty()) return owSuccess;
  return submit(comm, g.stream, [comm, ops = std::move(ops)] { run_group(*comm, ops); });
}

}  // namespace

owStatus p2p_add(const P2pOp& op, owComm_t comm, owStream_t stream) {
  Group& g = t_group;
  if (g.depth > 0 && g.comm != nullptr && (g.comm != comm || g.stream != stream)) {
    return fail(owInvalidValue,
                "send/recv: a group holds operations of one communicator and stream only");
  }
  g.comm = comm;
  g.stream = stream;
  g.ops.push_back(op);
  return g.depth > 0 ? owSuccess : flush(g);
}

owStatus p2p_group_start() {
  ++t_group.depth;
  return owSuccess;
}

owStatus p2p_group_end() {
  Group& g = t_group;
  if (g.depth == 0) return fail(owInvalidValue, "groupEnd without groupStart");
  return --g.depth > 0 ? owSuccess : flush(g);
}

}  // namespace sim
