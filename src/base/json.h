// JSON text: strings and numbers, for every output that writes JSON
// (flamereport --format=json, flamefold --format=speedscope and d3).
#ifndef FLAMEFOLD_BASE_JSON_H_
#define FLAMEFOLD_BASE_JSON_H_

#include <string>
#include <string_view>

#include "base/perl_number.h"

namespace flamefold {

/// Appends `s` as a JSON string with its quotes. Control characters, '"'
/// and '\\' are escaped; bytes that are not valid UTF-8 become U+FFFD
/// (base/utf8.h's rule), so the result is valid JSON (and UTF-8) whatever
/// the input.
void AppendJsonString(std::string_view s, std::string* out);

/// AppendJsonString's result alone.
std::string JsonString(std::string_view s);

/// Appends the count as a JSON number (integers exactly; others as Perl
/// prints them, which is valid JSON for finite values; null for others).
void AppendJsonNumber(const PerlNumber& n, std::string* out);

/// AppendJsonNumber's result alone.
std::string JsonNumber(const PerlNumber& n);

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_JSON_H_
