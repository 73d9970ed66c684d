// Diagnostics and exit statuses shared by every tool.
//
// Every message a tool prints starts with "<tool>: error: " or
// "<tool>: warning: ", and parse errors name "FILE:LINE: ". The exit statuses
// are part of the interface (each man page lists them under EXIT STATUS).
#ifndef FLAMEFOLD_BASE_DIAG_H_
#define FLAMEFOLD_BASE_DIAG_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace flamefold {

enum ExitStatus : int {
  kExitOk = 0,
  kExitDataError = 1,   // bad input data or an I/O error
  kExitUsage = 2,       // bad command line
  kExitRegression = 3,  // flamediff --threshold exceeded
};

/// Prints diagnostics on stderr with the tool's name as prefix.
class Diag {
 public:
  explicit Diag(std::string tool) : tool_(std::move(tool)) {}

  const std::string& tool() const { return tool_; }
  void Error(std::string_view msg) const;
  void Warning(std::string_view msg) const;
  /// "<tool>: note: MSG": what a tool chose by itself; -q silences it.
  void Note(std::string_view msg) const;
  /// Counted warnings are printed once, as "N lines: what" at the end.
  void set_quiet(bool quiet) { quiet_ = quiet; }
  /// Names the input a batch works on: "PATH: " goes before every message
  /// that does not already start with it.
  void set_context(std::string path) { context_ = std::move(path); }
  bool quiet() const { return quiet_; }

  enum class Severity { kError, kWarning, kNote };
  /// Receives each message instead of stderr: its severity and its text
  /// without the "<tool>: error: " prefix (the C++ API hands errors back
  /// in a status and warnings to its caller). -q still silences warnings
  /// and notes.
  using Handler = std::function<void(Severity, std::string_view text)>;
  void set_handler(Handler handler) { handler_ = std::move(handler); }

 private:
  std::string WithContext(std::string_view msg) const;
  // Prints "<tool>: LABEL: TEXT" on stderr, or hands it to handler_.
  void Emit(Severity severity, const char* label, std::string_view msg) const;
  std::string tool_;
  std::string context_;
  bool quiet_ = false;
  Handler handler_;
};

/// "FILE:LINE: " prefix for a message about a line of an input; "FILE" is
/// "-" for standard input, as users typed it.
std::string Where(std::string_view file, uint64_t line);

/// Returns `s` with control characters and invalid UTF-8 shown as \xNN, and
/// cut to `max` bytes with "..." so that a diagnostic quoting a hostile input
/// line stays one readable line.
std::string Printable(std::string_view s, size_t max = 120);

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_DIAG_H_
