// Sim streams and events: one worker thread per stream runs its queue in order.
#ifndef OPWEAVE_SIM_STREAM_IMPL_H_
#define OPWEAVE_SIM_STREAM_IMPL_H_

#include "opweave/vendor_seam.h"

namespace sim {

owStatus stream_create(int device, owStream_t* stream);
owStatus stream_destroy(owStream_t stream);
owStatus stream_synchronize(owStream_t stream);
owStatus stream_query(owStream_t stream);
owStatus stream_begin_batch(owStream_t stream);
owStatus stream_end_batch(owStream_t stream);

owStatus event_create(owEvent_t* event);
owStatus event_destroy(owEvent_t event);
owStatus event_record(owEvent_t event, owStream_t stream);
owStatus stream_wait_event(owStream_t stream, owEvent_t event);
owStatus event_query(owEvent_t event);
owStatus event_synchronize(owEvent_t event);
owStatus event_elapsed_time(float* ms, owEvent_t start, owEvent_t end);

}  // namespace sim

#endif  // OPWEAVE_SIM_STREAM_IMPL_H_
