// OwnVdso: this process's vDSO as a file, which perf script reads for a
// recording's [vdso] when the recording has no build id for it.
//
// perf (6.1, util/vdso.c) makes the [vdso] DSO of a recording from a copy
// of its own vDSO (/tmp/perf-vdso.so-XXXXXX) unless the recording's build-id
// table named [vdso] first; that table is missing from recordings made with
// `perf record -z` or `-B`. On the host that recorded, the vDSO is the same
// image, so its symbols name the frames ("__vdso_gettimeofday").
#ifndef FLAMEFOLD_SYMBOLS_OWN_VDSO_H_
#define FLAMEFOLD_SYMBOLS_OWN_VDSO_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace flamefold {

/// A path that opens a copy of this process's vDSO image (an anonymous
/// in-memory file, /proc/self/fd/N, kept open until exit), made on the
/// first call; "" where there is no vDSO or no such file can be made.
/// Safe to call from several threads.
const std::string& OwnVdsoFile();

/// The address range of the mapping named `name` ("[vdso]") in the text of
/// /proc/self/maps ("7ffd1c5f2000-7ffd1c5f4000 r-xp 00000000 00:00 0
/// [vdso]"); false when no line names it.
bool FindMapping(std::string_view maps, std::string_view name,
                 uint64_t* start, uint64_t* end);

}  // namespace flamefold

#endif  // FLAMEFOLD_SYMBOLS_OWN_VDSO_H_
