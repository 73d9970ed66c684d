// The formats of a recording's tracepoint events (kmem:kmalloc,
// sched:sched_switch, a probe_libc:malloc uprobe...), read from the tracing
// data perf record stores (the HEADER_TRACING_DATA feature in file mode, a
// HEADER_TRACING_DATA record's payload in pipe mode), and the values of their
// fields in a sample's raw data (PERF_SAMPLE_RAW).
//
// A tracepoint's perf_event_attr holds its event id in `config`; the tracing
// data gives, for each id, the layout of the raw data the kernel writes:
//   field:unsigned long call_site;	offset:8;	size:8;	signed:0;
//   field:char prev_comm[16];	offset:8;	size:16;	signed:1;
//   field:__data_loc char[] filename;	offset:8;	size:4;	signed:1;
#ifndef FLAMEFOLD_PERFDATA_TRACEPOINT_FORMATS_H_
#define FLAMEFOLD_PERFDATA_TRACEPOINT_FORMATS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flamefold {

/// One field of a tracepoint's raw data.
struct TracepointField {
  std::string name;  // "bytes_alloc", "prev_comm", "common_pid"
  std::string type;  // as the format declares it: "size_t", "char[16]"
  uint32_t offset = 0, size = 0;  // in the raw data
  bool is_signed = false;
  bool array = false;     // "char prev_comm[16]", or a __data_loc
  bool data_loc = false;  // "__data_loc char[] name": a u32 (size << 16 | offset)

  /// An integer of 1, 2, 4 or 8 bytes, as the raw data holds it in place.
  bool integer() const {
    return !array && (size == 1 || size == 2 || size == 4 || size == 8);
  }
  /// The kernel's own fields ("common_type", "common_pid"...), which perf
  /// script does not print.
  bool common() const { return name.starts_with("common_"); }
};

/// One event's format.
struct TracepointFormat {
  uint64_t id = 0;     // the attr's config
  std::string system;  // "kmem"
  std::string name;    // "kmalloc"
  std::vector<TracepointField> fields;  // the common ones first
  /// What follows "print fmt: ": the format string and its arguments.
  std::string print_fmt;

  /// The field called `field_name`; nullptr when there is none.
  const TracepointField* Field(std::string_view field_name) const;
  /// The names of the fields perf script prints, ", "-separated.
  std::string FieldNames() const;
};

/// The formats in a recording's tracing data, by event id.
class TracepointFormats {
 public:
  /// Reads the tracing data `bytes` (found at `offset` in the input, for
  /// messages): its header, then every event format. False with `*err`
  /// ("offset N: what") when a length runs past the data or a format does
  /// not read as one; the formats read before the damage are kept.
  bool Read(std::string_view bytes, uint64_t offset, std::string* err);
  /// Adds one event format, the text of a format file of `system`
  /// ("name: kmalloc\nID: 553\nformat:\n\tfield:..."). False with `*err`
  /// (what is wrong, and the line) when it is not one.
  bool AddFormat(std::string_view system, std::string_view text,
                 std::string* err);

  /// The format of event `id`; nullptr when the data has none.
  const TracepointFormat* Find(uint64_t id) const;
  const std::vector<TracepointFormat>& formats() const { return formats_; }
  /// Whether the raw data is in the other byte order than this machine's.
  bool swapped() const { return swapped_; }

 private:
  std::vector<TracepointFormat> formats_;
  bool swapped_ = false;
};

/// The value of the integer field `f` in `raw`, a sample's raw data in the
/// byte order `swapped` says, sign-extended to 64 bits when the field is
/// signed. None when `f` is no integer or lies past the end of `raw`.
std::optional<uint64_t> ReadIntegerField(const TracepointField& f,
                                         std::string_view raw, bool swapped);

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_TRACEPOINT_FORMATS_H_
