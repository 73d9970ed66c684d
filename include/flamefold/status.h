// flamefold's C++ API: what every call returns, and where warnings go.
//
// No call throws: each returns a Status, whose message is the text the tool
// prints after "<tool>: error: " (parse errors name "FILE:LINE: ").
#ifndef FLAMEFOLD_API_STATUS_H_
#define FLAMEFOLD_API_STATUS_H_

#include <functional>
#include <string>
#include <string_view>
#include <utility>

namespace flamefold::api {

/// Why a call failed; the values are the tools' exit statuses.
enum class StatusCode : int {
  kOk = 0,
  kDataError = 1,   // unreadable or corrupt input, a failed write
  kUsageError = 2,  // invalid options, or no stacks to draw
};

/// The outcome of a call: ok, or a code and the message the tool prints.
class Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message)
      : code_(code), message_(std::move(message)) {}
  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

/// Receives each warning and note as the tool prints it on stderr, without
/// the newline ("flamefold: warning: ..."). When none is given they are
/// printed on stderr.
using MessageHandler = std::function<void(std::string_view line)>;

/// The version of the library ("0.1.0"), as the tools' --version prints it.
const char* Version();

}  // namespace flamefold::api

#endif  // FLAMEFOLD_API_STATUS_H_
