// Loads the vendor library once, when libopweave.so is loaded, and resolves the DIOPI slots.
//
// Failure is recorded, never thrown from here (a throw during dlopen would abort the process);
// the first device operation then raises it as a c10::Error and opweave.report() shows it.
#include <c10/util/Exception.h>
#include <dlfcn.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>

#include "opweave/adaptor.h"
#include "opweave/diopi_slots.h"
#include "opweave/vendor.h"

namespace opweave {

const owVendorSeam* g_seam = nullptr;
void* g_diopi_slots[kDiopiSlotArraySize] = {};
const char* const kDiopiFnNames[kDiopiSlotArraySize] = {
#if __has_include("aten/diopi_functions.inc")
#define OPWEAVE_DIOPI_FN(name) #name,
#include "aten/diopi_functions.inc"
#undef OPWEAVE_DIOPI_FN
#endif
};

namespace {

VendorInfo g_info;

std::string own_directory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&own_directory), &info) == 0 || info.dli_fname == nullptr) {
    return ".";
  }
  std::string path = info.dli_fname;
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// The seam fields every vendor must provide (optional capabilities may be NULL).
const char* first_missing_required(const owVendorSeam& s) {
#define OW_REQUIRE(field) \
  if (s.field == nullptr) return #field
  OW_REQUIRE(deviceCount);
  OW_REQUIRE(setDevice);
  OW_REQUIRE(getDevice);
  OW_REQUIRE(deviceSynchronize);
  OW_REQUIRE(malloc);
  OW_REQUIRE(free);
  OW_REQUIRE(memsetAsync);
  OW_REQUIRE(memcpyAsync);
  OW_REQUIRE(streamCreate);
  OW_REQUIRE(streamDestroy);
  OW_REQUIRE(streamSynchronize);
  OW_REQUIRE(streamQuery);
  OW_REQUIRE(eventCreate);
  OW_REQUIRE(eventDestroy);
  OW_REQUIRE(eventRecord);
  OW_REQUIRE(streamWaitEvent);
  OW_REQUIRE(eventQuery);
  OW_REQUIRE(eventSynchronize);
  OW_REQUIRE(eventElapsedTime);
  OW_REQUIRE(lastError);
#undef OW_REQUIRE
  return nullptr;
}

// Resolves each catalogue function in the vendor library itself: a symbol found in one of its
// dependencies (libopweave, libtorch) is not the vendor's kernel.
void resolve_slots(void* handle) {
  Dl_info self{};
  dladdr(static_cast<const void*>(g_seam), &self);
  for (int i = 0; i < kDiopiFnCount; ++i) {
    void* sym = dlsym(handle, kDiopiFnNames[i]);
    Dl_info where{};
    if (sym != nullptr && dladdr(sym, &where) != 0 && where.dli_fbase != self.dli_fbase) {
      sym = nullptr;
    }
    g_diopi_slots[i] = sym;
  }
}

// The optional collective seam: every function present, or the vendor has none.
void resolve_collectives(void* handle) {
  auto get = reinterpret_cast<owGetVendorCollectivesFn>(dlsym(handle, "owGetVendorCollectives"));
  if (get == nullptr) return;
  const owCollectiveSeam* c = get();
  if (c == nullptr || c->version != OW_COLLECTIVES_VERSION ||
      c->struct_size < sizeof(owCollectiveSeam)) {
    g_info.collectives_error = "collective seam version " + std::to_string(c ? c->version : 0) +
                               ", expected " + std::to_string(OW_COLLECTIVES_VERSION);
    return;
  }
  const void* fns[] = {reinterpret_cast<const void*>(c->getUniqueId),
                       reinterpret_cast<const void*>(c->commInitRank),
                       reinterpret_cast<const void*>(c->commDestroy),
                       reinterpret_cast<const void*>(c->allReduce),
                       reinterpret_cast<const void*>(c->broadcast),
                       reinterpret_cast<const void*>(c->reduce),
                       reinterpret_cast<const void*>(c->allGatherV),
                       reinterpret_cast<const void*>(c->reduceScatter),
                       reinterpret_cast<const void*>(c->allToAllV),
                       reinterpret_cast<const void*>(c->send),
                       reinterpret_cast<const void*>(c->recv),
                       reinterpret_cast<const void*>(c->groupStart),
                       reinterpret_cast<const void*>(c->groupEnd),
                       reinterpret_cast<const void*>(c->barrier)};
  for (const void* fn : fns) {
    if (fn == nullptr) {
      g_info.collectives_error = "collective seam lacks a function (all are required)";
      return;
    }
  }
  g_info.collectives = c;
}

void load_vendor() {
  const char* env = std::getenv("OPWEAVE_VENDOR");
  const std::string requested = (env != nullptr && *env != '\0') ? env : "sim";
  g_info.name = requested;
  g_info.library = requested.find('/') != std::string::npos
                       ? requested
                       : own_directory() + "/libopweave_vendor_" + requested + ".so";
  void* handle = dlopen(g_info.library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* err = dlerror();
    g_info.load_error = "cannot load vendor '" + requested + "': " + (err ? err : "dlopen failed") +
                        " (set OPWEAVE_VENDOR to an installed vendor)";
    return;
  }
  auto get_seam = reinterpret_cast<owGetVendorSeamFn>(dlsym(handle, "owGetVendorSeam"));
  if (get_seam == nullptr) {
    g_info.load_error = g_info.library + " does not export owGetVendorSeam";
    return;
  }
  const owVendorSeam* s = get_seam();
  // A table that ends before `flags` comes from a vendor built before the field was added: the
  // same version, loaded as it is (flags 0), so a shipped binary keeps working.
  constexpr size_t kSizeBeforeFlags = offsetof(owVendorSeam, flags);
  if (s == nullptr || s->version != OW_SEAM_VERSION || s->struct_size < kSizeBeforeFlags) {
    g_info.load_error = g_info.library + ": seam version " + std::to_string(s ? s->version : 0) +
                        " / size " + std::to_string(s ? s->struct_size : 0) +
                        ", expected version " + std::to_string(OW_SEAM_VERSION) +
                        " / size >= " + std::to_string(kSizeBeforeFlags);
    return;
  }
  if (const char* missing = first_missing_required(*s)) {
    g_info.load_error = g_info.library + ": seam lacks required function '" + missing + "'";
    return;
  }
  int count = 0;
  if (s->deviceCount(&count) != owSuccess || count < 0) {
    g_info.load_error = std::string("vendor deviceCount failed: ") + s->lastError();
    return;
  }
  g_info.name = s->name != nullptr ? s->name : requested;
  g_info.device_count = count < kMaxDevices ? count : kMaxDevices;
  g_info.flags = s->struct_size >= kSizeBeforeFlags + sizeof(s->flags) ? s->flags : 0;
  g_seam = s;
  resolve_slots(handle);
  install_adaptor(handle);  // after the slots: it moves restricted kernels behind thunks
  resolve_collectives(handle);
}

// Runs while libopweave.so is being loaded (before any op can be called).
[[maybe_unused]] const bool g_loaded = (load_vendor(), true);

}  // namespace

void throw_no_vendor() {
  TORCH_CHECK(false, "opweave: no device vendor loaded: ", g_info.load_error);
}

void check_seam(owStatus status, const char* what) {
  if (C10_LIKELY(status == owSuccess)) return;
  TORCH_CHECK(false, what, " failed (", g_info.name, " status ", static_cast<int>(status),
              "): ", g_seam != nullptr ? g_seam->lastError() : "");
}

const VendorInfo& vendor_info() { return g_info; }

int device_count() noexcept { return g_info.device_count; }

int diopi_slot_index(const char* name) {
  for (int i = 0; i < kDiopiFnCount; ++i) {
    if (std::strcmp(kDiopiFnNames[i], name) == 0) return i;
  }
  return -1;
}

}  // namespace opweave
