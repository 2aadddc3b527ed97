#include "compiler_stub/ptx/ptx_target.h"

#include <algorithm>
#include <iterator>

#include "absl/strings/str_cat.h"

namespace pjrtx::ptx {
namespace {

struct KnownTarget {
  int sm;
  int isa;
};
constexpr KnownTarget kTargets[] = {
    {75, 63},  {80, 70},  {86, 71},  {87, 74},  {89, 78},  {90, 78},
    {100, 86}, {103, 88}, {110, 90}, {120, 87}, {121, 88},
};

}  // namespace

absl::StatusOr<int> TargetIsa(const PtxTarget& target) {
  const KnownTarget* known =
      std::find_if(std::begin(kTargets), std::end(kTargets),
                   [&](const KnownTarget& t) { return t.sm == target.sm; });
  if (known == std::end(kTargets)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sm_", target.sm, " is not a target the PTX emitter knows"));
  }
  return known->isa;
}

absl::Status CheckKernelName(absl::string_view name) {
  auto is_letter = [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
  };
  const bool identifier = !name.empty() && is_letter(name[0]) &&
                          std::all_of(name.begin(), name.end(), [&](char ch) {
                            return is_letter(ch) || (ch >= '0' && ch <= '9');
                          });
  if (identifier) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("kernel name '", name, "' is not a PTX identifier"));
}

std::string Identifier(absl::string_view name) {
  std::string id(name);
  for (char& ch : id) {
    const bool word = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                      (ch >= '0' && ch <= '9') || ch == '_';
    if (!word) ch = '_';
  }
  if (id.empty() || (id[0] >= '0' && id[0] <= '9')) id = absl::StrCat("_", id);
  return id;
}

std::string MemoryType(ir::ElementType type) {
  switch (type) {
    case ir::ElementType::kPred:
      return "u8";
    case ir::ElementType::kF16:
    case ir::ElementType::kBF16:
      return "b16";
    case ir::ElementType::kF32:
      return "f32";
    case ir::ElementType::kF64:
      return "f64";
    default:
      return absl::StrCat(ir::IsSignedInt(type) ? "s" : "u",
                          8 * ir::StorageSize(type));
  }
}

}  // namespace pjrtx::ptx
