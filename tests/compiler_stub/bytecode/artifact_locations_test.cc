// Source positions from portable artifacts: the MLIR locations of real
// jax.export artifacts decode to the user's file, line and column (through
// JAX's name and call-site locations, in both the file:line:col and the
// newer range encoding), ops whose location is unknown have none, and
// compile errors name the position; errors from MLIR text keep their
// "line:column".
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/bytecode/portable_artifact.h"
#include "compiler_stub/compiler.h"
#include "compiler_stub/ir/program.h"
#include "compiler_stub/mlir/ast.h"
#include "compiler_stub/mlir/location_text.h"
#include "gtest/gtest.h"
#include "tests/compiler_stub/bytecode/python_bytes.h"

namespace pjrtx {
namespace {

namespace fs = std::filesystem;

std::string CorpusDir() {
  const char* dir = std::getenv("PJRTX_STABLEHLO_CORPUS_DIR");
  return dir == nullptr ? std::string() : std::string(dir);
}

// The `index`th artifact of a jax-export data file, or empty when the
// corpus is absent.
std::string JaxArtifact(std::string_view file, size_t index) {
  const fs::path path = fs::path(CorpusDir()) / "jax-export" / file;
  if (CorpusDir().empty() || !fs::exists(path)) return std::string();
  std::ifstream in(path, std::ios::binary);
  std::stringstream source;
  source << in.rdbuf();
  absl::StatusOr<std::vector<std::string>> artifacts =
      bytecode_testing::ExtractBytesLiterals(source.str(),
                                             "mlir_module_serialized");
  if (!artifacts.ok() || index >= artifacts->size()) {
    ADD_FAILURE() << path << ": no artifact #" << index;
    return std::string();
  }
  return (*artifacts)[index];
}

std::string TargetOf(const mlir::Operation& op) {
  for (const auto& [name, value] : op.attributes) {
    if (name == "call_target_name") return value.string_value;
  }
  return std::string();
}

// The first op named `name` (and calling `target`, if given) in the
// module's functions, nested regions included.
const mlir::Operation* FindOp(const mlir::Region& region, std::string_view name,
                              std::string_view target) {
  for (const mlir::Block& block : region.blocks) {
    for (const mlir::Operation& op : block.operations) {
      if (op.name == name && (target.empty() || TargetOf(op) == target)) {
        return &op;
      }
      for (const mlir::Region& nested : op.regions) {
        if (const mlir::Operation* found = FindOp(nested, name, target)) {
          return found;
        }
      }
    }
  }
  return nullptr;
}

const mlir::Operation* FindOp(const mlir::Module& module, std::string_view name,
                              std::string_view target = {}) {
  for (const mlir::Function& function : module.functions) {
    if (const mlir::Operation* found = FindOp(function.body, name, target)) {
      return found;
    }
  }
  return nullptr;
}

TEST(ArtifactLocationsTest, LocationTextKeepsTextPositionsAsTheyWere) {
  mlir::Location text;
  text.line = 12;
  text.column = 5;
  EXPECT_EQ(mlir::LocationText(text), "12:5");
  mlir::Location source = text;
  source.file = std::make_shared<const std::string>("/src/model.py");
  EXPECT_EQ(mlir::LocationText(source), "/src/model.py:12:5");
  EXPECT_EQ(mlir::LocationText(mlir::Location{}), "0:0");
}

// annotate_data_placement #0: `stablehlo.add ... loc(#loc4)` with
//   #loc3 = loc("third_party/py/jax/tests/export_back_compat_test.py":878:13)
//   #loc4 = loc("jit(func)/jit(main)/add"(#loc3))
// and `stablehlo.custom_call @annotate_device_placement ... loc(unknown)`.
TEST(ArtifactLocationsTest, NameLocationsGiveTheirFilePosition) {
  const std::string artifact = JaxArtifact("annotate_data_placement.py", 0);
  if (artifact.empty()) GTEST_SKIP() << "no jax.export data";
  absl::StatusOr<mlir::Module> module =
      bytecode::ReadPortableArtifact(artifact);
  ASSERT_TRUE(module.ok()) << module.status();

  const mlir::Operation* add = FindOp(*module, "stablehlo.add");
  ASSERT_NE(add, nullptr);
  ASSERT_NE(add->location.file, nullptr);
  EXPECT_EQ(*add->location.file,
            "third_party/py/jax/tests/export_back_compat_test.py");
  EXPECT_EQ(add->location.line, 878);
  EXPECT_EQ(add->location.column, 13);
  // A use is where its op is, as in text.
  ASSERT_FALSE(add->operands.empty());
  EXPECT_EQ(add->operands[0].location.line, 878);

  const mlir::Operation* placement =
      FindOp(*module, "stablehlo.custom_call", "annotate_device_placement");
  ASSERT_NE(placement, nullptr);
  EXPECT_EQ(placement->location.line, 0);
  EXPECT_EQ(placement->location.file, nullptr);
  EXPECT_EQ(module->location.line, 0);
}

// gpu_eigh_solver_syev #0 (StableHLO 1.12.1, locations as ranges):
// `stablehlo.custom_call @hipsolver_syevd_ffi ... loc(#loc25)` with
//   #loc1 = loc("<string>":16:15 to :106)
//   #loc11 = loc("Gen.eigh_harness"(#loc1))
//   #loc21 = loc(callsite(#loc12 at #loc13))  (the callers)
//   #loc22 = loc(callsite(#loc11 at #loc21))
//   #loc25 = loc("jit(<lambda>)/eigh"(#loc22))
TEST(ArtifactLocationsTest, CallSitesGiveTheCalleesRangeStart) {
  const std::string artifact = JaxArtifact("gpu_eigh_solver_syev.py", 0);
  if (artifact.empty()) GTEST_SKIP() << "no jax.export data";
  absl::StatusOr<mlir::Module> module =
      bytecode::ReadPortableArtifact(artifact);
  ASSERT_TRUE(module.ok()) << module.status();
  const mlir::Operation* eigh =
      FindOp(*module, "stablehlo.custom_call", "hipsolver_syevd_ffi");
  ASSERT_NE(eigh, nullptr);
  ASSERT_NE(eigh->location.file, nullptr);
  EXPECT_EQ(*eigh->location.file, "<string>");
  EXPECT_EQ(eigh->location.line, 16);
  EXPECT_EQ(eigh->location.column, 15);
}

TEST(ArtifactLocationsTest, CompileErrorsNameTheSourcePosition) {
  const std::string artifact = JaxArtifact("gpu_eigh_solver_syev.py", 0);
  if (artifact.empty()) GTEST_SKIP() << "no jax.export data";
  absl::StatusOr<ir::Program> program = compiler::Compile(artifact, {});
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(std::string(program.status().message().substr(0, 60)),
            "<string>:16:15: custom_call target 'hipsolver_syevd_ffi' (a ")
      << program.status();
}

// Errors found after lowering (a call's types, a kernel the CUDA target
// cannot write, a collective run outside a launch) are written from the
// instruction's location, so the checked program keeps the file too.
TEST(ArtifactLocationsTest, CompiledInstructionsKeepTheSourceFile) {
  const std::string artifact = JaxArtifact("annotate_data_placement.py", 0);
  if (artifact.empty()) GTEST_SKIP() << "no jax.export data";
  absl::StatusOr<ir::Program> program = compiler::Compile(artifact, {});
  ASSERT_TRUE(program.ok()) << program.status();
  // The add, fused by now into an elementwise instruction that takes its
  // first member's position.
  const ir::Instruction* add = nullptr;
  for (const ir::Computation& computation : program->computations) {
    for (const ir::Instruction& instruction : computation.instructions) {
      if (instruction.location.line == 878) add = &instruction;
    }
  }
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(mlir::LocationText(add->location),
            "third_party/py/jax/tests/export_back_compat_test.py:878:13");
}

TEST(ArtifactLocationsTest, TextErrorsKeepLineAndColumn) {
  absl::StatusOr<ir::Program> program = compiler::Compile(R"mlir(
func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @pjrtx_no_such_target(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
})mlir",
                                                          {});
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.status().code(), absl::StatusCode::kUnimplemented);
  // Line 3, column 8: where the op's name starts.
  EXPECT_EQ(std::string(program.status().message()),
            "3:8: op stablehlo.custom_call with call target "
            "'pjrtx_no_such_target' is not supported");
}

}  // namespace
}  // namespace pjrtx
