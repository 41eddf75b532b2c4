// The shared-memory segment of a sim communicator: mapping, joining, bounded waits, barriers
// and the round structure every collective follows.
#include "shm_comm.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <thread>

namespace sim {
namespace {

constexpr uint64_t kMagic = 0x6f77736d636f6d31ull;  // "owsmcom1"

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

// Process `pid` is gone or a zombie (it died; its parent has not reaped it yet).
bool process_gone(int32_t pid) {
  if (pid <= 0) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return true;
  std::string line;
  std::getline(stat, line);
  const size_t paren = line.rfind(')');
  if (paren == std::string::npos || paren + 2 >= line.size()) return false;
  const char state = line[paren + 2];
  return state == 'Z' || state == 'X';
}

std::string rank_list(const std::vector<int>& ranks) {
  std::string s;
  for (int r : ranks) s += (s.empty() ? "" : ", ") + std::to_string(r);
  return s;
}

}  // namespace

ShmComm::ShmComm(const std::string& name, const std::string& host_key, int nranks, int rank,
                 int device, std::chrono::milliseconds timeout)
    : name_(name),
      nranks_(nranks),
      rank_(rank),
      device_(device),
      timeout_(timeout),
      send_seq_(nranks, 0),
      recv_seq_(nranks, 0) {
  (void)host_key;  // checked by the caller against the id's
  // Every rank derives the same layout from nranks, so nobody reads it before it is written.
  const size_t slot = nranks <= 8 ? (size_t{8} << 20) : (size_t{1} << 20);
  const size_t mail = nranks <= 8 ? (size_t{1} << 20) : (size_t{128} << 10);
  const size_t pairs = static_cast<size_t>(nranks) * nranks;
  const size_t header = round_up(sizeof(ShmHeader), 4096);
  const size_t boxes = round_up(pairs * sizeof(Mailbox), 4096);
  map_bytes_ = header + boxes + nranks * slot + pairs * mail;

  const int fd = shm_open(name_.c_str(), O_CREAT | O_RDWR, 0600);
  if (fd < 0) throw CommError("shm_open(" + name_ + ") failed: " + std::strerror(errno));
  if (ftruncate(fd, static_cast<off_t>(map_bytes_)) != 0) {
    const int err = errno;
    close(fd);
    shm_unlink(name_.c_str());
    throw CommError("sizing the shared segment " + name_ + " failed: " + std::strerror(err));
  }
  void* p = mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) throw CommError("mmap of " + name_ + " failed: " + std::strerror(errno));
  auto* base = static_cast<char*>(p);
  hdr_ = reinterpret_cast<ShmHeader*>(base);
  mailboxes_ = reinterpret_cast<Mailbox*>(base + header);
  slots_ = base + header + boxes;
  mail_data_ = slots_ + nranks * slot;
  hdr_->slot_bytes = slot;  // same value from every rank
  hdr_->mail_bytes = mail;
  hdr_->magic = kMagic;

  hdr_->cells[rank_].pid.store(static_cast<int32_t>(getpid()), std::memory_order_release);
  const uint32_t before = hdr_->joined.fetch_add(1, std::memory_order_acq_rel);
  try {
    wait_for("joining the communicator",
             [&] {
               return hdr_->joined.load(std::memory_order_acquire) >=
                      static_cast<uint32_t>(nranks_);
             },
             {});
  } catch (...) {
    shm_unlink(name_.c_str());  // nobody else can join a failed communicator
    munmap(hdr_, map_bytes_);
    throw;
  }
  // The last rank to join removes the name: the segment lives on while mapped, and nothing is
  // left in /dev/shm when the processes exit, however they exit.
  if (before + 1 == static_cast<uint32_t>(nranks_)) shm_unlink(name_.c_str());
}

ShmComm::~ShmComm() {
  if (hdr_ != nullptr) munmap(hdr_, map_bytes_);
}

void ShmComm::throw_if_aborted(const char* what) const {
  if (hdr_->aborted.load(std::memory_order_acquire) == 0) return;
  while (hdr_->aborted.load(std::memory_order_acquire) != 2) std::this_thread::yield();
  throw CommError(std::string(what) + " on rank " + std::to_string(rank_) +
                  ": the communicator was aborted: " + hdr_->abort_msg);
}

void ShmComm::fail(const std::string& msg) {
  uint32_t expected = 0;
  if (hdr_->aborted.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) {
    const size_t n = std::min(msg.size(), sizeof(hdr_->abort_msg) - 1);
    std::memcpy(hdr_->abort_msg, msg.data(), n);
    hdr_->abort_msg[n] = '\0';
    hdr_->aborted.store(2, std::memory_order_release);
  }
  if (failed_.empty()) failed_ = msg;
  throw CommError(msg);
}

std::string ShmComm::peer_gone(const std::vector<int>& peers) const {
  for (int r = 0; r < nranks_; ++r) {
    if (r == rank_) continue;
    if (!peers.empty() && std::find(peers.begin(), peers.end(), r) == peers.end()) continue;
    const int32_t pid = hdr_->cells[r].pid.load(std::memory_order_acquire);
    if (process_gone(pid)) {
      return "rank " + std::to_string(r) + " (pid " + std::to_string(pid) + ") exited";
    }
  }
  return {};
}

void ShmComm::wait_for(const char* what, const std::function<bool()>& ready,
                       const std::vector<int>& peers) {
  using Clock = std::chrono::steady_clock;
  if (ready()) return;
  const Clock::time_point start = Clock::now();
  Clock::time_point next_check = start + std::chrono::milliseconds(20);
  for (unsigned spin = 0;; ++spin) {
    if (ready()) return;
    throw_if_aborted(what);
    // Spin briefly (the peer is usually about to arrive), then give the core away: ranks
    // outnumber cores on small machines.
    if (spin < 200) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(spin < 2000 ? 20 : 200));
    }
    const Clock::time_point now = Clock::now();
    if (now < next_check) continue;
    next_check = now + std::chrono::milliseconds(20);
    const std::string gone = peer_gone(peers);
    if (!gone.empty()) {
      fail(std::string(what) + " on rank " + std::to_string(rank_) + ": " + gone +
           " before completing it");
    }
    if (now - start >= timeout_) {
      std::vector<int> waiting = peers;
      if (waiting.empty()) {
        for (int r = 0; r < nranks_; ++r) {
          if (r != rank_) waiting.push_back(r);
        }
      }
      fail(std::string(what) + " on rank " + std::to_string(rank_) + ": timed out after " +
           std::to_string(timeout_.count()) + " ms waiting for rank(s) " + rank_list(waiting));
    }
  }
}

void ShmComm::barrier(const char* what) {
  const uint64_t phase = ++phase_;
  hdr_->cells[rank_].arrived.store(phase, std::memory_order_release);
  std::vector<int> lagging;
  auto all_arrived = [&] {
    lagging.clear();
    for (int r = 0; r < nranks_; ++r) {
      if (hdr_->cells[r].arrived.load(std::memory_order_acquire) < phase) lagging.push_back(r);
    }
    return lagging.empty();
  };
  if (all_arrived()) return;
  const std::vector<int> waiting_on = lagging;
  wait_for(what, all_arrived, waiting_on);
}

void ShmComm::exchange(const char* what, OpDesc mine,
                       const std::function<void(const OpDesc&, const OpDesc&, int)>& check,
                       const std::function<void(uint64_t)>& write,
                       const std::function<void(uint64_t)>& read) {
  if (!failed_.empty()) {
    throw CommError(std::string(what) + " on rank " + std::to_string(rank_) +
                    ": the communicator failed earlier: " + failed_);
  }
  mine.seq = next_seq();
  hdr_->cells[rank_].desc[mine.seq & 1] = mine;  // published by the barrier's release store
  if (mine.rounds > 0) write(0);
  barrier(what);
  uint64_t rounds = mine.rounds;
  for (int r = 0; r < nranks_; ++r) {
    const OpDesc& other = hdr_->cells[r].desc[mine.seq & 1];
    if (other.kind != mine.kind || other.seq != mine.seq) {
      fail(std::string(what) + " #" + std::to_string(mine.seq) + " on rank " +
           std::to_string(rank_) + ": rank " + std::to_string(r) +
           " is in a different collective (kind " + std::to_string(other.kind) + " #" +
           std::to_string(other.seq) + "); every rank must issue the same collectives in order");
    }
    if (r != rank_) check(mine, other, r);
    rounds = std::max(rounds, other.rounds);
  }
  for (uint64_t k = 0; k < rounds; ++k) {
    if (k > 0) {
      if (k < mine.rounds) write(k);
      barrier(what);
    }
    read(k);
    barrier(what);  // everyone has read round k: the slots may be reused
  }
}

}  // namespace sim
