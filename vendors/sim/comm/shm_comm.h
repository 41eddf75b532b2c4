// The sim's communicator: the simulated devices of several processes on one host exchange data
// through one POSIX shared-memory segment per communicator.
//
// Layout of the segment: a header (per-rank cells with a barrier counter, the pid and the
// descriptor of the rank's current operation; an abort flag and message), then one mailbox per
// directed rank pair for send/recv, then one staging slot per rank for collectives, then the
// mailboxes' buffers. Collectives move through the slots in rounds of at most one slot per
// rank: write own slot, barrier, read the others' slots, barrier. Every wait is bounded by the
// communicator's timeout, watches the abort flag and notices a peer process that exited, so a
// dead rank or a mismatch fails every rank with a message instead of hanging.
//
// All methods run on the stream worker of the communicator's operations (one at a time).
#ifndef OPWEAVE_SIM_SHM_COMM_H_
#define OPWEAVE_SIM_SHM_COMM_H_

#include <diopi/diopirt.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "../kernels/common/dtype.h"

namespace sim {

using simk::dtype_name;  // "float32", ... for messages
using simk::dtype_size;  // 0 for a dtype the sim does not know

constexpr int kMaxCommRanks = 64;

// What a rank announces for the operation it is in; compared across ranks.
struct OpDesc {
  uint32_t kind;
  diopiDtype_t dtype;
  uint64_t seq;  // operation number on this communicator
  uint64_t count;
  int64_t root;
  int32_t op;
  uint64_t rounds;                 // slot rounds this rank needs
  uint64_t counts[kMaxCommRanks];  // per-peer counts (allgatherv, all_to_allv)
};

struct alignas(64) RankCell {
  std::atomic<uint64_t> arrived;  // barrier phases this rank completed
  std::atomic<int32_t> pid;
  // Two descriptors, by operation parity: a rank that has passed the first barrier of
  // operation n may announce n + 1 while a slower one still reads the announcements of n.
  OpDesc desc[2];
};

// One directed pair's mailbox: the sender posts a chunk when posted == consumed.
struct alignas(64) Mailbox {
  std::atomic<uint64_t> posted;
  std::atomic<uint64_t> consumed;
  uint64_t msg_seq;  // message number on this pair
  uint64_t total;    // elements of the whole message
  diopiDtype_t dtype;
  uint64_t offset;  // byte offset of this chunk in the message
  uint64_t bytes;   // bytes in this chunk
};

struct ShmHeader {
  uint64_t magic;
  uint32_t nranks;
  uint64_t slot_bytes;
  uint64_t mail_bytes;
  std::atomic<uint32_t> joined;
  std::atomic<uint32_t> aborted;  // 0 no, 1 writing the message, 2 message ready
  char abort_msg[512];
  RankCell cells[kMaxCommRanks];
};

static_assert(std::atomic<uint64_t>::is_always_lock_free, "shared-memory atomics");
static_assert(std::atomic<uint32_t>::is_always_lock_free, "shared-memory atomics");

// Thrown inside stream tasks; the stream reports it at the next synchronisation.
struct CommError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ShmComm {
 public:
  // Maps (creating if first) the segment named in the id and waits for all ranks to join.
  ShmComm(const std::string& name, const std::string& host_key, int nranks, int rank, int device,
          std::chrono::milliseconds timeout);
  ~ShmComm();
  ShmComm(const ShmComm&) = delete;
  ShmComm& operator=(const ShmComm&) = delete;

  int rank() const { return rank_; }
  int nranks() const { return nranks_; }
  int device() const { return device_; }
  size_t slot_bytes() const { return hdr_->slot_bytes; }
  size_t mail_bytes() const { return hdr_->mail_bytes; }
  char* slot(int r) const { return slots_ + static_cast<size_t>(r) * hdr_->slot_bytes; }
  Mailbox& mailbox(int from, int to) const { return mailboxes_[from * nranks_ + to]; }
  char* mail_buffer(int from, int to) const {
    return mail_data_ + static_cast<size_t>(from * nranks_ + to) * hdr_->mail_bytes;
  }

  // One collective through the slots. `mine` is this rank's descriptor (seq is filled in);
  // `check` validates the others' descriptors (throwing CommError naming both ranks);
  // `write(round)` fills this rank's slot, `read(round)` consumes the slots.
  void exchange(const char* what, OpDesc mine,
                const std::function<void(const OpDesc& mine, const OpDesc& other, int r)>& check,
                const std::function<void(uint64_t round)>& write,
                const std::function<void(uint64_t round)>& read);

  // Bounded wait for `ready()`, watching `peers` (all ranks when empty) for exit; throws
  // CommError (and aborts the communicator) on timeout, abort or a dead peer.
  void wait_for(const char* what, const std::function<bool()>& ready,
                const std::vector<int>& peers);

  // Marks the communicator failed on every rank with `msg`, then throws it.
  [[noreturn]] void fail(const std::string& msg);

  uint64_t next_seq() { return ++seq_; }
  uint64_t next_send_seq(int peer) { return ++send_seq_[peer]; }
  uint64_t next_recv_seq(int peer) { return ++recv_seq_[peer]; }

  // Serialises operations that share the communicator (streams of one device may differ).
  std::mutex& mutex() { return mu_; }
  std::atomic<int>& in_flight() { return in_flight_; }
  std::chrono::milliseconds timeout() const { return timeout_; }

 private:
  void barrier(const char* what);
  void throw_if_aborted(const char* what) const;
  std::string peer_gone(const std::vector<int>& peers) const;

  std::string name_;
  int nranks_, rank_, device_;
  std::chrono::milliseconds timeout_;
  size_t map_bytes_ = 0;
  ShmHeader* hdr_ = nullptr;
  Mailbox* mailboxes_ = nullptr;
  char* slots_ = nullptr;
  char* mail_data_ = nullptr;
  uint64_t phase_ = 0;
  uint64_t seq_ = 0;
  std::vector<uint64_t> send_seq_, recv_seq_;
  std::string failed_;  // set once this communicator failed: later operations fail at once
  std::mutex mu_;
  std::atomic<int> in_flight_{0};
};

}  // namespace sim

// The seam's opaque communicator is the sim's ShmComm.
struct owComm_ : sim::ShmComm {
  using sim::ShmComm::ShmComm;
};

#endif  // OPWEAVE_SIM_SHM_COMM_H_
