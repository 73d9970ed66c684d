// PerfArchive: unpacking `perf archive` bundles safely. The archives are
// written here with libarchive's writer (tar, bzip2 as perf archive's).
#include <archive.h>
#include <archive_entry.h>
#include <doctest/doctest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "perfdata/archive_lib.h"
#include "perfdata/perf_archive.h"

namespace flamefold {
namespace {

struct Entry {
  std::string name;
  std::string data;          // a file's content
  std::string link;          // a symlink's target ("" none)
  bool dir = false;
  std::string hard;          // a hard link's target ("" none)
};

// A tar.bz2 of `entries`, as bytes.
std::string MakeArchive(const std::vector<Entry>& entries) {
  std::vector<char> buf(1 << 20);
  size_t used = 0;
  struct archive* a = archive_write_new();
  archive_write_set_format_pax_restricted(a);
  archive_write_add_filter_bzip2(a);
  REQUIRE(archive_write_open_memory(a, buf.data(), buf.size(), &used) ==
          ARCHIVE_OK);
  for (const Entry& e : entries) {
    struct archive_entry* ae = archive_entry_new();
    archive_entry_set_pathname(ae, e.name.c_str());
    archive_entry_set_perm(ae, 0644);
    if (!e.hard.empty()) {
      archive_entry_set_filetype(ae, AE_IFREG);
      archive_entry_set_hardlink(ae, e.hard.c_str());
    } else if (!e.link.empty()) {
      archive_entry_set_filetype(ae, AE_IFLNK);
      archive_entry_set_symlink(ae, e.link.c_str());
    } else if (e.dir) {
      archive_entry_set_filetype(ae, AE_IFDIR);
    } else {
      archive_entry_set_filetype(ae, AE_IFREG);
      archive_entry_set_size(ae, static_cast<la_int64_t>(e.data.size()));
    }
    REQUIRE(archive_write_header(a, ae) == ARCHIVE_OK);
    if (e.link.empty() && e.hard.empty() && !e.dir) {
      archive_write_data(a, e.data.data(), e.data.size());
    }
    archive_entry_free(ae);
  }
  archive_write_close(a);
  archive_write_free(a);
  return std::string(buf.data(), used);
}

// A scratch directory, removed (with what the test put in it) at the end.
struct Scratch {
  std::string dir;
  Scratch() {
    char templ[] = "/tmp/ff-archive-test-XXXXXX";
    REQUIRE(mkdtemp(templ));
    dir = templ;
  }
  ~Scratch() { CHECK(system(("rm -rf '" + dir + "'").c_str()) == 0); }
  std::string Write(const std::string& name, const std::string& bytes) {
    std::string path = dir + "/" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
};

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool Exists(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0;
}

// The layout perf archive writes: a build-id link and the object's copy.
const std::vector<Entry> kPerfTree = {
    {".build-id/ab/cdef", "", "../../usr/lib/libx.so/abcdef"},
    {"usr/lib/libx.so/abcdef", "", "", true},
    {"usr/lib/libx.so/abcdef/elf", "ELF copy"},
    {"usr/lib/libx.so/abcdef/probes", ""},
};

TEST_CASE("libarchive's functions load once, every one resolved") {
  std::string err;
  const flamefold::ArchiveLib* lib = flamefold::LoadArchiveLib(&err);
  REQUIRE_MESSAGE(lib != nullptr, err);
  CHECK(flamefold::LoadArchiveLib(&err) == lib);
  // The very functions this test links with directly.
#define CHECK_SAME(name) CHECK_MESSAGE(bool(lib->name == &::name), #name);
  FLAMEFOLD_ARCHIVE_FUNCTIONS(CHECK_SAME)
#undef CHECK_SAME
}

TEST_CASE("a perf archive unpacks into a build-id tree, removed after") {
  Scratch s;
  std::string path = s.Write("perf.data.tar.bz2", MakeArchive(kPerfTree));
  std::string dir;
  {
    PerfArchive archive;
    std::string err;
    REQUIRE(archive.Open(path, &err));
    dir = archive.dir();
    CHECK(archive.warnings().empty());
    CHECK(archive.entries() == 4);
    // Read through the link, as the symbol resolver reads it.
    CHECK(Slurp(dir + "/.build-id/ab/cdef/elf") == "ELF copy");
  }
  CHECK(!dir.empty());
  CHECK(!Exists(dir));
}

TEST_CASE("hostile entries are refused and counted, the rest unpacked") {
  Scratch s;
  std::vector<Entry> entries = {
      {"../escape", "x"},
      {"/tmp/ff-archive-absolute", "x"},
      {"a/../../escape2", "x"},
      {"out", "", "/etc"},                 // absolute symlink
      {"sub/up", "", "../../.."},          // climbs out
      {"sub/via", "", "d/../../.."},       // ".." after a name
      {"hl", "", "", false, "../etc/passwd"},
      {"ok/file", "fine"},
      {"sub/ok", "", "../ok"},
  };
  std::string path = s.Write("hostile.tar.bz2", MakeArchive(entries));
  PerfArchive archive;
  std::string err;
  REQUIRE(archive.Open(path, &err));
  CHECK(archive.entries() == 2);
  REQUIRE(archive.warnings().size() == 1);
  CHECK(archive.warnings()[0] ==
        path + ": 7 entries were not unpacked (first: ../escape: absolute "
               "or holds '..')");
  CHECK(!Exists(s.dir + "/escape"));
  CHECK(!Exists("/tmp/ff-archive-absolute"));
  CHECK(!Exists(archive.dir() + "/out"));
  CHECK(Slurp(archive.dir() + "/sub/ok/file") == "fine");
}

TEST_CASE("nothing is written through a symlink in the archive") {
  Scratch s;
  // A safe-looking link to ".", then a file "through" it twice over.
  std::vector<Entry> entries = {
      {"here", "", "."},
      {"here/file", "x"},
  };
  std::string path = s.Write("through.tar.bz2", MakeArchive(entries));
  PerfArchive archive;
  std::string err;
  REQUIRE(archive.Open(path, &err));
  CHECK(archive.entries() == 1);
  REQUIRE(archive.warnings().size() == 1);
  CHECK(archive.warnings()[0].find("1 entry was not unpacked (first: "
                                   "here/file: ") != std::string::npos);
  CHECK(!Exists(archive.dir() + "/file"));
}

TEST_CASE("a cut-short archive keeps what came before and says so") {
  Scratch s;
  std::vector<Entry> entries = kPerfTree;
  std::string big;
  for (int i = 0; i < 200000; ++i) big += std::to_string(i * 7919) + "\n";
  entries.push_back({"usr/lib/liby.so/1234/elf", big});
  entries.push_back({".build-id/12/34", "", "../../usr/lib/liby.so/1234"});
  std::string whole = MakeArchive(entries);
  std::string path =
      s.Write("cut.tar.bz2", whole.substr(0, whole.size() * 3 / 4));
  PerfArchive archive;
  std::string err;
  REQUIRE(archive.Open(path, &err));
  CHECK(Slurp(archive.dir() + "/.build-id/ab/cdef/elf") == "ELF copy");
  CHECK(!Exists(archive.dir() + "/usr/lib/liby.so/1234/elf"));  // no half
  REQUIRE(archive.warnings().size() == 1);
  CHECK(archive.warnings()[0].rfind(path + ": cut short or corrupt inside "
                                           "usr/lib/liby.so/1234/elf after 4 "
                                           "entries (",
                                    0) == 0);
}

TEST_CASE("an archive cut short before its first entry is damaged, not foreign") {
  Scratch s;
  std::string whole = MakeArchive(kPerfTree);
  std::string path = s.Write("early.tar.bz2", whole.substr(0, 100));
  PerfArchive archive;
  std::string err;
  REQUIRE(archive.Open(path, &err));
  CHECK(archive.entries() == 0);
  CHECK(!archive.dir().empty());
  REQUIRE(archive.warnings().size() == 1);
  CHECK(archive.warnings()[0].rfind(
            path + ": cut short or corrupt after 0 entries (", 0) == 0);
}

TEST_CASE("what is not an archive cannot be opened") {
  Scratch s;
  PerfArchive archive;
  std::string err;
  CHECK(!archive.Open(s.dir + "/none.tar.bz2", &err));
  CHECK(err.rfind(s.dir + "/none.tar.bz2: ", 0) == 0);
  std::string path = s.Write("text", std::string(2000, 'x'));
  CHECK(!archive.Open(path, &err));
  CHECK(err.rfind(path + ": not a perf archive: ", 0) == 0);
  CHECK(archive.dir().empty());
}

TEST_CASE("archive names and link targets that stay inside") {
  CHECK(ArchiveNameIsSafe("a/b"));
  CHECK(ArchiveNameIsSafe("./a/b/"));
  CHECK(!ArchiveNameIsSafe(""));
  CHECK(!ArchiveNameIsSafe("."));
  CHECK(!ArchiveNameIsSafe("/a"));
  CHECK(!ArchiveNameIsSafe("a/.."));
  CHECK(ArchiveLinkIsSafe(".build-id/ab/cd", "../../x/y/cd"));
  CHECK(!ArchiveLinkIsSafe(".build-id/ab/cd", "../../../x"));
  CHECK(!ArchiveLinkIsSafe("a/b", "/a"));
  CHECK(!ArchiveLinkIsSafe("a/b", ""));
  CHECK(!ArchiveLinkIsSafe("a/b", "c/../.."));
  CHECK(ArchiveLinkIsSafe("a/b", "c/d"));
}

}  // namespace
}  // namespace flamefold
