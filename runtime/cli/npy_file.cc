#include "runtime/cli/npy_file.h"

#include <fstream>
#include <iterator>
#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"

namespace pjrtx::cli {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
// numpy.save pads the preamble and header to a multiple of this, so that
// the data that follows is aligned.
constexpr size_t kHeaderAlignment = 64;

// The header is a Python dict literal, e.g.
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// This reads exactly the literals numpy writes there: quoted strings,
// True/False, and tuples of integers.
class HeaderReader {
 public:
  explicit HeaderReader(absl::string_view text) : text_(text) {}

  bool Consume(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  bool String(std::string* out) {
    SkipSpace();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) {
      return false;
    }
    const char quote = text_[pos_++];
    const size_t end = text_.find(quote, pos_);
    if (end == absl::string_view::npos) return false;
    *out = std::string(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return true;
  }

  bool Bool(bool* out) {
    SkipSpace();
    for (const auto& [word, value] :
         {std::pair<absl::string_view, bool>{"True", true}, {"False", false}}) {
      if (text_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        *out = value;
        return true;
      }
    }
    return false;
  }

  // "()", "(3,)", "(3, 4)".
  bool Tuple(std::vector<int64_t>* out) {
    if (!Consume('(')) return false;
    out->clear();
    while (!Consume(')')) {
      SkipSpace();
      size_t end = pos_;
      while (end < text_.size() &&
             absl::ascii_isdigit(static_cast<unsigned char>(text_[end]))) {
        ++end;
      }
      int64_t value = 0;
      if (end == pos_ ||
          !absl::SimpleAtoi(text_.substr(pos_, end - pos_), &value)) {
        return false;
      }
      pos_ = end;
      out->push_back(value);
      if (!Consume(',')) return Consume(')');
    }
    return true;
  }

  // What is left to read.
  absl::string_view rest() const { return text_.substr(pos_); }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() &&
           absl::ascii_isspace(static_cast<unsigned char>(text_[pos_]))) {
      ++pos_;
    }
  }

  absl::string_view text_;
  size_t pos_ = 0;
};

struct Header {
  std::string descr;
  bool fortran_order = false;
  std::vector<int64_t> dims;
};

absl::StatusOr<Header> ParseHeader(absl::string_view text,
                                   const std::string& path) {
  auto malformed = [&](absl::string_view what) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": malformed .npy header (", what, "): ", text));
  };
  HeaderReader reader(text);
  Header header;
  bool has_descr = false, has_order = false, has_shape = false;
  if (!reader.Consume('{')) return malformed("expected '{'");
  while (!reader.Consume('}')) {
    std::string key;
    if (!reader.String(&key) || !reader.Consume(':')) {
      return malformed("expected 'key':");
    }
    if (key == "descr") {
      if (!reader.String(&header.descr)) {
        if (reader.rest().substr(0, 1) == "[") {
          return absl::UnimplementedError(
              absl::StrCat(path, ": structured arrays are not supported"));
        }
        return malformed("descr");
      }
      has_descr = true;
    } else if (key == "fortran_order") {
      if (!reader.Bool(&header.fortran_order)) return malformed(key);
      has_order = true;
    } else if (key == "shape") {
      if (!reader.Tuple(&header.dims)) return malformed(key);
      has_shape = true;
    } else {
      return malformed(absl::StrCat("unknown key '", key, "'"));
    }
    if (!reader.Consume(',')) {
      if (!reader.Consume('}')) return malformed("expected ',' or '}'");
      break;
    }
  }
  if (!has_descr || !has_order || !has_shape) {
    return malformed("needs descr, fortran_order and shape");
  }
  return header;
}

// "<f4" -> "f4"; UNIMPLEMENTED for the type codes ReadNpy does not take.
absl::StatusOr<std::string> CodeOfDescr(const std::string& descr,
                                        const std::string& path) {
  if (descr.size() < 3 ||
      absl::string_view("<>|=").find(descr[0]) == absl::string_view::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": malformed .npy descr '", descr, "'"));
  }
  std::string code = descr.substr(1);
  const int64_t item_size = NpyItemSize(code);
  if (item_size == 0) {
    return absl::UnimplementedError(absl::StrCat(
        path, ": arrays of NumPy type '", descr,
        "' are not supported (booleans, integers, floats, complex numbers "
        "and raw items 'V<n>' are)"));
  }
  if (descr[0] == '>' && item_size > 1 && code[0] != 'V') {
    return absl::UnimplementedError(absl::StrCat(
        path, ": big-endian arrays ('", descr, "') are not supported"));
  }
  return code;
}

}  // namespace

int64_t NpyItemSize(const std::string& code) {
  if (code.size() < 2 || code.size() > 6 ||
      absl::string_view("biufcV").find(code[0]) == absl::string_view::npos) {
    return 0;
  }
  int64_t size = 0;
  for (size_t i = 1; i < code.size(); ++i) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(code[i]))) return 0;
    size = size * 10 + (code[i] - '0');
  }
  return size;
}

absl::StatusOr<NpyArray> ReadNpy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read '", path, "'"));
  const std::string bytes((std::istreambuf_iterator<char>(in)),
                          std::istreambuf_iterator<char>());
  if (bytes.size() < kMagicSize + 4 ||
      bytes.compare(0, kMagicSize, kMagic) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": not an .npy file (no \\x93NUMPY magic)"));
  }
  const int major = static_cast<uint8_t>(bytes[kMagicSize]);
  size_t pos = kMagicSize + 2;
  size_t header_size = 0;
  if (major == 1) {
    header_size = static_cast<uint8_t>(bytes[pos]) |
                  static_cast<size_t>(static_cast<uint8_t>(bytes[pos + 1]))
                      << 8;
    pos += 2;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < pos + 4) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": truncated"));
    }
    for (int i = 3; i >= 0; --i) {
      header_size = header_size << 8 | static_cast<uint8_t>(bytes[pos + i]);
    }
    pos += 4;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": .npy format version ", major,
                     ".x is not supported (1.0 to 3.0 are)"));
  }
  if (bytes.size() < pos + header_size) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": truncated .npy header"));
  }
  absl::StatusOr<Header> header =
      ParseHeader(absl::string_view(bytes).substr(pos, header_size), path);
  if (!header.ok()) return header.status();
  pos += header_size;
  if (header->fortran_order) {
    return absl::UnimplementedError(
        absl::StrCat(path,
                     ": Fortran-order arrays are not supported (save a C-order "
                     "array: numpy.ascontiguousarray)"));
  }
  NpyArray array;
  absl::StatusOr<std::string> code = CodeOfDescr(header->descr, path);
  if (!code.ok()) return code.status();
  array.code = *std::move(code);
  array.dims = header->dims;
  int64_t size = NpyItemSize(array.code);
  for (int64_t d : array.dims) {
    if (d != 0 && size > std::numeric_limits<int64_t>::max() / d) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": too large"));
    }
    size *= d;
  }
  if (bytes.size() - pos != static_cast<uint64_t>(size)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": holds ", bytes.size() - pos,
                     " bytes of data; its header says ", size));
  }
  array.data.assign(bytes.begin() + pos, bytes.end());
  return array;
}

absl::Status WriteNpy(const std::string& path, const NpyArray& array) {
  const int64_t item_size = NpyItemSize(array.code);
  if (item_size == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("no NumPy type code '", array.code, "'"));
  }
  // Byte order: '|' where it does not apply, as numpy writes it.
  const char order = item_size == 1 || array.code[0] == 'V' ? '|' : '<';
  std::string shape = absl::StrJoin(array.dims, ", ");
  if (array.dims.size() == 1) shape += ",";
  std::string header =
      absl::StrCat("{'descr': '", std::string(1, order), array.code,
                   "', 'fortran_order': False, 'shape': (", shape, "), }");
  // Version 1.0 has a 2-byte header length; 2.0 a 4-byte one.
  int major = 1;
  size_t preamble = kMagicSize + 2 + 2;
  if (preamble + header.size() + 1 > 0xffff) {
    major = 2;
    preamble += 2;
  }
  const size_t total = preamble + header.size() + 1;
  header.append(
      (kHeaderAlignment - total % kHeaderAlignment) % kHeaderAlignment, ' ');
  header += '\n';
  std::string out(kMagic, kMagicSize);
  out += static_cast<char>(major);
  out += '\0';
  const size_t header_size = header.size();
  for (int i = 0; i < (major == 1 ? 2 : 4); ++i) {
    out += static_cast<char>(header_size >> (8 * i) & 0xff);
  }
  out += header;
  out.append(reinterpret_cast<const char*>(array.data.data()),
             array.data.size());
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(out.data(), static_cast<std::streamsize>(out.size()));
  file.close();
  if (!file) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot write '", path, "'"));
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::cli
