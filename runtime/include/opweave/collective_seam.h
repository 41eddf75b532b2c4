/* The collective seam: what a vendor implements so that torch.distributed runs on its devices.
 *
 * Optional, beside the device seam (vendor_seam.h) and in its style: a vendor library that has
 * collectives exports `owGetVendorCollectives`, returning a table of function pointers; one
 * without them exports nothing, and the runtime reports "collectives: absent" at start-up (the
 * c10d backend then stages device tensors through host memory and Gloo, see
 * runtime/python/opweave/distributed). The model is NCCL's: a communicator per process group
 * and device, created from a unique id that rank 0 makes and the c10d store hands to the others;
 * every operation is asynchronous, enqueued on a stream of the communicator's device, and runs
 * after the work queued there before it.
 *
 * Contract details the runtime relies on:
 *  - buffers are device memory of the communicator's device, contiguous, `count` elements of
 *    `dtype`; send and receive buffers may be the same (in place) except where noted;
 *  - every diopiDtype_t the catalogue uses is accepted, bool included (sum/max = logical or,
 *    prod/min = logical and); owReduceAvg is declined (owInvalidValue) for integral types;
 *  - ranks issue collectives in the same order; a rank whose arguments differ from another's
 *    (count, dtype, root, op) makes the operation fail on every rank with a message naming both;
 *  - a failure while the operation runs (a peer that died, a timeout, a mismatch) is reported
 *    by the next synchronisation of the stream (owError, message via the device seam's
 *    lastError), within the communicator's timeout; a failed communicator fails every later
 *    operation at once (it is aborted, as NCCL's are) and must be destroyed;
 *  - send/recv between groupStart and groupEnd (calling thread) progress together, so a group
 *    may hold sends and receives in any order without deadlock; outside a group each is a
 *    group of one. Messages between two ranks arrive in the order they were sent. */
#ifndef OPWEAVE_COLLECTIVE_SEAM_H_
#define OPWEAVE_COLLECTIVE_SEAM_H_

#include <diopi/diopirt.h>
#include <stddef.h>
#include <stdint.h>

#include "opweave/vendor_seam.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OW_COLLECTIVES_VERSION 1
#define OW_COMM_UNIQUE_ID_BYTES 128

typedef struct owComm_* owComm_t; /* opaque, vendor-defined */

/* Made by rank 0 (getUniqueId), copied byte for byte to every rank of the group. */
typedef struct owCommUniqueId {
  char bytes[OW_COMM_UNIQUE_ID_BYTES];
} owCommUniqueId;

typedef enum {
  owReduceSum = 0,
  owReduceProd = 1,
  owReduceMin = 2,
  owReduceMax = 3,
  owReduceAvg = 4,
} owReduceOp;

/* Where the vendor's transport reaches. */
typedef enum {
  owCommScopeHost = 0,    /* ranks must share one host (shared memory, a local fabric) */
  owCommScopeNetwork = 1, /* ranks may be on any host */
} owCommScope;

typedef struct owCollectiveSeam {
  uint32_t version;     /* OW_COLLECTIVES_VERSION the vendor was built against */
  uint32_t struct_size; /* sizeof(owCollectiveSeam) in the vendor's build */
  owCommScope scope;

  owStatus (*getUniqueId)(owCommUniqueId* id);
  /* Collective over the `nranks` processes holding the same id; blocks until all joined or
   * `timeout_ms` passed. `timeout_ms` also bounds every later wait of the communicator. */
  owStatus (*commInitRank)(owComm_t* comm, int nranks, const owCommUniqueId* id, int rank,
                           int device, int64_t timeout_ms);
  /* Waits for the communicator's pending work, then frees it (no collective). */
  owStatus (*commDestroy)(owComm_t comm);

  owStatus (*allReduce)(const void* send, void* recv, size_t count, diopiDtype_t dtype,
                        owReduceOp op, owComm_t comm, owStream_t stream);
  owStatus (*broadcast)(const void* send, void* recv, size_t count, diopiDtype_t dtype, int root,
                        owComm_t comm, owStream_t stream);
  /* Only the root's `recv` is written. */
  owStatus (*reduce)(const void* send, void* recv, size_t count, diopiDtype_t dtype, owReduceOp op,
                     int root, owComm_t comm, owStream_t stream);
  /* Rank r's `sendcount` elements land at recv + displs[r]; recvcounts[r] must equal rank r's
   * sendcount (equal sizes: all the same). `send` must not overlap `recv`. */
  owStatus (*allGatherV)(const void* send, size_t sendcount, void* recv, const size_t* recvcounts,
                         const size_t* displs, diopiDtype_t dtype, owComm_t comm,
                         owStream_t stream);
  /* `send` holds nranks * recvcount elements; rank r receives the reduction of block r. */
  owStatus (*reduceScatter)(const void* send, void* recv, size_t recvcount, diopiDtype_t dtype,
                            owReduceOp op, owComm_t comm, owStream_t stream);
  /* Block j of `send` (sendcounts[j] elements at sdispls[j]) goes to rank j, where it lands at
   * its rdispls[me]; recvcounts[j] must equal rank j's sendcounts[me]. No overlap. */
  owStatus (*allToAllV)(const void* send, const size_t* sendcounts, const size_t* sdispls,
                        void* recv, const size_t* recvcounts, const size_t* rdispls,
                        diopiDtype_t dtype, owComm_t comm, owStream_t stream);
  owStatus (*send)(const void* buf, size_t count, diopiDtype_t dtype, int peer, owComm_t comm,
                   owStream_t stream);
  owStatus (*recv)(void* buf, size_t count, diopiDtype_t dtype, int peer, owComm_t comm,
                   owStream_t stream);
  owStatus (*groupStart)(void);
  owStatus (*groupEnd)(void);
  owStatus (*barrier)(owComm_t comm, owStream_t stream);
} owCollectiveSeam;

typedef const owCollectiveSeam* (*owGetVendorCollectivesFn)(void);
const owCollectiveSeam* owGetVendorCollectives(void);

#ifdef __cplusplus
}
#endif

#endif /* OPWEAVE_COLLECTIVE_SEAM_H_ */
