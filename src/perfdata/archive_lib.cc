#include "perfdata/archive_lib.h"

#include <dlfcn.h>

namespace flamefold {

namespace {

constexpr const char* kSoname = "libarchive.so.13";

// The library and its functions, or why not: "" when loaded.
struct Loaded {
  ArchiveLib lib;
  std::string error;
};

Loaded Load() {
  Loaded out;
  void* handle = dlopen(kSoname, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    out.error = std::string("cannot load ") + kSoname +
                " (Debian: libarchive13), which reads perf archives: " +
                (why ? why : "unknown error");
    return out;
  }
#define FLAMEFOLD_ARCHIVE_RESOLVE(name)                              \
  out.lib.name =                                                     \
      reinterpret_cast<decltype(out.lib.name)>(dlsym(handle, #name)); \
  if (!out.lib.name && out.error.empty()) {                          \
    out.error = std::string(kSoname) + " lacks " + #name;            \
  }
  FLAMEFOLD_ARCHIVE_FUNCTIONS(FLAMEFOLD_ARCHIVE_RESOLVE)
#undef FLAMEFOLD_ARCHIVE_RESOLVE
  return out;
}

}  // namespace

const ArchiveLib* LoadArchiveLib(std::string* err) {
  static const Loaded loaded = Load();
  if (!loaded.error.empty()) {
    *err = loaded.error;
    return nullptr;
  }
  return &loaded.lib;
}

}  // namespace flamefold
