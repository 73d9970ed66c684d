// fold_server: a small service built on flamefold's C++ API. It folds the
// profiles it receives, one per connection, and answers with the folded
// stacks or their flame graph:
//
//   fold_server [--svg] [--title TEXT] [--kernel] [--pid] [--once]
//               (--stdin | --unix PATH | --tcp PORT)
//
// A client sends a profile (perf script text, perf.data or folded stacks,
// plain, gzip or zstd) and shuts its side down; the answer follows, then
// the server closes the connection. A profile that cannot be folded gets
// "error: MESSAGE" instead. --tcp listens on 127.0.0.1 only; --once stops
// after the first connection; --stdin folds standard input to standard
// output once.
//
// Build against an installed flamefold:
//   c++ -std=c++20 -O2 fold_server.cc -o fold_server $(pkg-config --cflags --libs flamefold)
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include <flamefold/flamefold.h>

namespace {

namespace api = flamefold::api;

struct Config {
  bool svg = false;
  bool once = false;
  api::FoldOptions fold;
  api::SvgOptions graph;
  bool use_stdin = false;
  std::string unix_path;
  int tcp_port = -1;
};

[[noreturn]] void Usage() {
  std::fputs("usage: fold_server [--svg] [--title TEXT] [--kernel] [--pid] "
             "[--once] (--stdin | --unix PATH | --tcp PORT)\n", stderr);
  std::exit(2);
}

Config ParseArgs(int argc, char** argv) {
  Config c;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) Usage();
      return argv[++i];
    };
    if (a == "--svg") c.svg = true;
    else if (a == "--once") c.once = true;
    else if (a == "--kernel") c.fold.kernel = true;
    else if (a == "--pid") c.fold.pid = true;
    else if (a == "--title") c.graph.title = value();
    else if (a == "--stdin") c.use_stdin = true;
    else if (a == "--unix") c.unix_path = value();
    else if (a == "--tcp") c.tcp_port = std::atoi(value());
    else Usage();
  }
  int modes = c.use_stdin + !c.unix_path.empty() + (c.tcp_port >= 0);
  if (modes != 1) Usage();
  return c;
}

// Reads `fd` to its end.
bool ReadAll(int fd, std::string* out) {
  char buf[1 << 16];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n == 0) return true;
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    out->append(buf, static_cast<size_t>(n));
  }
}

bool WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// Folds the profile `bytes` and writes the answer to `fd`: the folded
// stacks, or their SVG streamed through the output callback.
void Answer(const Config& c, std::string_view bytes, int fd) {
  api::FoldedStacks stacks;
  api::Status status =
      api::Fold({api::Input::Buffer("profile", bytes)}, c.fold, &stacks);
  if (status.ok() && !c.svg) {
    WriteAll(fd, stacks.text());
    return;
  }
  if (status.ok()) {
    status = api::RenderSvg(stacks, c.graph, [fd](std::string_view svg) {
      return WriteAll(fd, svg);
    });
  }
  if (!status.ok()) WriteAll(fd, "error: " + status.message() + "\n");
}

int Listen(const Config& c) {
  int fd;
  if (!c.unix_path.empty()) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (c.unix_path.size() >= sizeof(addr.sun_path)) return -1;
    std::strcpy(addr.sun_path, c.unix_path.c_str());
    unlink(c.unix_path.c_str());
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)))
      return -1;
  } else {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(c.tcp_port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)))
      return -1;
  }
  return listen(fd, 16) == 0 ? fd : -1;
}

}  // namespace

int main(int argc, char** argv) {
  Config c = ParseArgs(argc, argv);
  c.fold.quiet = c.graph.quiet = true;  // a service: no warnings on stderr
  if (c.use_stdin) {
    std::string profile;
    if (!ReadAll(0, &profile)) return 1;
    Answer(c, profile, 1);
    return 0;
  }
  signal(SIGPIPE, SIG_IGN);  // a client that goes away ends its answer only
  int server = Listen(c);
  if (server < 0) {
    std::perror("fold_server: listen");
    return 1;
  }
  std::fprintf(stderr, "fold_server: flamefold %s, listening\n",
               api::Version());
  for (;;) {
    int client = accept4(server, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) {
      if (errno == EINTR) continue;
      std::perror("fold_server: accept");
      return 1;
    }
    std::string profile;
    if (ReadAll(client, &profile)) Answer(c, profile, client);
    close(client);
    if (c.once) break;
  }
  close(server);
  if (!c.unix_path.empty()) unlink(c.unix_path.c_str());
  return 0;
}
