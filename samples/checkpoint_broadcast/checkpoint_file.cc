#include "samples/checkpoint_broadcast/checkpoint_file.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace checkpoint {
namespace {

constexpr char kMagic[8] = {'P', 'J', 'X', 'C', 'K', 'P', 'T', '\0'};
constexpr uint32_t kVersion = 1;
constexpr uint64_t kAlignment = 64;
// Bounds that keep a corrupt header from asking for absurd allocations.
constexpr uint32_t kMaxTensors = 1 << 20;
constexpr uint32_t kMaxNameBytes = 4096;
constexpr uint32_t kMaxRank = 16;

absl::StatusOr<uint64_t> ElementBytes(PJRTX_Buffer_Type type) {
  switch (type) {
    case PJRTX_Buffer_Type_F32:
    case PJRTX_Buffer_Type_S32:
    case PJRTX_Buffer_Type_U32:
      return 4;
    case PJRTX_Buffer_Type_F64:
    case PJRTX_Buffer_Type_S64:
    case PJRTX_Buffer_Type_U64:
    case PJRTX_Buffer_Type_C64:
      return 8;
    case PJRTX_Buffer_Type_C128:
      return 16;
    case PJRTX_Buffer_Type_F16:
    case PJRTX_Buffer_Type_BF16:
    case PJRTX_Buffer_Type_S16:
    case PJRTX_Buffer_Type_U16:
      return 2;
    case PJRTX_Buffer_Type_S8:
    case PJRTX_Buffer_Type_U8:
    case PJRTX_Buffer_Type_PRED:
    case PJRTX_Buffer_Type_F8E5M2:
    case PJRTX_Buffer_Type_F8E4M3FN:
      return 1;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("element type ", static_cast<int>(type),
                       " has no fixed size in a checkpoint"));
  }
}

uint64_t AlignUp(uint64_t value) {
  return (value + kAlignment - 1) / kAlignment * kAlignment;
}

// Little-endian host assumed (x86-64, AArch64): values are copied as they
// are in memory.
template <typename T>
void Put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(value));
}

class Reader {
 public:
  explicit Reader(absl::Span<const uint8_t> bytes) : bytes_(bytes) {}
  template <typename T>
  bool Take(T* value) {
    if (at_ + sizeof(T) > bytes_.size()) return Short(sizeof(T));
    std::memcpy(value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return true;
  }
  bool TakeString(uint32_t size, std::string* value) {
    if (at_ + size > bytes_.size()) return Short(size);
    value->assign(reinterpret_cast<const char*>(bytes_.data() + at_), size);
    at_ += size;
    return true;
  }
  size_t at() const { return at_; }
  uint64_t need() const { return need_; }

 private:
  bool Short(size_t more) {
    need_ = at_ + more;
    return false;
  }
  absl::Span<const uint8_t> bytes_;
  size_t at_ = 0;
  uint64_t need_ = 0;
};

}  // namespace

absl::StatusOr<std::string> EncodeHeader(std::vector<TensorEntry>& tensors,
                                         Header* layout) {
  uint64_t header_bytes = kFixedHeaderBytes;
  for (const TensorEntry& t : tensors) {
    header_bytes += 4 + t.name.size() + 4 + 4 + 8 * t.dims.size() + 8 + 8;
  }
  uint64_t offset = AlignUp(header_bytes);
  for (TensorEntry& t : tensors) {
    PJRTX_ASSIGN_OR_RETURN(uint64_t element, ElementBytes(t.type));
    uint64_t count = 1;
    for (int64_t d : t.dims) count *= static_cast<uint64_t>(d);
    t.offset = offset;
    t.bytes = count * element;
    offset = AlignUp(offset + t.bytes);
  }
  std::string out(kMagic, sizeof(kMagic));
  Put<uint32_t>(out, kVersion);
  Put<uint32_t>(out, static_cast<uint32_t>(tensors.size()));
  for (const TensorEntry& t : tensors) {
    Put<uint32_t>(out, static_cast<uint32_t>(t.name.size()));
    out += t.name;
    Put<int32_t>(out, static_cast<int32_t>(t.type));
    Put<uint32_t>(out, static_cast<uint32_t>(t.dims.size()));
    for (int64_t d : t.dims) Put<int64_t>(out, d);
    Put<uint64_t>(out, t.offset);
    Put<uint64_t>(out, t.bytes);
  }
  layout->tensors = tensors;
  layout->header_bytes = header_bytes;
  layout->file_bytes = tensors.empty()
                           ? header_bytes
                           : tensors.back().offset + tensors.back().bytes;
  return out;
}

absl::StatusOr<Header> DecodeHeader(absl::Span<const uint8_t> prefix,
                                    uint64_t* needed) {
  Reader reader(prefix);
  auto short_of = [&reader, needed] {
    if (needed != nullptr) *needed = reader.need();
    return absl::OutOfRangeError(absl::StrCat(
        "the checkpoint header continues past the bytes read; need ",
        reader.need(), " bytes"));
  };
  std::string magic;
  if (!reader.TakeString(sizeof(kMagic), &magic)) return short_of();
  if (std::memcmp(magic.data(), kMagic, sizeof(kMagic)) != 0) {
    return absl::InvalidArgumentError(
        "not a pjrtx checkpoint: the file does not start with \"PJXCKPT\"");
  }
  uint32_t version = 0, count = 0;
  if (!reader.Take(&version) || !reader.Take(&count)) return short_of();
  if (version != kVersion) {
    return absl::InvalidArgumentError(absl::StrCat(
        "checkpoint format version ", version, "; expected ", kVersion));
  }
  if (count > kMaxTensors) {
    return absl::InvalidArgumentError(absl::StrCat(
        "checkpoint claims ", count, " tensors; at most ", kMaxTensors));
  }
  Header header;
  for (uint32_t i = 0; i < count; ++i) {
    TensorEntry t;
    uint32_t name_bytes = 0, rank = 0;
    int32_t type = 0;
    if (!reader.Take(&name_bytes)) return short_of();
    if (name_bytes > kMaxNameBytes) {
      return absl::InvalidArgumentError(
          absl::StrCat("tensor ", i, "'s name has ", name_bytes,
                       " bytes; at most ", kMaxNameBytes));
    }
    if (!reader.TakeString(name_bytes, &t.name) || !reader.Take(&type) ||
        !reader.Take(&rank)) {
      return short_of();
    }
    if (rank > kMaxRank) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tensor '", t.name, "' has rank ", rank, "; at most ", kMaxRank));
    }
    t.type = static_cast<PJRTX_Buffer_Type>(type);
    uint64_t count_elements = 1;
    for (uint32_t d = 0; d < rank; ++d) {
      int64_t dim = 0;
      if (!reader.Take(&dim)) return short_of();
      if (dim < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("tensor '", t.name, "' has dimension ", dim));
      }
      t.dims.push_back(dim);
      count_elements *= static_cast<uint64_t>(dim);
    }
    if (!reader.Take(&t.offset) || !reader.Take(&t.bytes)) return short_of();
    absl::StatusOr<uint64_t> element = ElementBytes(t.type);
    if (!element.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("tensor '", t.name, "': ", element.status().message()));
    }
    if (t.bytes != count_elements * *element) {
      return absl::InvalidArgumentError(
          absl::StrCat("tensor '", t.name, "' claims ", t.bytes,
                       " bytes; its shape needs ", count_elements * *element));
    }
    if (t.offset % kAlignment != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("tensor '", t.name, "' starts at ", t.offset,
                       ", not a multiple of ", kAlignment));
    }
    header.tensors.push_back(std::move(t));
  }
  header.header_bytes = reader.at();
  uint64_t end = header.header_bytes;
  for (const TensorEntry& t : header.tensors) {
    if (t.offset < end) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tensor '", t.name, "' at ", t.offset,
          " overlaps the header or the tensor before it (which ends at ", end,
          ")"));
    }
    end = t.offset + t.bytes;
  }
  header.file_bytes = end;
  return header;
}

}  // namespace checkpoint
