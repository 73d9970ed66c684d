#include "symbols/perf_map.h"

#include <cstdlib>
#include <string_view>

#include "io/file_source.h"
#include "io/line_reader.h"

namespace flamefold {

bool LoadPerfMap(const std::string& path, SymbolTable* table,
                 std::string* err) {
  std::string why;
  const int fd = OpenFileFd(path, &why);
  if (fd < 0) {
    *err = path + ": cannot open JIT map";
    return false;
  }
  FdSource source(fd, true);
  LineReader reader(&source);
  // perf's hex2u64 here is strtoull(s, &end, 16): leading white space, a
  // sign and a "0x" are taken too, as the JDK writes its maps
  // (-XX:+DumpPerfMapAtExit: "0x00007f9210ec7640 0x0000000000000150 ...").
  auto hex = [](const char* s, uint64_t* v) -> size_t {
    char* end = nullptr;
    *v = std::strtoull(s, &end, 16);
    return static_cast<size_t>(end - s);
  };
  std::string line;
  std::string_view read;
  // "7f3a2c001000 40 LambdaForm$MH::invoke": start and size in hex, then
  // the name, which may hold spaces. perf drops each line's last byte, its
  // '\n' (a last line without one loses a byte of its name), and reads
  // the line as a C string (a NUL ends it). A line too long for the reader
  // is passed over.
  for (LineReader::Result r; (r = reader.Next(&read)) != LineReader::kEof &&
                             r != LineReader::kError;) {
    if (r == LineReader::kTooLong) continue;
    line.assign(read);
    if (reader.last_line_unterminated() && !line.empty()) line.pop_back();
    uint64_t start = 0, size = 0;
    size_t len = hex(line.c_str(), &start) + 1;
    if (len + 2 >= line.size()) continue;
    len += hex(line.c_str() + len, &size) + 1;
    if (len + 2 >= line.size()) continue;
    table->Add(start, size, std::string_view(line.c_str() + len),
               SymbolBinding::kGlobal);
  }
  table->Finish(false, false);
  return true;
}

}  // namespace flamefold
