// Tokens of PTX text. Words run over letters, digits and "_$%.", so that
// an opcode ("ld.param.u64"), a register ("%ctaid.x"), a directive
// (".reg"), a label ("$L__loop") and a literal ("0f3F800000", "7.8",
// "1.5e-3") are one token each; everything else that is not blank or a
// comment is a one-character punctuation token.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_LEXER_H_
#define PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_LEXER_H_

#include <string>
#include <string_view>
#include <vector>

namespace fake_cuda::ptx {

struct Token {
  enum class Kind { kWord, kPunctuation, kEnd };
  Kind kind = Kind::kEnd;
  std::string_view text;  // Into the module text; empty for kEnd.
  int line = 0;

  bool Is(std::string_view s) const { return kind != Kind::kEnd && text == s; }
};

// The tokens of `text`, ending with one kEnd token. Returns false with
// "line N: ..." in `error` for an unterminated comment or a character PTX
// does not use.
bool Tokenize(std::string_view text, std::vector<Token>* tokens,
              std::string* error);

}  // namespace fake_cuda::ptx

#endif  // PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_LEXER_H_
