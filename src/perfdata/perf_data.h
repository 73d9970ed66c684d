// PerfDataReader: the records of a perf.data file, in either byte order,
// in file mode (perf record -o FILE) or pipe mode (perf record -o -).
//
// Every length and offset is checked against the bytes that are really
// there before it is used; errors name the byte offset where the bad value
// was read ("perf.data: offset 4136: record size 4 is less than 8"). A file
// that ends inside a record (perf killed while writing) is not an error: the
// records before the cut are delivered and truncated() says what was lost.
#ifndef FLAMEFOLD_PERFDATA_PERF_DATA_H_
#define FLAMEFOLD_PERFDATA_PERF_DATA_H_

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/byte_source.h"

namespace flamefold {

/// One perf_event_attr with the sample ids that belong to it.
struct PerfAttr {
  uint32_t type = 0;
  uint64_t config = 0;
  uint64_t sample_period = 0;
  uint64_t sample_type = 0;
  uint64_t read_format = 0;
  uint64_t flags = 0;  // the bit field word, bit 0 = disabled
  uint64_t branch_sample_type = 0;
  uint64_t sample_regs_user = 0;
  uint64_t sample_regs_intr = 0;
  std::vector<uint64_t> ids;
  std::string name;  // as perf prints it; from the event description

  bool flag(int bit) const { return (flags >> bit) & 1; }
  bool sample_id_all() const;
  int precise_ip() const { return static_cast<int>((flags >> 15) & 3); }
};

/// The name perf gives an event it has no description for ("cycles",
/// "cpu-clock:u", "raw 0x1c2"...), built from the attr alone.
std::string DefaultEventName(const PerfAttr& attr);

/// What the header and feature sections say.
struct PerfDataInfo {
  bool pipe = false;
  bool swapped = false;  // written on a machine of the other byte order
  std::vector<PerfAttr> attrs;
  /// How many times `attrs` changed after the header (an event added or
  /// renamed by a pipe-mode record), for copies of them to notice.
  uint64_t attrs_changes = 0;
  std::string hostname, os_release, perf_version, arch;
  std::vector<std::string> cmdline;
  struct BuildId {
    int32_t pid = 0;
    std::string build_id;  // raw bytes
    std::string filename;
  };
  std::vector<BuildId> build_ids;
  /// The first and last sample times in ns (SAMPLE_TIME; 0: not written,
  /// as in pipe mode).
  uint64_t first_sample_time = 0, last_sample_time = 0;
};

/// One record, without its 8-byte header. `body` is valid only during the
/// visitor call, unless `stable`: then it stays valid as long as the reader.
struct PerfRecord {
  uint32_t type = 0;
  uint16_t misc = 0;
  std::string_view body;
  uint64_t offset = 0;  // of the record header in the (decompressed) stream
  bool stable = false;  // `body` stays readable for the reader's lifetime
  /// The record's attr, once PerfDataReader::AttrOf found it (kNoAttr: not
  /// yet): a record carries it to the thread that parses it, where AttrOf
  /// then reads it instead of its cache.
  static constexpr uint32_t kNoAttr = UINT32_MAX;
  uint32_t attr = kNoAttr;
};

/// The fields of a sample or of a sample_id_all trailer that we use.
struct PerfSample {
  size_t attr = 0;  // index into PerfDataInfo::attrs
  uint64_t ip = 0;
  uint32_t pid = UINT32_MAX, tid = UINT32_MAX;  // UINT32_MAX: absent (-1)
  uint64_t time = UINT64_MAX;  // UINT64_MAX: no time
  uint64_t id = 0;
  uint32_t cpu = UINT32_MAX;
  uint64_t period = 0;
  std::vector<uint64_t> callchain;  // with the PERF_CONTEXT_* markers
  bool has_callchain = false;
  // --call-graph dwarf: the user registers (in the order of the attr's
  // sample_regs_user bits; empty when regs_abi is 0, e.g. a kernel thread)
  // and the copy of the user stack from the stack pointer up (a view into
  // the record, valid as long as its body).
  uint64_t regs_abi = 0;
  std::vector<uint64_t> user_regs;
  std::string_view user_stack;
  // PERF_SAMPLE_READ with PERF_FORMAT_ID: each counter's value and id (one
  // for a single read, one a group member for a group read), from which
  // perf script makes the samples' periods; empty otherwise.
  struct ReadValue {
    uint64_t value, id;
  };
  std::vector<ReadValue> read_values;
};

struct PerfMmap {
  uint32_t pid = 0, tid = 0;
  uint64_t start = 0, len = 0, pgoff = 0;
  uint32_t prot = 0, flags = 0;  // MMAP: PROT_EXEC unless a data mapping
  std::string filename;
  std::string build_id;  // MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID
};

struct PerfComm {
  uint32_t pid = 0, tid = 0;
  std::string comm;
  bool exec = false;
};

struct PerfFork {  // FORK and EXIT
  uint32_t pid = 0, ppid = 0, tid = 0, ptid = 0;
  uint64_t time = 0;
};

class PerfDataReader {
 public:
  class Visitor {
   public:
    virtual ~Visitor() = default;
    /// Called once the attributes are known (file mode: before the first
    /// record; pipe mode: at the first record that is not a header one).
    virtual bool OnHeader(const PerfDataInfo& info, std::string* err) = 0;
    /// Called for each data record other than those that only describe
    /// the file (attrs, features, ...). COMPRESSED records are opened and
    /// their content delivered record by record.
    virtual bool OnRecord(const PerfRecord& rec, std::string* err) = 0;
  };

  /// `name` prefixes error messages. `src` must outlive the reader.
  PerfDataReader(std::string name, ByteSource* src);
  /// Reads bytes already in memory (a mapped file), which must outlive the
  /// reader: file mode then needs no copy.
  PerfDataReader(std::string name, std::string_view bytes);
  ~PerfDataReader();

  /// For bytes in memory (a mapped file): `read_past(offset)` is called as
  /// the data section is read, every kReleaseStep bytes, with an offset
  /// kReleaseLag behind the record being read, so that the caller may give
  /// back the pages before it (records read before may still be held, and
  /// are then read from the file again): the memory held stays that of a
  /// few rounds of records, not of the recording.
  void SetReadPast(std::function<void(size_t offset)> read_past) {
    read_past_ = std::move(read_past);
  }
  static constexpr size_t kReleaseStep = 8u << 20;
  static constexpr size_t kReleaseLag = 32u << 20;

  /// Reads the whole input, calling `visitor`. False on an error (`*err`
  /// is "NAME: offset N: what"); a cut-short input is not an error.
  bool Read(Visitor* visitor, std::string* err);

  const PerfDataInfo& info() const { return info_; }
  /// Non-empty when the input ended inside a record or section: says what
  /// was lost, for a warning.
  const std::string& truncated() const { return truncated_; }

  /// Decodes a SAMPLE record laid out by its attr's sample_type.
  bool ParseSample(const PerfRecord& rec, PerfSample* out,
                   std::string* err) const;
  /// Decodes the sample_id_all trailer of another record (time, pid, tid,
  /// cpu, id). Returns false when the record has none; `out->time` stays
  /// UINT64_MAX then.
  bool ParseIdTrailer(const PerfRecord& rec, size_t fixed_size,
                      PerfSample* out) const;
  /// Which attr a record belongs to (by its sample id; 0 when unknown):
  /// `rec.attr` when set. Not thread-safe unless it is (a cache).
  size_t AttrOf(const PerfRecord& rec) const;
  /// The attr whose sample ids hold `id`; SIZE_MAX when none does.
  size_t AttrOfId(uint64_t id) const;

  bool ParseMmap(const PerfRecord& rec, PerfMmap* out, std::string* err) const;
  bool ParseComm(const PerfRecord& rec, PerfComm* out, std::string* err) const;
  bool ParseFork(const PerfRecord& rec, PerfFork* out, std::string* err) const;
  /// The number of samples a LOST or LOST_SAMPLES record says the kernel
  /// dropped (0 for a LOST_SAMPLES record of samples a BPF filter dropped
  /// on purpose).
  bool ParseLost(const PerfRecord& rec, uint64_t* lost,
                 std::string* err) const;

  /// The time of any record: the sample's, or the sample_id_all trailer's;
  /// UINT64_MAX when it has none.
  uint64_t TimeOf(const PerfRecord& rec) const;

 private:
  struct Decompressor;
  bool ReadFileMode(const std::string& head, Visitor* v, std::string* err);
  bool ReadPipeMode(Visitor* v, std::string* err);
  bool ReadAttrs(std::string_view file, std::string* err);
  bool ReadFeatures(std::string_view file, uint64_t at, std::string* err);
  bool ReadFeature(int feat, std::string_view sec, uint64_t at,
                   std::string* err);
  bool NameEvents(std::string_view sec, uint64_t at, std::string* err);
  bool AddAttr(std::string_view bytes, uint64_t at, PerfAttr* out,
               std::string* err) const;
  bool Records(std::string_view data, uint64_t base, bool stable,
               Visitor* v, size_t* used, std::string* err);
  struct RecordHeader {
    uint32_t type = 0;
    uint16_t misc = 0, size = 0;
  };
  /// Reads the 8-byte record header `bytes` found at file offset `at`.
  /// False with `*err` when its size cannot hold even the header.
  bool ReadRecordHeader(std::string_view bytes, uint64_t at,
                        RecordHeader* h, std::string* err) const;
  bool Slurp(const std::string& head, std::string* err);
  bool Deliver(const PerfRecord& rec, Visitor* v, std::string* err);
  bool HeaderRecord(const PerfRecord& rec, std::string* err);
  bool Decompress(const PerfRecord& rec, Visitor* v, std::string* err);
  bool EnsureHeader(Visitor* v, std::string* err);
  void IndexIds();
  std::string At(uint64_t offset) const;

  std::string name_;
  ByteSource* src_;
  PerfDataInfo info_;
  std::string truncated_;
  bool header_sent_ = false;
  std::vector<std::pair<uint64_t, size_t>> id_index_;  // sorted id -> attr
  // AttrOf's last id and its attr: a record's attr is asked for twice
  // (its time, then its fields), and the next record's id is mostly alike.
  mutable std::pair<uint64_t, size_t> last_id_{UINT64_MAX, SIZE_MAX};
  int sample_id_pos_ = -1;  // u64 index of the id in a sample; -1: none
  int trailer_id_pos_ = -1;  // u64 index from the end of a trailer
  std::unique_ptr<Decompressor> zstd_;
  // File mode: the whole input, kept for the reader's lifetime so that
  // records can be queued without copies.
  std::unique_ptr<char, void (*)(void*)> file_{nullptr, &std::free};
  size_t file_size_ = 0;
  std::string_view mapped_;  // the input when given in memory
  std::function<void(size_t)> read_past_;
  std::unique_ptr<ByteSource> own_src_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_PERF_DATA_H_
