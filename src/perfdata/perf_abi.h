// The perf.data on-disk format as perf writes it (a file header, its
// attribute and feature sections, then the records of the kernel's
// perf_event interface), as constants and fixed layouts.
//
// Private to the perf.data reader: nothing here is read by casting a
// pointer. The structs only document the layouts and give their sizes
// (checked below); fields are read one by one, byte order applied, by
// PerfCursor, so an unaligned or foreign-endian file is read the same way.
#ifndef FLAMEFOLD_PERFDATA_PERF_ABI_H_
#define FLAMEFOLD_PERFDATA_PERF_ABI_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace flamefold::perf_abi {

// The magic ("PERFILE2") and the header size after it are read by
// ReadPerfDataStart (collapse/input_kind.h): the tools' detector of input
// kinds and this reader tell perf.data and its pipe mode by one check.

struct FileSection {
  uint64_t offset;
  uint64_t size;
};
static_assert(sizeof(FileSection) == 16);

struct FileHeader {
  uint64_t magic;
  uint64_t size;  // of this header: 104
  uint64_t attr_size;
  FileSection attrs;
  FileSection data;
  FileSection event_types;  // unused since 2012
  uint64_t adds_features[4];  // feature bitmap
};
static_assert(sizeof(FileHeader) == 104);

// Pipe mode (perf record -o -) starts with just magic and size.
struct PipeHeader {
  uint64_t magic;
  uint64_t size;  // 16
};
static_assert(sizeof(PipeHeader) == 16);

struct EventHeader {
  uint32_t type;
  uint16_t misc;
  uint16_t size;  // of the whole record, header included
};
static_assert(sizeof(EventHeader) == 8);

// perf_event_attr: only the fields we read, by offset. Its size grows with
// the kernel (attr.size says which version); 64 is the first version.
constexpr uint32_t kAttrSizeVer0 = 64;
constexpr uint32_t kAttrOffType = 0;
constexpr uint32_t kAttrOffSize = 4;
constexpr uint32_t kAttrOffConfig = 8;
constexpr uint32_t kAttrOffSamplePeriod = 16;
constexpr uint32_t kAttrOffSampleType = 24;
constexpr uint32_t kAttrOffReadFormat = 32;
constexpr uint32_t kAttrOffFlags = 40;   // the bit field word
constexpr uint32_t kAttrOffBranchSampleType = 72;  // needs size >= 80
constexpr uint32_t kAttrOffSampleRegsUser = 80;    // needs size >= 88
constexpr uint32_t kAttrOffSampleRegsIntr = 96;    // needs size >= 104

// Bits of the attr flag word (bit 0 = `disabled`).
constexpr int kFlagExcludeUser = 4;
constexpr int kFlagExcludeKernel = 5;
constexpr int kFlagExcludeHv = 6;
constexpr int kFlagExcludeIdle = 7;
constexpr int kFlagFreq = 10;
constexpr int kFlagPreciseIpShift = 15;  // two bits
constexpr int kFlagSampleIdAll = 18;
constexpr int kFlagExcludeHost = 19;
constexpr int kFlagExcludeGuest = 20;

// perf_event_attr.type
constexpr uint32_t kTypeHardware = 0;
constexpr uint32_t kTypeSoftware = 1;
constexpr uint32_t kTypeTracepoint = 2;
constexpr uint32_t kTypeHwCache = 3;
constexpr uint32_t kTypeRaw = 4;
constexpr uint32_t kTypeBreakpoint = 5;

// sample_type bits.
constexpr uint64_t kSampleIp = 1ULL << 0;
constexpr uint64_t kSampleTid = 1ULL << 1;
constexpr uint64_t kSampleTime = 1ULL << 2;
constexpr uint64_t kSampleAddr = 1ULL << 3;
constexpr uint64_t kSampleRead = 1ULL << 4;
constexpr uint64_t kSampleCallchain = 1ULL << 5;
constexpr uint64_t kSampleId = 1ULL << 6;
constexpr uint64_t kSampleCpu = 1ULL << 7;
constexpr uint64_t kSamplePeriod = 1ULL << 8;
constexpr uint64_t kSampleStreamId = 1ULL << 9;
constexpr uint64_t kSampleRaw = 1ULL << 10;
constexpr uint64_t kSampleBranchStack = 1ULL << 11;
constexpr uint64_t kSampleRegsUser = 1ULL << 12;
constexpr uint64_t kSampleStackUser = 1ULL << 13;
constexpr uint64_t kSampleWeight = 1ULL << 14;
constexpr uint64_t kSampleDataSrc = 1ULL << 15;
constexpr uint64_t kSampleIdentifier = 1ULL << 16;
constexpr uint64_t kSampleTransaction = 1ULL << 17;
constexpr uint64_t kSampleRegsIntr = 1ULL << 18;
constexpr uint64_t kSamplePhysAddr = 1ULL << 19;
constexpr uint64_t kSampleAux = 1ULL << 20;
constexpr uint64_t kSampleCgroup = 1ULL << 21;
constexpr uint64_t kSampleDataPageSize = 1ULL << 22;
constexpr uint64_t kSampleCodePageSize = 1ULL << 23;
constexpr uint64_t kSampleWeightStruct = 1ULL << 24;

// read_format bits.
constexpr uint64_t kReadTotalTimeEnabled = 1ULL << 0;
constexpr uint64_t kReadTotalTimeRunning = 1ULL << 1;
constexpr uint64_t kReadId = 1ULL << 2;
constexpr uint64_t kReadGroup = 1ULL << 3;
constexpr uint64_t kReadLost = 1ULL << 4;

constexpr uint64_t kBranchHwIndex = 1ULL << 17;  // branch_sample_type

// Record types: kernel ones, then perf's own (user) ones.
enum RecordType : uint32_t {
  kRecordMmap = 1,
  kRecordLost = 2,
  kRecordComm = 3,
  kRecordExit = 4,
  kRecordThrottle = 5,
  kRecordUnthrottle = 6,
  kRecordFork = 7,
  kRecordRead = 8,
  kRecordSample = 9,
  kRecordMmap2 = 10,
  kRecordAux = 11,
  kRecordItraceStart = 12,
  kRecordLostSamples = 13,
  kRecordSwitch = 14,
  kRecordSwitchCpuWide = 15,
  kRecordNamespaces = 16,
  kRecordKsymbol = 17,
  kRecordBpfEvent = 18,
  kRecordCgroup = 19,
  kRecordTextPoke = 20,
  kRecordAuxOutputHwId = 21,
  kRecordUserTypeStart = 64,
  kRecordHeaderAttr = 64,
  kRecordHeaderEventType = 65,
  kRecordHeaderTracingData = 66,  // followed by its payload
  kRecordHeaderBuildId = 67,
  kRecordFinishedRound = 68,
  kRecordIdIndex = 69,
  kRecordAuxtraceInfo = 70,
  kRecordAuxtrace = 71,  // followed by its payload
  kRecordAuxtraceError = 72,
  kRecordThreadMap = 73,
  kRecordCpuMap = 74,
  kRecordStatConfig = 75,
  kRecordStat = 76,
  kRecordStatRound = 77,
  kRecordEventUpdate = 78,
  kRecordTimeConv = 79,
  kRecordHeaderFeature = 80,
  kRecordCompressed = 81,
  kRecordFinishedInit = 82,
};

// header.misc
constexpr uint16_t kMiscCpumodeMask = 7;
constexpr uint16_t kMiscKernel = 1;
constexpr uint16_t kMiscUser = 2;
constexpr uint16_t kMiscHypervisor = 3;
constexpr uint16_t kMiscGuestKernel = 4;
constexpr uint16_t kMiscGuestUser = 5;
constexpr uint16_t kMiscCommExec = 1 << 13;
constexpr uint16_t kMiscMmapData = 1 << 13;  // same bit, MMAP records
constexpr uint16_t kMiscForkExec = 1 << 13;  // same bit, FORK records
constexpr uint16_t kMiscMmapBuildId = 1 << 14;
constexpr uint16_t kMiscSwitchOut = 1 << 13;  // same bit, SWITCH records
constexpr uint16_t kMiscSwitchOutPreempt = 1 << 14;  // with it: preempted

// Call chain context markers.
constexpr uint64_t kContextHv = static_cast<uint64_t>(-32);
constexpr uint64_t kContextKernel = static_cast<uint64_t>(-128);
constexpr uint64_t kContextUser = static_cast<uint64_t>(-512);
constexpr uint64_t kContextGuest = static_cast<uint64_t>(-2048);
constexpr uint64_t kContextGuestKernel = static_cast<uint64_t>(-2176);
constexpr uint64_t kContextGuestUser = static_cast<uint64_t>(-2560);
constexpr uint64_t kContextMax = static_cast<uint64_t>(-4095);

// Feature section numbers (bits of adds_features).
enum Feature : int {
  kFeatTracingData = 1,
  kFeatBuildId = 2,
  kFeatHostname = 3,
  kFeatOsRelease = 4,
  kFeatVersion = 5,
  kFeatArch = 6,
  kFeatNrCpus = 7,
  kFeatCpuDesc = 8,
  kFeatCpuId = 9,
  kFeatTotalMem = 10,
  kFeatCmdline = 11,
  kFeatEventDesc = 12,
  kFeatSampleTime = 21,  // u64 first and last sample time
  kFeatCompressed = 27,
  kFeatLast = 256,
};

// Fixed parts of the records we read (after the 8-byte header).
struct MmapFixed {
  uint32_t pid, tid;
  uint64_t start, len, pgoff;
};  // then char filename[], padded to 8
static_assert(sizeof(MmapFixed) == 32);

struct Mmap2Fixed {
  uint32_t pid, tid;
  uint64_t start, len, pgoff;
  uint8_t id[24];  // maj, min, ino, ino_generation or build id
  uint32_t prot, flags;
};  // then char filename[]
static_assert(sizeof(Mmap2Fixed) == 64);

struct CommFixed {
  uint32_t pid, tid;
};  // then char comm[]
static_assert(sizeof(CommFixed) == 8);

struct ForkExit {
  uint32_t pid, ppid, tid, ptid;
  uint64_t time;
};
static_assert(sizeof(ForkExit) == 24);

// Reads fixed-size fields from a byte range, in the file's byte order,
// never past its end. `base` is the offset of the range in the input, for
// messages.
class PerfCursor {
 public:
  PerfCursor(std::string_view b, uint64_t base, bool swap)
      : b_(b), base_(base), swap_(swap) {}
  template <typename T>
  bool Get(T* v) {
    if (b_.size() - pos_ < sizeof(T)) return false;
    std::memcpy(v, b_.data() + pos_, sizeof(T));
    if (swap_ && sizeof(T) > 1) *v = Bswap(*v);
    pos_ += sizeof(T);
    return true;
  }
  /// `n` u64s at once: one bounds check and one copy for a call chain.
  bool GetArray(uint64_t* v, size_t n) {
    if ((b_.size() - pos_) / 8 < n) return false;
    if (n == 0) return true;  // `v` may be null: an empty vector's data()
    std::memcpy(v, b_.data() + pos_, n * 8);
    if (swap_) {
      for (size_t i = 0; i < n; ++i) v[i] = Bswap(v[i]);
    }
    pos_ += n * 8;
    return true;
  }
  bool Bytes(size_t n, std::string_view* out) {
    if (b_.size() - pos_ < n) return false;
    *out = b_.substr(pos_, n);
    pos_ += n;
    return true;
  }
  bool Skip(uint64_t n) {
    if (b_.size() - pos_ < n) return false;
    pos_ += static_cast<size_t>(n);
    return true;
  }
  size_t left() const { return b_.size() - pos_; }
  size_t pos() const { return pos_; }
  uint64_t offset() const { return base_ + pos_; }

 private:
  static uint64_t Bswap(uint64_t v) { return __builtin_bswap64(v); }
  static uint32_t Bswap(uint32_t v) { return __builtin_bswap32(v); }
  static uint16_t Bswap(uint16_t v) { return __builtin_bswap16(v); }

  std::string_view b_;
  size_t pos_ = 0;
  uint64_t base_;
  bool swap_;
};

// A C string in a fixed-size field: up to the first NUL.
inline std::string CString(std::string_view s) {
  size_t nul = s.find('\0');
  return std::string(s.substr(0, nul));
}

}  // namespace flamefold::perf_abi

#endif  // FLAMEFOLD_PERFDATA_PERF_ABI_H_
