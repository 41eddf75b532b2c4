// Send/recv of the sim communicator: messages through per-pair mailboxes in shared memory.
//
// Sends and receives issued between groupStart and groupEnd on one thread become one stream
// task that progresses them together, so a group may order them any way without deadlock (a
// send needs the peer to drain the mailbox once the message outgrows it). Outside a group every
// call is a group of its own.
#ifndef OPWEAVE_SIM_COMM_P2P_H_
#define OPWEAVE_SIM_COMM_P2P_H_

#include <diopi/diopirt.h>

#include <cstddef>
#include <functional>

#include "opweave/collective_seam.h"

namespace sim {

struct P2pOp {
  bool is_send;
  int peer;
  char* buf;  // host view of the device buffer
  size_t count;
  diopiDtype_t dtype;
};

owStatus p2p_add(const P2pOp& op, owComm_t comm, owStream_t stream);
owStatus p2p_group_start();
owStatus p2p_group_end();

// Defined in collectives.cpp: queues `body` on `stream` holding the communicator.
owStatus submit(owComm_t comm, owStream_t stream, std::function<void()> body);

}  // namespace sim

#endif  // OPWEAVE_SIM_COMM_P2P_H_
