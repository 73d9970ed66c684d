#include "perfdata/perf_srcline.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>

namespace flamefold {

std::string PerfSrcline::FromRecord(const SourceRecord& record) {
  // addr2line's line is "FILE:LINE", "FILE:LINE (discriminator N)" or
  // "FILE:?"; perf cuts it at the first ':' and reads the line number with
  // strtoul (base 0), so a ':' inside FILE moves the cut.
  std::string text = record.file + ':' +
                     (record.line ? std::to_string(record.line) : "?");
  size_t colon = text.find(':');
  std::string file = text.substr(0, colon);
  auto line = static_cast<unsigned int>(
      std::strtoul(text.c_str() + colon + 1, nullptr, 0));
  size_t slash = file.rfind('/');
  if (slash != std::string::npos) file.erase(0, slash + 1);
  return file + ':' + std::to_string(line);
}

std::string PerfSrcline::Addr2lineFile(const Dso& dso) {
  if (dso.kind != DsoKind::kUser) return "";
  const std::string& name = dso.symtab_file.empty() ? dso.path
                                                     : dso.symtab_file;
  if (name.empty() || name[0] == '[' || name.rfind("/tmp/perf-", 0) == 0) {
    return "";
  }
  return name;
}

std::string PerfSrcline::ShortName(const Dso& dso) {
  switch (dso.kind) {
    case DsoKind::kKernel:
    case DsoKind::kModule:
      return dso.name;  // "[kernel.kallsyms]", "[ext4]"
    case DsoKind::kPerfMap: {
      int pid = 0;  // perf: sscanf(name, "/tmp/perf-%d.map", &pid) == 1
      if (std::sscanf(dso.path.c_str(), "/tmp/perf-%d.map", &pid) == 1) {
        return "[JIT] tid " + std::to_string(pid);
      }
      break;
    }
    case DsoKind::kUser:
      break;
  }
  size_t slash = dso.path.rfind('/');
  return slash == std::string::npos ? dso.path : dso.path.substr(slash + 1);
}

uint64_t PerfSrcline::ObjdumpAddress(const Dso& dso, uint64_t map_ip) {
  return dso.kind == DsoKind::kUser ? map_ip + dso.text_offset : map_ip;
}

const std::string& PerfSrcline::ForFrame(const Dso* dso, uint64_t map_ip) {
  auto [it, added] = cache_.try_emplace(DsoAddress{dso, map_ip});
  if (added) it->second = Compute(dso, map_ip);
  return it->second;
}

std::string PerfSrcline::Compute(const Dso* dso, uint64_t map_ip) {
  uint64_t addr = ObjdumpAddress(*dso, map_ip);
  std::string file = Addr2lineFile(*dso);
  if (!file.empty()) {
    const SourceLookup* look = lines_->Lookup(file, addr, true);
    if (look && look->found && !look->records.empty()) {
      std::string line = FromRecord(look->records[0]);
      // perf leaves out what starts as its SRCLINE_UNKNOWN.
      return line.rfind("??:0", 0) == 0 ? std::string() : line;
    }
  }
  char hex[24];
  std::snprintf(hex, sizeof hex, "[%" PRIx64 "]", addr);
  return ShortName(*dso) + hex;
}

}  // namespace flamefold
