// String building for the interpreter's messages. (The library keeps to
// the standard library, so that the fake driver it goes into needs
// nothing else.)
#ifndef PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_TEXT_H_
#define PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_TEXT_H_

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

namespace fake_cuda::ptx {

inline void AppendPiece(std::string& out, std::string_view piece) {
  out.append(piece);
}

template <std::integral T>
requires(!std::same_as<T, char> &&
         !std::same_as<T, bool>) void AppendPiece(std::string& out, T value) {
  out.append(std::to_string(value));
}

// The pieces (strings and integers) concatenated.
template <typename... Pieces>
std::string Cat(const Pieces&... pieces) {
  std::string out;
  (AppendPiece(out, pieces), ...);
  return out;
}

// "0x1f".
inline std::string Hex(uint64_t value) {
  std::string digits;
  do {
    digits.insert(digits.begin(), "0123456789abcdef"[value & 0xF]);
    value >>= 4;
  } while (value != 0);
  return "0x" + digits;
}

}  // namespace fake_cuda::ptx

#endif  // PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_TEXT_H_
