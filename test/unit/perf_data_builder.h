// PerfDataBuilder: writes small synthetic perf.data files for unit tests,
// in file or pipe mode and in either byte order, so that corner cases need
// no binary fixture.
#ifndef FLAMEFOLD_TEST_PERF_DATA_BUILDER_H_
#define FLAMEFOLD_TEST_PERF_DATA_BUILDER_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace flamefold::testing {

class PerfDataBuilder {
 public:
  struct Attr {
    uint32_t type = 1;    // software
    uint64_t config = 0;  // cpu-clock
    uint64_t sample_type = 0x1a7;  // ip tid time callchain cpu period
    uint64_t flags = (1ULL << 18);  // sample_id_all
    uint64_t sample_period = 1000;
    std::vector<uint64_t> ids;
    std::string name;  // "" = no event description
  };

  explicit PerfDataBuilder(bool swap = false, bool pipe = false)
      : swap_(swap), pipe_(pipe) {}

  void AddAttr(const Attr& a) { attrs_.push_back(a); }

  // Records, in the data section (or after the attrs in pipe mode).
  void Comm(uint32_t pid, uint32_t tid, const std::string& comm,
            uint64_t time) {
    std::string b = U32(pid) + U32(tid) + Padded(comm);
    Record(3, 0, b + Trailer(pid, tid, time));
  }
  void Mmap(uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
            const std::string& file, uint64_t time, uint16_t misc = 2) {
    std::string b = U32(pid) + U32(pid) + U64(start) + U64(len) + U64(pgoff) +
                    Padded(file);
    Record(1, misc, b + Trailer(pid, pid, time));
  }
  void Fork(uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid,
            uint64_t time) {
    std::string b = U32(pid) + U32(ppid) + U32(tid) + U32(ptid) + U64(time);
    Record(7, 0, b + Trailer(pid, tid, time));
  }
  // A sample of the default attr layout (ip tid time cpu period callchain).
  void Sample(uint32_t pid, uint32_t tid, uint64_t time, uint64_t period,
              const std::vector<uint64_t>& chain, uint16_t misc = 2,
              uint64_t id = 0) {
    const Attr& a = attrs_.at(0);
    std::string b;
    if (a.sample_type & (1u << 16)) b += U64(id);
    b += U64(chain.empty() ? 0 : chain.back());
    b += U32(pid) + U32(tid) + U64(time);
    if (a.sample_type & (1u << 6)) b += U64(id);
    b += U32(0) + U32(0);           // cpu, res
    b += U64(period);
    b += U64(chain.size());
    for (uint64_t ip : chain) b += U64(ip);
    Record(9, misc, b);
  }
  // LOST (records of any kind dropped, of sample id `id`) and LOST_SAMPLES
  // (misc 1 << 15: dropped by a BPF filter, on purpose).
  void Lost(uint64_t id, uint64_t lost, uint64_t time) {
    Record(2, 0, U64(id) + U64(lost) + Trailer(0, 0, time));
  }
  void LostSamples(uint64_t lost, uint64_t time, uint16_t misc = 0) {
    Record(13, misc, U64(lost) + Trailer(0, 0, time));
  }
  void FinishedRound() { Record(68, 0, ""); }
  void Raw(const std::string& bytes) { data_ += bytes; }
  void Record(uint32_t type, uint16_t misc, const std::string& body) {
    data_ += U32(type) + U16(misc) + U16(static_cast<uint16_t>(8 + body.size())) + body;
  }

  /// The whole file.
  std::string Build() const { return pipe_ ? BuildPipe() : BuildFile(); }

  // Encoders in the file's byte order.
  std::string U64(uint64_t v) const { return Enc(v, 8); }
  std::string U32(uint32_t v) const { return Enc(v, 4); }
  std::string U16(uint16_t v) const { return Enc(v, 2); }
  static std::string Padded(const std::string& s) {
    std::string r = s;
    r.resize((s.size() + 8) & ~size_t{7}, '\0');
    return r;
  }

 private:
  std::string Enc(uint64_t v, int n) const {
    std::string r(n, '\0');
    for (int i = 0; i < n; ++i) {
      int shift = swap_ ? (n - 1 - i) * 8 : i * 8;
      r[i] = static_cast<char>((v >> shift) & 0xff);
    }
    return r;
  }
  // sample_id_all trailer for the default layout: tid, time, cpu.
  std::string Trailer(uint32_t pid, uint32_t tid, uint64_t time) const {
    const Attr& a = attrs_.at(0);
    std::string t = U32(pid) + U32(tid) + U64(time);
    if (a.sample_type & (1u << 6)) t += U64(a.ids.empty() ? 0 : a.ids[0]);
    t += U32(0) + U32(0);
    if (a.sample_type & (1u << 16)) t += U64(a.ids.empty() ? 0 : a.ids[0]);
    return t;
  }
  std::string Flags(uint64_t f) const {
    if (!swap_) return U64(f);
    uint64_t r = 0;  // big-endian bit fields start at the top bit
    for (int i = 0; i < 64; ++i) r |= ((f >> i) & 1) << (63 - i);
    return U64(r);
  }
  std::string AttrBytes(const Attr& a) const {
    std::string b = U32(a.type) + U32(64) + U64(a.config) +
                    U64(a.sample_period) + U64(a.sample_type) + U64(0) +
                    Flags(a.flags);
    b.resize(64, '\0');
    return b;
  }
  std::string String(const std::string& s) const {
    std::string p = s;
    p.resize((s.size() + 1 + 63) & ~size_t{63}, '\0');
    return U32(static_cast<uint32_t>(p.size())) + p;
  }
  std::string EventDesc() const {
    std::string d = U32(static_cast<uint32_t>(attrs_.size())) + U32(64);
    for (const Attr& a : attrs_) {
      d += AttrBytes(a) + U32(static_cast<uint32_t>(a.ids.size())) +
           String(a.name);
      for (uint64_t id : a.ids) d += U64(id);
    }
    return d;
  }
  bool HasNames() const {
    for (const Attr& a : attrs_) {
      if (!a.name.empty()) return true;
    }
    return false;
  }
  std::string BuildFile() const {
    // header | attrs | id lists | data | feature table | features
    uint64_t attr_size = 64 + 16;
    uint64_t attrs_off = 104;
    uint64_t ids_off = attrs_off + attr_size * attrs_.size();
    std::string attrs, ids;
    for (const Attr& a : attrs_) {
      attrs += AttrBytes(a) + U64(ids_off + ids.size()) + U64(a.ids.size() * 8);
      for (uint64_t id : a.ids) ids += U64(id);
    }
    uint64_t data_off = ids_off + ids.size();
    std::string feats;
    uint64_t bits = 0;
    if (HasNames()) {
      bits |= 1ULL << 12;
      uint64_t table = data_off + data_.size();
      std::string desc = EventDesc();
      feats = U64(table + 16) + U64(desc.size()) + desc;
    }
    std::string h = U64(0x32454c4946524550ULL) + U64(104) + U64(attr_size) +
                    U64(attrs_off) + U64(attrs.size()) + U64(data_off) +
                    U64(data_.size()) + U64(0) + U64(0) + U64(bits) + U64(0) +
                    U64(0) + U64(0);
    return h + attrs + ids + data_ + feats;
  }
  std::string BuildPipe() const {
    std::string out = U64(0x32454c4946524550ULL) + U64(16);
    for (const Attr& a : attrs_) {
      std::string b = AttrBytes(a);
      for (uint64_t id : a.ids) b += U64(id);
      out += U32(64) + U16(0) + U16(static_cast<uint16_t>(8 + b.size())) + b;
    }
    if (HasNames()) {
      std::string b = U64(12) + EventDesc();
      out += U32(80) + U16(0) + U16(static_cast<uint16_t>(8 + b.size())) + b;
    }
    return out + data_;
  }

  bool swap_, pipe_;
  std::vector<Attr> attrs_;
  std::string data_;
};

}  // namespace flamefold::testing

#endif  // FLAMEFOLD_TEST_PERF_DATA_BUILDER_H_
