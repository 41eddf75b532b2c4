// Stack capture and symbolisation for the device memory checker.
//
// C++: backtrace() return addresses, symbolised lazily (a report, an error) with dladdr and,
// for functions a library does not export (anonymous-namespace wrappers, static helpers), the
// library's own ELF symbol table when it was not stripped.
//
// Python: libopweave does not link libpython (C++ programs and tests load it without Python),
// so the few CPython functions used are looked up in the process with dlsym. They exist in
// every CPython >= 3.9 (Debian 12: 3.11, Debian 13: 3.13). Each code object seen is interned
// once (file, qualified name) and kept alive, so a frame costs an index and a line number and a
// recycled code address can never be mistaken for another function.
#include "device/memcheck_stack.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace opweave {
namespace memcheck {
namespace {

// ---- Python -------------------------------------------------------------------------------

struct PyApi {
  int (*IsInitialized)() = nullptr;
  void* (*GILState_GetThisThreadState)() = nullptr;
  int (*GILState_Ensure)() = nullptr;  // PyGILState_STATE is an int-sized enum
  void (*GILState_Release)(int) = nullptr;
  void* (*Eval_GetFrame)() = nullptr;
  void* (*Frame_GetBack)(void*) = nullptr;  // new reference
  void* (*Frame_GetCode)(void*) = nullptr;  // new reference
  int (*Frame_GetLineNumber)(void*) = nullptr;
  void* (*Object_GetAttrString)(void*, const char*) = nullptr;
  const char* (*Unicode_AsUTF8)(void*) = nullptr;
  void (*IncRef)(void*) = nullptr;
  void (*DecRef)(void*) = nullptr;
  void (*Err_Clear)() = nullptr;
  bool ok = false;
};

template <typename F>
bool resolve(F& fn, const char* name) {
  fn = reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
  return fn != nullptr;
}

const PyApi& py_api() {
  static const PyApi api = [] {
    PyApi a;
    a.ok = resolve(a.IsInitialized, "Py_IsInitialized") &&
           resolve(a.GILState_GetThisThreadState, "PyGILState_GetThisThreadState") &&
           resolve(a.GILState_Ensure, "PyGILState_Ensure") &&
           resolve(a.GILState_Release, "PyGILState_Release") &&
           resolve(a.Eval_GetFrame, "PyEval_GetFrame") &&
           resolve(a.Frame_GetBack, "PyFrame_GetBack") &&
           resolve(a.Frame_GetCode, "PyFrame_GetCode") &&
           resolve(a.Frame_GetLineNumber, "PyFrame_GetLineNumber") &&
           resolve(a.Object_GetAttrString, "PyObject_GetAttrString") &&
           resolve(a.Unicode_AsUTF8, "PyUnicode_AsUTF8") && resolve(a.IncRef, "Py_IncRef") &&
           resolve(a.DecRef, "Py_DecRef") && resolve(a.Err_Clear, "PyErr_Clear");
    return a;
  }();
  return api;
}

struct CodeTable {
  std::mutex mu;
  std::unordered_map<void*, int32_t> ids;
  std::vector<CodeInfo> infos;
};
CodeTable& codes() {
  static CodeTable* t = new CodeTable();  // leaked: read by the report at exit
  return *t;
}

std::string str_attr(const PyApi& py, void* obj, const char* name) {
  void* v = py.Object_GetAttrString(obj, name);
  if (v == nullptr) {
    py.Err_Clear();
    return "";
  }
  const char* s = py.Unicode_AsUTF8(v);
  std::string out = s ? s : "";
  if (s == nullptr) py.Err_Clear();
  py.DecRef(v);
  return out;
}

// Caller holds the GIL.
int32_t intern_code(const PyApi& py, void* code) {
  CodeTable& t = codes();
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.ids.find(code);
  if (it != t.ids.end()) return it->second;
  CodeInfo info{str_attr(py, code, "co_filename"), str_attr(py, code, "co_qualname")};
  if (info.function.empty()) info.function = str_attr(py, code, "co_name");  // Python < 3.11
  py.IncRef(code);  // kept: the id stays this function's for the life of the process
  const auto id = static_cast<int32_t>(t.infos.size());
  t.infos.push_back(std::move(info));
  t.ids.emplace(code, id);
  return id;
}

void capture_python(std::vector<PyFrame>& out) {
  const PyApi& py = py_api();
  // A thread that never ran Python (autograd's device threads, vendor workers) has no Python
  // stack: leave it alone rather than create interpreter state for it.
  if (!py.ok || !py.IsInitialized() || py.GILState_GetThisThreadState() == nullptr) return;
  const int gil = py.GILState_Ensure();
  void* f = py.Eval_GetFrame();  // borrowed
  if (f != nullptr) py.IncRef(f);
  while (f != nullptr && out.size() < static_cast<size_t>(kMaxPyFrames)) {
    void* code = py.Frame_GetCode(f);
    out.push_back(PyFrame{intern_code(py, code), py.Frame_GetLineNumber(f)});
    py.DecRef(code);
    void* back = py.Frame_GetBack(f);
    py.DecRef(f);
    f = back;
  }
  if (f != nullptr) py.DecRef(f);
  py.GILState_Release(gil);
}

// ---- C++ symbols --------------------------------------------------------------------------

// The function symbols of one object file's .symtab (absent when stripped), sorted by address.
struct SymbolTable {
  bool absolute = false;  // an ET_EXEC executable: symbol values are addresses, not offsets
  struct Sym {
    uint64_t start, size;
    std::string name;
  };
  std::vector<Sym> syms;

  const std::string* find(uint64_t offset) const {
    auto it = std::upper_bound(syms.begin(), syms.end(), offset,
                               [](uint64_t off, const Sym& s) { return off < s.start; });
    if (it == syms.begin()) return nullptr;
    --it;
    return offset < it->start + it->size ? &it->name : nullptr;
  }
};

void read_symtab(const char* path, SymbolTable& table) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st {};
  void* map = MAP_FAILED;
  if (::fstat(fd, &st) == 0 && st.st_size > static_cast<off_t>(sizeof(Elf64_Ehdr))) {
    map = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  }
  ::close(fd);
  if (map == MAP_FAILED) return;
  const auto* base = static_cast<const unsigned char*>(map);
  const auto size = static_cast<uint64_t>(st.st_size);
  const auto* eh = reinterpret_cast<const Elf64_Ehdr*>(base);
  auto in_file = [&](uint64_t off, uint64_t len) { return off <= size && len <= size - off; };
  if (std::memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_ident[EI_CLASS] == ELFCLASS64 &&
      eh->e_shentsize == sizeof(Elf64_Shdr) &&
      in_file(eh->e_shoff, uint64_t{eh->e_shnum} * sizeof(Elf64_Shdr))) {
    table.absolute = eh->e_type == ET_EXEC;
    const auto* sh = reinterpret_cast<const Elf64_Shdr*>(base + eh->e_shoff);
    for (int i = 0; i < eh->e_shnum; ++i) {
      if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum) continue;
      const Elf64_Shdr& strs = sh[sh[i].sh_link];
      if (!in_file(sh[i].sh_offset, sh[i].sh_size) || !in_file(strs.sh_offset, strs.sh_size)) {
        continue;
      }
      const auto* sym = reinterpret_cast<const Elf64_Sym*>(base + sh[i].sh_offset);
      const char* names = reinterpret_cast<const char*>(base + strs.sh_offset);
      for (uint64_t k = 0; k < sh[i].sh_size / sizeof(Elf64_Sym); ++k) {
        if (ELF64_ST_TYPE(sym[k].st_info) != STT_FUNC || sym[k].st_value == 0 ||
            sym[k].st_name >= strs.sh_size) {
          continue;
        }
        const char* name = names + sym[k].st_name;
        table.syms.push_back({sym[k].st_value, sym[k].st_size,
                              std::string(name, strnlen(name, strs.sh_size - sym[k].st_name))});
      }
    }
  }
  ::munmap(map, static_cast<size_t>(st.st_size));
  std::sort(table.syms.begin(), table.syms.end(),
            [](const SymbolTable::Sym& a, const SymbolTable::Sym& b) { return a.start < b.start; });
}

// Template argument lists longer than this read as "<...>": a dispatcher kernel wrapper's
// arguments run to a thousand characters.
constexpr size_t kLongTemplateArgs = 48;

// Collapses long template argument lists. The one thing worth keeping from them, the function
// a c10 kernel wrapper calls (a `&function` template argument), is appended as "(kernel ...)".
std::string collapse_templates(const std::string& name) {
  std::string out, kernel;
  size_t i = 0;
  while (i < name.size()) {
    const bool is_operator = out.size() >= 8 && out.compare(out.size() - 8, 8, "operator") == 0;
    if (name[i] != '<' || is_operator) {
      out += name[i++];
      continue;
    }
    int depth = 0;
    size_t j = i;
    for (; j < name.size(); ++j) {
      if (name[j] == '<') ++depth;
      if (name[j] == '>' && --depth == 0) break;
    }
    if (j == name.size()) return out + name.substr(i);  // unbalanced: leave as is
    const std::string args = name.substr(i, j - i + 1);
    if (args.size() <= kLongTemplateArgs) {
      out += args;
    } else {
      out += "<...>";
      const size_t amp = args.rfind(", &");
      if (amp != std::string::npos) {
        const size_t end = args.find_first_of(",>", amp + 3);
        kernel = args.substr(amp + 3, end - amp - 3);
      }
    }
    i = j + 1;
  }
  return kernel.empty() ? out : out + " (kernel " + kernel + ")";
}

// Demangled, without the argument list ("at::_ops::add_Tensor::call", not its six lines of
// parameter types) and long template arguments.
std::string pretty(const char* mangled) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> d(
      abi::__cxa_demangle(mangled, nullptr, nullptr, &status), &std::free);
  std::string name = status == 0 && d ? d.get() : mangled;
  if (status != 0) return name;  // a C symbol
  // Drop the trailing "(args)" (and " const"): find its opening parenthesis by nesting.
  size_t end = name.size();
  if (name.compare(end >= 6 ? end - 6 : 0, 6, " const") == 0) end -= 6;
  if (end > 0 && name[end - 1] == ')') {
    int depth = 0;
    for (size_t i = end; i-- > 0;) {
      if (name[i] == ')') ++depth;
      if (name[i] == '(' && --depth == 0) {
        name.resize(i);
        break;
      }
    }
  }
  return collapse_templates(name);
}

const char* basename_of(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

struct SymbolCache {
  std::mutex mu;
  std::unordered_map<void*, CppFrame> frames;
  std::map<std::string, SymbolTable> tables;
};
SymbolCache& symbols() {
  static SymbolCache* c = new SymbolCache();
  return *c;
}

CppFrame symbolize(SymbolCache& cache, void* pc) {
  // A return address points after the call: look up the byte before it.
  const auto addr = reinterpret_cast<uintptr_t>(pc) - 1;
  Dl_info info{};
  char buf[64];
  if (dladdr(reinterpret_cast<void*>(addr), &info) == 0 || info.dli_fname == nullptr) {
    std::snprintf(buf, sizeof buf, "?? %p", pc);
    return {buf, false, false};
  }
  const char* object = basename_of(info.dli_fname);
  const bool interpreter =
      std::strncmp(object, "python", 6) == 0 || std::strncmp(object, "libpython", 9) == 0;
  std::string name;
  if (info.dli_sname != nullptr) {
    name = pretty(info.dli_sname);
  } else {
    auto it = cache.tables.find(info.dli_fname);
    if (it == cache.tables.end()) {
      it = cache.tables.emplace(info.dli_fname, SymbolTable{}).first;
      read_symtab(info.dli_fname, it->second);
    }
    const SymbolTable& table = it->second;
    const std::string* sym =
        table.find(table.absolute ? addr : addr - reinterpret_cast<uintptr_t>(info.dli_fbase));
    if (sym != nullptr) name = pretty(sym->c_str());
  }
  if (name.empty()) {
    std::snprintf(buf, sizeof buf, "+0x%zx",
                  static_cast<size_t>(addr - reinterpret_cast<uintptr_t>(info.dli_fbase)));
    return {object + std::string(buf), false, interpreter};
  }
  return {name + " [" + object + "]", true, interpreter};
}

}  // namespace

size_t Trace::hash() const {
  size_t h = cpp.size() * 31 + py.size();
  for (void* pc : cpp) h = h * 1000003 ^ std::hash<void*>()(pc);
  for (const PyFrame& f : py) h = (h * 1000003 ^ static_cast<size_t>(f.code)) * 31 + f.line;
  return h;
}

__attribute__((noinline)) Trace capture(int skip, const void* from) {
  Trace t;
  void* pcs[kMaxCppFrames + 8];
  const int n = backtrace(pcs, kMaxCppFrames + 8);
  int first = std::min(n, skip + 1);  // + capture itself
  for (int i = 0; from != nullptr && i < n; ++i) {
    if (pcs[i] == from) {
      first = i;
      break;
    }
  }
  t.cpp.assign(pcs + first, pcs + std::min(n, first + kMaxCppFrames));
  capture_python(t.py);
  return t;
}

CodeInfo code_info(int32_t code) {
  CodeTable& t = codes();
  std::lock_guard<std::mutex> lock(t.mu);
  if (code < 0 || static_cast<size_t>(code) >= t.infos.size()) return {"?", "?"};
  return t.infos[static_cast<size_t>(code)];
}

CppFrame cpp_frame(void* pc) {
  SymbolCache& c = symbols();
  std::lock_guard<std::mutex> lock(c.mu);
  auto it = c.frames.find(pc);
  if (it == c.frames.end()) it = c.frames.emplace(pc, symbolize(c, pc)).first;
  return it->second;
}

}  // namespace memcheck
}  // namespace opweave
