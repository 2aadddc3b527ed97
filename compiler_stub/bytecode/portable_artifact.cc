#include "compiler_stub/bytecode/portable_artifact.h"

#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "compiler_stub/bytecode/attribute_table.h"
#include "compiler_stub/bytecode/bytecode_file.h"
#include "compiler_stub/bytecode/ir_reader.h"
#include "compiler_stub/bytecode/module_builder.h"
#include "compiler_stub/bytecode/vhlo_ops.h"
#include "support/status_macros.h"

namespace pjrtx::bytecode {
namespace {

constexpr std::string_view kMagic = "ML\xefR";
constexpr std::string_view kStablehloProducer = "StableHLO_v";

// The VHLO version a "StableHLO_vX.Y.Z" producer names; other producers
// (MLIR's own, "MLIR<version>") carry none and are not checked.
absl::Status CheckProducer(std::string_view producer) {
  if (producer.substr(0, kStablehloProducer.size()) != kStablehloProducer) {
    return absl::OkStatus();
  }
  const std::string text(producer.substr(kStablehloProducer.size()));
  std::vector<std::string> parts = absl::StrSplit(text, '.');
  VhloVersion version;
  if (parts.size() != 3 || !absl::SimpleAtoi(parts[0], &version.major) ||
      !absl::SimpleAtoi(parts[1], &version.minor) ||
      !absl::SimpleAtoi(parts[2], &version.patch)) {
    return absl::InvalidArgumentError(
        absl::StrCat("portable artifact producer '", std::string(producer),
                     "' does not name a StableHLO version X.Y.Z"));
  }
  if (kNewestVhloVersion < version) {
    return absl::InvalidArgumentError(
        absl::StrCat("portable artifact from StableHLO ", version.ToString(),
                     " is newer than the newest version this reader supports (",
                     kNewestVhloVersion.ToString(), ")"));
  }
  if (version < kOldestVhloVersion) {
    return absl::InvalidArgumentError(
        absl::StrCat("portable artifact from StableHLO ", version.ToString(),
                     " is older than the oldest version this reader supports (",
                     kOldestVhloVersion.ToString(), ")"));
  }
  return absl::OkStatus();
}

}  // namespace

bool IsBytecode(std::string_view bytes) {
  return bytes.substr(0, kMagic.size()) == kMagic;
}

absl::StatusOr<mlir::Module> ReadPortableArtifact(
    absl::Span<const uint8_t> bytes) {
  PJRTX_ASSIGN_OR_RETURN(BytecodeFile file, ReadBytecodeFile(bytes));
  PJRTX_RETURN_IF_ERROR(CheckProducer(file.producer));
  PJRTX_ASSIGN_OR_RETURN(std::vector<RawOp> top_level, ReadIr(file));
  AttributeTable table(file);
  return BuildModule(file, table, top_level);
}

absl::StatusOr<mlir::Module> ReadPortableArtifact(std::string_view bytes) {
  return ReadPortableArtifact(absl::Span<const uint8_t>(
      reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
}

}  // namespace pjrtx::bytecode
