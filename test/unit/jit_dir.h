// A symbol source for tests of the replay's parts: a symfs directory
// holding a JIT map for pid 42 and a kallsyms, removed at the end.
#ifndef FLAMEFOLD_TEST_JIT_DIR_H_
#define FLAMEFOLD_TEST_JIT_DIR_H_

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "symbols/symbol_resolver.h"

namespace flamefold::testing {

class JitDir {
 public:
  // `extra`: more lines of the JIT map.
  explicit JitDir(const std::string& extra = "") {
    char tmpl[] = "/tmp/ffjitXXXXXX";
    dir_ = mkdtemp(tmpl);
    std::string tmp = dir_ + "/tmp";
    mkdir(tmp.c_str(), 0755);
    std::ofstream(tmp + "/perf-42.map") << "1000 100 jit_leaf\n"
                                           "1100 100 LJava/Thing;::run\n"
                                           "1200 0 empty\n"
                                        << extra;
    std::ofstream(dir_ + "/kallsyms") << "ffffffff81000000 T _text\n"
                                         "ffffffff81000100 t do_work\n"
                                         "ffffffff81000200 D some_data\n"
                                         "ffffffff81000300 T entry\n"
                                         "ffffffff83000000 T start_kernel\n";
  }
  ~JitDir() {
    std::remove((dir_ + "/tmp/perf-42.map").c_str());
    std::remove((dir_ + "/kallsyms").c_str());
    rmdir((dir_ + "/tmp").c_str());
    rmdir(dir_.c_str());
  }
  SymbolOptions Options() const {
    SymbolOptions o;
    o.symfs = dir_;
    o.kallsyms = dir_ + "/kallsyms";
    o.debug_dir = dir_;
    return o;
  }

 private:
  std::string dir_;
};

}  // namespace flamefold::testing

#endif  // FLAMEFOLD_TEST_JIT_DIR_H_
