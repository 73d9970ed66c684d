// symbol_load [--kallsyms FILE] FILE...: the time to load each ELF file's
// symbols as the perf.data replay does (LoadElfSymbols: read, sort, perf's
// clean-ups), best of 7, and how many symbols the table keeps. With no
// file: cc1plus and libc, the build host's biggest tables, where they are
// installed. --kallsyms: the time to read a kallsyms file (LoadKallsyms,
// mapped), best of 7, and whether its symbols are made when looked up.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "symbols/elf_symbols.h"
#include "symbols/kallsyms.h"
#include "symbols/symbol_table.h"

// LoadKallsyms on `path`, best of 7.
void TimeKallsyms(const std::string& path) {
  double best = 1e9;
  bool lazy = false;
  for (int run = 0; run < 7; ++run) {
    auto start = std::chrono::steady_clock::now();
    flamefold::SymbolTable core;
    std::vector<flamefold::KallsymsModule> modules;
    std::string err;
    if (!flamefold::LoadKallsyms(path, &core, &modules, &err, true)) {
      std::printf("symbol_load: %s\n", err.c_str());
      return;
    }
    std::chrono::duration<double, std::milli> took =
        std::chrono::steady_clock::now() - start;
    best = std::min(best, took.count());
    lazy = core.lazy();
  }
  std::printf("%8.2f ms %s %s\n", best,
              lazy ? "symbols made when looked up" : "every symbol made",
              path.c_str());
}

int main(int argc, char** argv) {
  std::vector<std::string> files(argv + 1, argv + argc);
  if (files.size() >= 2 && files[0] == "--kallsyms") {
    TimeKallsyms(files[1]);
    files.erase(files.begin(), files.begin() + 2);
    if (files.empty()) return 0;
  }
  if (files.empty()) {
    files = {"/usr/lib/gcc/x86_64-linux-gnu/12/cc1plus",
             "/usr/lib/x86_64-linux-gnu/libc.so.6"};
  }
  for (const std::string& file : files) {
    double best = 1e9;
    size_t kept = 0;
    std::string err;
    bool ok = true;
    for (int run = 0; run < 7 && ok; ++run) {
      auto start = std::chrono::steady_clock::now();
      flamefold::SymbolTable table;
      ok = flamefold::LoadElfSymbols(file, file, &table, &err);
      std::chrono::duration<double, std::milli> took =
          std::chrono::steady_clock::now() - start;
      best = std::min(best, took.count());
      kept = table.size();
    }
    if (!ok) {
      std::printf("symbol_load: %s: skipped (%s)\n", file.c_str(), err.c_str());
      continue;
    }
    std::printf("%8.2f ms %7zu symbols %s\n", best, kept, file.c_str());
  }
  return 0;
}
