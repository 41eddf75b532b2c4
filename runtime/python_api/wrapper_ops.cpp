// Custom ops exposing the wrapper switches to Python (opweave/instrument.py wraps them).
#include <torch/library.h>

#include <sstream>

#include "opweave/op_registry.h"
#include "opweave/referee.h"

namespace {

void set_fallback_ops(std::string regex) { opweave::set_fallback_ops(regex); }
void set_dump(int64_t level, std::string regex) {
  opweave::set_dump(static_cast<int>(level), regex);
}
void set_autocompare(bool enabled, std::string regex) { opweave::set_autocompare(enabled, regex); }
void set_profile_names(bool enabled) { opweave::set_profile_names(enabled); }
void set_autocompare_reference(std::string mode) { opweave::set_reference_mode(mode); }
std::string autocompare_reference() { return opweave::reference_mode(); }

bool autocompare_built() {
#ifdef OPWEAVE_AUTOCOMPARE
  return true;
#else
  return false;
#endif
}

// JSON list of {aten, diopi, native, forced}: which routed ATen ops run on the device.
std::string op_table() {
  std::ostringstream os;
  os << '[';
  bool first = true;
  for (const auto& s : opweave::op_statuses()) {
    os << (first ? "" : ",") << "{\"aten\":\"" << s.aten_name << "\",\"diopi\":\"" << s.diopi_name
       << "\",\"native\":" << (s.has_kernel ? "true" : "false")
       << ",\"forced\":" << (s.forced_fallback ? "true" : "false") << '}';
    first = false;
  }
  os << ']';
  return os.str();
}

}  // namespace

TORCH_LIBRARY_FRAGMENT(opweave, m) {
  m.def("set_fallback_ops(str regex) -> ()", &set_fallback_ops);
  m.def("set_dump(int level, str regex) -> ()", &set_dump);
  m.def("set_autocompare(bool enabled, str regex) -> ()", &set_autocompare);
  m.def("set_profile_names(bool enabled) -> ()", &set_profile_names);
  m.def("autocompare_built() -> bool", &autocompare_built);
  m.def("set_autocompare_reference(str mode) -> ()", &set_autocompare_reference);
  m.def("autocompare_reference() -> str", &autocompare_reference);
  m.def("op_table() -> str", &op_table);
}
