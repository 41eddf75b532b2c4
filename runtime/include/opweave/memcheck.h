// The device memory checker (after DIPU's memory check): records every device allocation of
// the caching allocator with the C++ and Python stacks that made it, and reports the memory
// still held by live allocations (not the allocator's cached free blocks), grouped by
// allocation site, plus double frees and frees of foreign pointers on the raw entry points
// (raw_delete / opweave.caching_allocator_delete).
//
// On with OPWEAVE_MEMCHECK=1 (read once when libopweave loads; the report is then printed to
// stderr at exit) or set_enabled(true) / opweave.memcheck.enable() at any time; allocations
// made while it was off are not tracked. Off, the allocator pays one relaxed flag load per
// allocate and per free, nothing else.
#ifndef OPWEAVE_MEMCHECK_H_
#define OPWEAVE_MEMCHECK_H_

#include <cstdint>
#include <string>

namespace opweave {
namespace memcheck {

// Off forgets the live records (their frees would go unseen while off); errors are kept.
void set_enabled(bool on);
bool enabled() noexcept;

// Sequence number of the last tracked allocation or free error: a snapshot marker for
// report_*(since).
int64_t sequence() noexcept;

// Live tracked allocations with a sequence number above `since`, grouped by stack, and the
// errors found since then: JSON ({"sites": [...], "errors": [...], ...}) or text for people.
// `when` is appended to the text's headline ("at exit").
std::string report_json(int64_t since);
std::string report_text(int64_t since, const std::string& when);

// The exit report has been printed (the Python package prints it while module globals are
// still alive); the library's own at-exit report, for programs without Python, then stays
// quiet.
void mark_exit_reported();

// Directories of library code (torch's, opweave's package), ':'-separated: the innermost
// Python frame outside them names an allocation site.
void set_library_dirs(const std::string& dirs);

}  // namespace memcheck
}  // namespace opweave

#endif  // OPWEAVE_MEMCHECK_H_
