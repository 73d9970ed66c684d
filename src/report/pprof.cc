#include "report/pprof.h"

#include <google/protobuf/io/gzip_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "base/utf8.h"
#include "report/profile.pb.h"
#include "report/stack_frames.h"
#include "symbols/elf_symbols.h"

namespace flamefold {

namespace {

namespace pb = perftools::profiles;

class PprofWriter : public StackWriter {
 public:
  explicit PprofWriter(OutputSink* out) : out_(out) {}

  bool wants_origins() const override { return true; }
  void Begin(const FoldFacts& facts) override { facts_ = facts; }

  void Add(std::string_view stack, const PerlNumber& weight,
           uint64_t samples) override {
    pb::Sample* sample = profile_.add_sample();
    const std::span<const SymbolId> ids = frames_.Intern(stack);
    sample->mutable_location_id()->Reserve(static_cast<int>(ids.size()));
    for (size_t i = ids.size(); i-- > 0;) {
      sample->add_location_id(uint64_t{ids[i]} + 1);  // ids start at 1
    }
    if (two_types()) sample->add_value(Clamped(samples));
    sample->add_value(Value(weight));
  }

  bool Finish(const Diag& diag) override {
    AddTables();
    std::string gzipped;
    {
      google::protobuf::io::StringOutputStream bytes(&gzipped);
      google::protobuf::io::GzipOutputStream::Options options;
      options.format = google::protobuf::io::GzipOutputStream::GZIP;
      google::protobuf::io::GzipOutputStream gzip(&bytes, options);
      if (!profile_.SerializeToZeroCopyStream(&gzip) || !gzip.Close()) {
        diag.Error("cannot encode the pprof profile");
        return false;
      }
    }
    out_->Write(gzipped);
    if (rounded_ > 0) {
      diag.Warning(std::to_string(rounded_) +
                   " stack(s) with a fractional count rounded to an integer "
                   "(pprof's counts are integers)");
    }
    if (clamped_ > 0) {
      diag.Warning(std::to_string(clamped_) + " stack(s) with a count above " +
                   std::to_string(std::numeric_limits<int64_t>::max()) +
                   " cut to it (pprof's counts are signed 64-bit integers)");
    }
    return true;
  }

 private:
  // Whether the samples have two types: their number, and the sum of
  // their periods in the event's unit.
  bool two_types() const {
    return (facts_.periods && !facts_.event.empty()) ||
           !facts_.weight_field.empty() || !facts_.off_cpu_unit.empty();
  }
  int64_t Clamped(uint64_t v) {
    constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
    if (v <= kMax) return static_cast<int64_t>(v);
    clamped_++;
    return static_cast<int64_t>(kMax);
  }
  // A count as pprof's int64 value.
  int64_t Value(const PerlNumber& weight) {
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    if (weight.is_integer()) {
      if (weight.uint_value() <= static_cast<uint64_t>(kMax)) {
        return static_cast<int64_t>(weight.uint_value());
      }
      clamped_++;
      return kMax;
    }
    const double rounded = std::nearbyint(weight.AsDouble());
    if (rounded != weight.AsDouble()) rounded_++;
    if (!(rounded < 0x1p63)) {
      clamped_++;
      return kMax;
    }
    return static_cast<int64_t>(rounded);
  }
  // The string table (index 0 is ""), the sample types, the mappings, and
  // a function and a location per frame.
  void AddTables() {
    profile_.add_string_table("");
    AddSampleTypes();
    AddMappings();
    for (size_t id = 0; id < frames_.size(); ++id) {
      const std::string_view frame = frames_.name(static_cast<SymbolId>(id));
      const int64_t name = AddString(frame);
      pb::Function* function = profile_.add_function();
      function->set_id(id + 1);
      function->set_name(name);
      function->set_system_name(name);
      pb::Location* location = profile_.add_location();
      location->set_id(id + 1);
      location->add_line()->set_function_id(id + 1);
      if (const FrameOrigins::Origin* o = OriginOf(frame)) {
        location->set_mapping_id(o->mapping);
        location->set_address(o->address);
      }
    }
  }
  // "samples" in "count"; on perf input whose counts are periods, then the
  // event's: "cpu" in "nanoseconds" for the clock events (their period is
  // the time between samples), else the event's name in "count"; with
  // --weight, the field in "bytes" (a field named so) or "count"; with
  // --off-cpu, "off-cpu" in its unit (each stack one sample). pprof
  // shows the last type unless told otherwise.
  void AddSampleTypes() {
    AddSampleType("samples", "count");
    if (!two_types()) return;
    if (!facts_.off_cpu_unit.empty()) {
      AddSampleType("off-cpu", facts_.off_cpu_unit);
    } else if (!facts_.weight_field.empty()) {
      AddSampleType(facts_.weight_field, facts_.bytes() ? "bytes" : "count");
    } else if (facts_.nanoseconds()) {
      AddSampleType("cpu", "nanoseconds");
    } else {
      AddSampleType(facts_.event, "count");
    }
  }
  void AddSampleType(std::string_view type, std::string_view unit) {
    pb::ValueType* t = profile_.add_sample_type();
    t->set_type(AddString(type));
    t->set_unit(AddString(unit));
  }
  // The files the frames came from; their functions are named in the
  // profile, so pprof need not look symbols up.
  void AddMappings() {
    if (facts_.origins == nullptr) return;
    const auto& mappings = facts_.origins->mappings();
    for (size_t i = 0; i < mappings.size(); ++i) {
      pb::Mapping* m = profile_.add_mapping();
      m->set_id(i + 1);
      m->set_filename(AddString(mappings[i].file));
      if (!mappings[i].build_id.empty()) {
        m->set_build_id(AddString(BuildIdHex(mappings[i].build_id)));
      }
      m->set_has_functions(true);
    }
  }
  // The origin of the frame named `frame` (one the fold named itself, or
  // a name a transform made, has none).
  const FrameOrigins::Origin* OriginOf(std::string_view frame) const {
    if (facts_.origins == nullptr || facts_.names == nullptr) return nullptr;
    const SymbolId id = facts_.names->Find(frame);
    if (id == StringInterner::kNone) return nullptr;
    const FrameOrigins::Origin* o = facts_.origins->Of(id);
    return o != nullptr && o->mapping != 0 ? o : nullptr;
  }
  int64_t AddString(std::string_view s) {
    std::string* added = profile_.add_string_table();
    if (IsValidUtf8(s)) {
      added->assign(s);
    } else {
      AppendValidUtf8(s, added);
    }
    return profile_.string_table_size() - 1;
  }

  OutputSink* out_;
  FoldFacts facts_;
  StackFrames frames_;
  pb::Profile profile_;
  uint64_t rounded_ = 0, clamped_ = 0;
};

}  // namespace

std::unique_ptr<StackWriter> MakePprofWriter(OutputSink* out) {
  return std::make_unique<PprofWriter>(out);
}

}  // namespace flamefold
