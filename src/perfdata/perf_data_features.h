// Readers of the feature sections of a perf.data header, one per kind of
// section perf writes (HOSTNAME, CMDLINE, BUILD_ID, EVENT_DESC...), each
// on the bytes of one section. File mode finds the sections after the data;
// pipe mode sends each in a HEADER_FEATURE record.
//
// Every length is checked against the section's bytes. What a malformed
// section holds before the damage is kept: those sections are only
// reported, except the event descriptions, which name the events, and
// whose damage is an error.
#ifndef FLAMEFOLD_PERFDATA_PERF_DATA_FEATURES_H_
#define FLAMEFOLD_PERFDATA_PERF_DATA_FEATURES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfdata/perf_data.h"

namespace flamefold {

/// The largest perf_event_attr accepted (in the attr section or an event
/// description): a size above it is corruption, not a newer kernel.
constexpr uint64_t kMaxPerfAttrSize = 4096;

/// The bytes of one feature section.
struct FeatureSection {
  std::string_view bytes;
  uint64_t offset = 0;   // of bytes[0] in the input, for messages
  bool swapped = false;  // written on a machine of the other byte order
};

/// A string section (HOSTNAME, OSRELEASE, VERSION, ARCH): a u32 length,
/// then that many bytes, NUL-padded ("6.1.0-18-amd64\0\0"). False, `*out`
/// untouched, when the section is shorter than its length says.
bool ReadFeatureString(const FeatureSection& sec, std::string* out);

/// CMDLINE: a u32 count, then that many strings as above ("perf",
/// "record", "-g", ...). Appends those that are whole.
void ReadFeatureStrings(const FeatureSection& sec,
                        std::vector<std::string>* out);

/// BUILD_ID: records of { u32 type, u16 misc, u16 size, s32 pid, u8
/// build_id[24], char filename[] }; the build id is 20 bytes, or as many as
/// build_id[20] says when misc has bit 15. Appends the records up to the
/// first one cut short or too small.
void ReadFeatureBuildIds(const FeatureSection& sec,
                         std::vector<PerfDataInfo::BuildId>* out);

/// One event of EVENT_DESC: its name ("cycles:u", "sched:sched_switch")
/// and the first of its sample ids, which tells the attr it names.
struct EventDescription {
  std::string name;
  std::optional<uint64_t> first_id;  // none: the event has no ids
};

/// EVENT_DESC: u32 count, u32 attr size, then per event its attr, u32
/// number of ids, its name (as a string section) and its u64 ids. A
/// section without its two counts holds no event. False with `*err`
/// ("offset N: what", N in the input) when the attr size is out of range or
/// an event is cut short.
bool ReadFeatureEventDescriptions(const FeatureSection& sec,
                                  std::vector<EventDescription>* out,
                                  std::string* err);

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_PERF_DATA_FEATURES_H_
