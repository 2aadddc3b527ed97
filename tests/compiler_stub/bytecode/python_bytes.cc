#include "tests/compiler_stub/bytecode/python_bytes.h"

#include "absl/strings/str_cat.h"

namespace pjrtx::bytecode_testing {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes one b'...' literal starting at `pos` (at the 'b'); moves `pos`
// past it.
absl::StatusOr<std::string> DecodeLiteral(std::string_view s, size_t& pos) {
  if (pos + 1 >= s.size() || s[pos] != 'b' ||
      (s[pos + 1] != '\'' && s[pos + 1] != '"')) {
    return absl::InvalidArgumentError("expected a bytes literal");
  }
  const char quote = s[pos + 1];
  pos += 2;
  std::string out;
  while (pos < s.size() && s[pos] != quote) {
    const char c = s[pos++];
    if (c != '\\') {
      out += c;
      continue;
    }
    if (pos >= s.size()) break;
    const char e = s[pos++];
    switch (e) {
      case 'x': {
        if (pos + 1 >= s.size() || HexDigit(s[pos]) < 0 ||
            HexDigit(s[pos + 1]) < 0) {
          return absl::InvalidArgumentError("bad \\x escape");
        }
        out += static_cast<char>(HexDigit(s[pos]) * 16 + HexDigit(s[pos + 1]));
        pos += 2;
        break;
      }
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'a':
        out += '\a';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'v':
        out += '\v';
        break;
      case '\\':
        out += '\\';
        break;
      case '\'':
        out += '\'';
        break;
      case '"':
        out += '"';
        break;
      case '\n':
        break;
      default:
        if (e >= '0' && e <= '7') {
          int value = e - '0';
          for (int i = 0;
               i < 2 && pos < s.size() && s[pos] >= '0' && s[pos] <= '7'; ++i) {
            value = value * 8 + (s[pos++] - '0');
          }
          out += static_cast<char>(value);
        } else {
          out += '\\';
          out += e;
        }
    }
  }
  if (pos >= s.size()) return absl::InvalidArgumentError("unterminated bytes");
  ++pos;  // closing quote
  return out;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ExtractBytesLiterals(
    std::string_view source, std::string_view key) {
  std::vector<std::string> out;
  const std::string marker =
      absl::StrCat(absl::string_view(key.data(), key.size()), "=");
  size_t pos = 0;
  while ((pos = source.find(marker, pos)) != std::string_view::npos) {
    pos += marker.size();
    std::string value;
    while (true) {
      absl::StatusOr<std::string> literal = DecodeLiteral(source, pos);
      if (!literal.ok()) return literal.status();
      value += *literal;
      size_t next = pos;
      while (next < source.size() &&
             (source[next] == ' ' || source[next] == '\n')) {
        ++next;
      }
      if (next + 1 < source.size() && source[next] == 'b' &&
          (source[next + 1] == '\'' || source[next + 1] == '"')) {
        pos = next;
        continue;
      }
      break;
    }
    out.push_back(std::move(value));
  }
  return out;
}

}  // namespace pjrtx::bytecode_testing
