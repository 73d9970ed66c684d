#include "perfdata/tracepoint_formats.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>

#include "perfdata/perf_abi.h"

namespace flamefold {
namespace abi = perf_abi;
namespace {

// The tracing data begins "\x17\x08\x44tracing", then its version as a
// NUL-terminated string ("0.6").
constexpr std::string_view kMagic = "\x17\x08\x44tracing";
constexpr size_t kMaxVersion = 16;

// Reads a NUL-terminated string of at most `max` bytes.
bool GetCString(abi::PerfCursor* c, size_t max, std::string_view* out) {
  std::string_view rest;
  abi::PerfCursor probe = *c;
  if (!probe.Bytes(std::min(max, probe.left()), &rest)) return false;
  size_t nul = rest.find('\0');
  if (nul == std::string_view::npos) return false;
  c->Bytes(nul, out);
  return c->Skip(1);
}

// A block of `Size` (u32 or u64) bytes, then that many bytes.
template <typename Size>
bool GetBlock(abi::PerfCursor* c, std::string_view* out) {
  Size n = 0;
  return c->Get(&n) && n <= c->left() && c->Bytes(static_cast<size_t>(n), out);
}

// "offset:8;" within `text`: the number after `key` up to ';'.
bool NumberAfter(std::string_view text, std::string_view key, uint32_t* out) {
  size_t at = text.find(key);
  if (at == std::string_view::npos) return false;
  const char* begin = text.data() + at + key.size();
  const char* end = text.data() + text.size();
  auto r = std::from_chars(begin, end, *out);
  return r.ec == std::errc() && r.ptr != end && *r.ptr == ';';
}

// The declaration of a field line, "unsigned long call_site" or
// "char prev_comm[16]" or "__data_loc char[] filename": its name and type.
bool ReadDeclaration(std::string_view decl, TracepointField* f) {
  while (!decl.empty() && decl.back() == ' ') decl.remove_suffix(1);
  size_t bracket = std::string_view::npos;
  if (!decl.empty() && decl.back() == ']') {
    bracket = decl.rfind('[');
    if (bracket == std::string_view::npos) return false;
  }
  std::string_view head = decl.substr(0, bracket);
  size_t space = head.rfind(' ');
  if (space == std::string_view::npos || space + 1 == head.size()) {
    return false;
  }
  f->name = std::string(head.substr(space + 1));
  f->type = std::string(head.substr(0, space));
  if (bracket != std::string_view::npos) {
    f->type += decl.substr(bracket);
    f->array = true;
  }
  if (f->type.starts_with("__data_loc ") || f->type.starts_with("__rel_loc ")) {
    f->data_loc = true;
    f->array = true;
  }
  return true;
}

// One field line:
//   "\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;"
bool ReadFieldLine(std::string_view line, TracepointField* f) {
  constexpr std::string_view kField = "field:";
  size_t start = line.find(kField);
  if (start == std::string_view::npos) return false;
  line.remove_prefix(start + kField.size());
  size_t semi = line.find(';');
  if (semi == std::string_view::npos) return false;
  if (!ReadDeclaration(line.substr(0, semi), f)) return false;
  std::string_view rest = line.substr(semi + 1);
  uint32_t is_signed = 0;
  if (!NumberAfter(rest, "offset:", &f->offset) ||
      !NumberAfter(rest, "size:", &f->size)) {
    return false;
  }
  // Formats older than signed: fields leave it out.
  if (NumberAfter(rest, "signed:", &is_signed)) f->is_signed = is_signed != 0;
  return true;
}

// The value of "KEY: VALUE" on the line `line`, when it starts with KEY.
bool ValueOf(std::string_view line, std::string_view key,
             std::string_view* out) {
  if (!line.starts_with(key)) return false;
  *out = line.substr(key.size());
  while (!out->empty() && out->front() == ' ') out->remove_prefix(1);
  return true;
}

}  // namespace

const TracepointField* TracepointFormat::Field(
    std::string_view field_name) const {
  for (const TracepointField& f : fields) {
    if (f.name == field_name) return &f;
  }
  return nullptr;
}

std::string TracepointFormat::FieldNames() const {
  std::string out;
  for (const TracepointField& f : fields) {
    if (f.common()) continue;
    if (!out.empty()) out += ", ";
    out += f.name;
  }
  return out;
}

// A format file:
//   name: kmalloc
//   ID: 553
//   format:
//   	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
//   	...
//
//   	field:unsigned long call_site;	offset:8;	size:8;	signed:0;
//   	...
//   print fmt: "call_site=%pS ptr=%p ...", ...
bool TracepointFormats::AddFormat(std::string_view system,
                                  std::string_view text, std::string* err) {
  TracepointFormat format;
  format.system = std::string(system);
  bool named = false, has_id = false, in_fields = false;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    std::string_view value;
    if (ValueOf(line, "name:", &value)) {
      format.name = std::string(value);
      named = true;
    } else if (ValueOf(line, "ID:", &value)) {
      auto r = std::from_chars(value.data(), value.data() + value.size(),
                               format.id);
      if (r.ec != std::errc() || r.ptr != value.data() + value.size()) {
        *err = "event id is not a number: '" + std::string(line) + "'";
        return false;
      }
      has_id = true;
    } else if (line == "format:") {
      in_fields = true;
    } else if (ValueOf(line, "print fmt:", &value)) {
      format.print_fmt = std::string(value);
      break;
    } else if (in_fields && line.find("field:") != std::string_view::npos) {
      TracepointField f;
      if (!ReadFieldLine(line, &f)) {
        *err = "field line not understood: '" + std::string(line) + "'";
        return false;
      }
      format.fields.push_back(std::move(f));
    }
  }
  if (!named || !has_id) {
    *err = "event format of " + std::string(system) + " without " +
           (named ? "its ID" : "its name");
    return false;
  }
  // Kept in id order as they come, so that Find works on what a damaged
  // tracing data held before the damage too.
  auto at = std::upper_bound(
      formats_.begin(), formats_.end(), format.id,
      [](uint64_t id, const TracepointFormat& f) { return id < f.id; });
  formats_.insert(at, std::move(format));
  return true;
}

// The tracing data, as perf record writes it (its integers in the byte
// order of its own flag):
//   "\x17\x08\x44tracing" "0.6\0" u8 big_endian u8 long_size u32 page_size
//   "header_page\0" u64 size, text; "header_event\0" u64 size, text
//   u32 count, then that many ftrace formats (u64 size, text)
//   u32 systems, each: its name "kmem\0", u32 count, then that many event
//     formats (u64 size, text)
//   then kallsyms, printk formats and saved cmdlines, not read here.
bool TracepointFormats::Read(std::string_view bytes, uint64_t offset,
                             std::string* err) {
  abi::PerfCursor c(bytes, offset, false);
  const abi::PerfCursor* at = &c;  // where a failure is reported
  auto fail = [&](const std::string& what) {
    *err = "offset " + std::to_string(at->offset()) + ": tracing data: " +
           what;
    return false;
  };
  std::string_view magic, version;
  if (!c.Bytes(kMagic.size(), &magic) || magic != kMagic) {
    return fail("no tracing data header");
  }
  std::string_view flags;  // u8 big_endian, u8 long_size
  if (!GetCString(&c, kMaxVersion, &version) || !c.Bytes(2, &flags)) {
    return fail("header cut short");
  }
  swapped_ = (flags[0] != 0) != (std::endian::native == std::endian::big);
  abi::PerfCursor d(bytes.substr(c.pos()), c.offset(), swapped_);
  at = &d;
  uint32_t page_size = 0;
  std::string_view name, block;
  if (!d.Get(&page_size) || !GetCString(&d, 16, &name) ||
      name != "header_page" || !GetBlock<uint64_t>(&d, &block) ||
      !GetCString(&d, 16, &name) || name != "header_event" ||
      !GetBlock<uint64_t>(&d, &block)) {
    return fail("header page or event description cut short");
  }
  // A u32 count of things of at least `least` bytes each, that follow.
  auto count_of = [&d](size_t least, uint32_t* n) {
    return d.Get(n) && *n <= d.left() / least;
  };
  uint32_t count = 0;
  if (!count_of(8, &count)) return fail("ftrace format count past the end");
  for (uint32_t i = 0; i < count; ++i) {
    if (!GetBlock<uint64_t>(&d, &block)) return fail("ftrace format cut short");
  }
  uint32_t systems = 0;
  if (!count_of(5, &systems)) return fail("event system count past the end");
  for (uint32_t s = 0; s < systems; ++s) {
    std::string_view system;
    if (!GetCString(&d, 256, &system) || !count_of(8, &count)) {
      return fail("event system cut short");
    }
    for (uint32_t i = 0; i < count; ++i) {
      const abi::PerfCursor format_at = d;
      std::string what;
      if (!GetBlock<uint64_t>(&d, &block)) return fail("event format cut short");
      if (!AddFormat(system, block, &what)) {
        at = &format_at;
        return fail(what);
      }
    }
  }
  return true;
}

const TracepointFormat* TracepointFormats::Find(uint64_t id) const {
  auto it = std::lower_bound(
      formats_.begin(), formats_.end(), id,
      [](const TracepointFormat& f, uint64_t v) { return f.id < v; });
  return it != formats_.end() && it->id == id ? &*it : nullptr;
}

std::optional<uint64_t> ReadIntegerField(const TracepointField& f,
                                         std::string_view raw, bool swapped) {
  if (!f.integer() || f.offset > raw.size() ||
      raw.size() - f.offset < f.size) {
    return std::nullopt;
  }
  abi::PerfCursor c(raw.substr(f.offset, f.size), 0, swapped);
  uint64_t v = 0;
  switch (f.size) {
    case 1: {
      const auto b = static_cast<uint8_t>(raw[f.offset]);
      v = f.is_signed ? static_cast<uint64_t>(static_cast<int8_t>(b)) : b;
      break;
    }
    case 2: {
      uint16_t h = 0;
      c.Get(&h);
      v = f.is_signed ? static_cast<uint64_t>(static_cast<int16_t>(h)) : h;
      break;
    }
    case 4: {
      uint32_t w = 0;
      c.Get(&w);
      v = f.is_signed ? static_cast<uint64_t>(static_cast<int32_t>(w)) : w;
      break;
    }
    default:
      c.Get(&v);
  }
  return v;
}

}  // namespace flamefold
