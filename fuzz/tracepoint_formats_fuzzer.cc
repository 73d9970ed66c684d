// libFuzzer target for a recording's tracing data (the event formats that
// --weight reads fields by). Checks what the reader promises: every format
// it keeps is found by its id, every field lies where its offset and size
// say, and an integer field read from raw data cut at any length is never
// read past its end.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "perfdata/tracepoint_formats.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  flamefold::TracepointFormats formats;
  std::string err;
  if (!formats.Read(in, 0, &err) && err.empty()) abort();
  for (const flamefold::TracepointFormat& f : formats.formats()) {
    if (formats.Find(f.id) == nullptr || formats.Find(f.id)->id != f.id) {
      abort();
    }
    for (const flamefold::TracepointField& field : f.fields) {
      if (f.Field(field.name) == nullptr) abort();
      // The input itself stands for a sample's raw data.
      std::optional<uint64_t> v = flamefold::ReadIntegerField(field, in, false);
      bool fits = field.offset <= in.size() &&
                  in.size() - field.offset >= field.size;
      if (v.has_value() != (field.integer() && fits)) abort();
    }
  }
  // One format read alone, as the text of a format file.
  flamefold::TracepointFormats one;
  if (!one.AddFormat("fuzz", in, &err) && err.empty()) abort();
  return 0;
}
