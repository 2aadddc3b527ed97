#include "tests/plugins/cuda/ptx_interpreter/lexer.h"

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "tests/plugins/cuda/ptx_interpreter/text.h"

namespace fake_cuda::ptx {
namespace {

bool IsWordCharacter(char ch) {
  return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' ||
         ch == '$' || ch == '%' || ch == '.';
}

bool IsDigit(char ch) { return ch >= '0' && ch <= '9'; }

// A decimal literal so far ("1.5e", "2E") that an exponent sign continues.
bool AwaitsExponentSign(std::string_view word) {
  if (word.size() < 2 || !IsDigit(word[0])) return false;
  const char last = word.back();
  if (last != 'e' && last != 'E') return false;
  if (word.size() > 1 && (word[1] == 'x' || word[1] == 'X' || word[1] == 'f' ||
                          word[1] == 'F' || word[1] == 'd' || word[1] == 'D')) {
    return false;  // Hex digits, not an exponent.
  }
  for (char ch : word.substr(0, word.size() - 1)) {
    if (!IsDigit(ch) && ch != '.') return false;
  }
  return true;
}

}  // namespace

bool Tokenize(std::string_view text, std::vector<Token>* tokens,
              std::string* error) {
  tokens->clear();
  int line = 1;
  size_t i = 0;
  while (i < text.size()) {
    const char ch = text[i];
    if (ch == '\n') {
      ++line;
      ++i;
    } else if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' ||
               ch == '\v') {
      ++i;
    } else if (text.substr(i, 2) == "//") {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (text.substr(i, 2) == "/*") {
      const int start_line = line;
      const size_t end = text.find("*/", i + 2);
      if (end == std::string_view::npos) {
        *error = Cat("line ", start_line, ": unterminated comment");
        return false;
      }
      for (size_t k = i; k < end; ++k) line += text[k] == '\n' ? 1 : 0;
      i = end + 2;
    } else if (IsWordCharacter(ch)) {
      const size_t start = i;
      while (i < text.size()) {
        if (IsWordCharacter(text[i])) {
          ++i;
        } else if ((text[i] == '+' || text[i] == '-') && i + 1 < text.size() &&
                   IsDigit(text[i + 1]) &&
                   AwaitsExponentSign(text.substr(start, i - start))) {
          ++i;
        } else {
          break;
        }
      }
      tokens->push_back(
          {Token::Kind::kWord, text.substr(start, i - start), line});
    } else if (std::string_view(",;:()[]{}<>@!+-|=").find(ch) !=
               std::string_view::npos) {
      tokens->push_back({Token::Kind::kPunctuation, text.substr(i, 1), line});
      ++i;
    } else {
      *error = Cat("line ", line, ": unexpected character '",
                   std::string(1, ch), "'");
      return false;
    }
  }
  tokens->push_back({Token::Kind::kEnd, {}, line});
  return true;
}

}  // namespace fake_cuda::ptx
