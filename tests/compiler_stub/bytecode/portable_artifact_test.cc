// The portable artifact reader against the StableHLO corpus (each .bc
// decoded must equal its .mlir parsed, function by function, and compile
// alike), the comparison's own sensitivity, rejection of future artifacts
// and hostile bytes, and decoding of real jax.export artifacts
// (PJRTX_BYTECODE_TEST_VERBOSE=1 also prints how each compiles).
#include "compiler_stub/bytecode/portable_artifact.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/compiler.h"
#include "compiler_stub/mlir/parser.h"
#include "gtest/gtest.h"
#include "tests/compiler_stub/bytecode/ast_equivalence.h"
#include "tests/compiler_stub/bytecode/python_bytes.h"

namespace pjrtx {
namespace {

namespace fs = std::filesystem;

// The share of corpus functions whose decoded and parsed trees must agree.
// UNSUPPORTED.md lists the functions that do not, with the reason.
constexpr double kRequiredEqualShare = 0.98;

std::string CorpusDir() {
  const char* dir = std::getenv("PJRTX_STABLEHLO_CORPUS_DIR");
  return dir == nullptr ? std::string() : std::string(dir);
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Parses a corpus text file. A function the text parser cannot read is
// cut out (its name and the parser's message go to `unparsed`) and the rest
// parsed again, so that one unreadable function does not hide the others.
absl::StatusOr<mlir::Module> ParseCorpusText(
    std::string text, std::vector<std::string>* unparsed,
    std::string* parsed_text = nullptr) {
  for (int attempt = 0; attempt < 64; ++attempt) {
    absl::StatusOr<mlir::Module> parsed = mlir::ParseModule(text);
    if (parsed.ok()) {
      if (parsed_text != nullptr) *parsed_text = text;
      return parsed;
    }
    // "L:C: ..." names the line; cut the func.func around it.
    const std::string message(parsed.status().message());
    int line = 0;
    if (std::sscanf(message.c_str(), "%d:", &line) != 1 || line <= 0) {
      return parsed.status();
    }
    std::vector<size_t> starts = {0};
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') starts.push_back(i + 1);
    }
    if (static_cast<size_t>(line) > starts.size()) return parsed.status();
    const size_t at = starts[line - 1];
    const size_t begin = text.rfind("\nfunc.func", at);
    const size_t end = text.find("\nfunc.func", at);
    if (begin == std::string::npos) return parsed.status();
    const size_t name_at = text.find('@', begin);
    const size_t name_end = text.find('(', name_at);
    unparsed->push_back(text.substr(name_at + 1, name_end - name_at - 1) +
                        ": the text parser cannot read it (" + message + ")");
    text.erase(begin,
               end == std::string::npos ? std::string::npos : end - begin);
  }
  return absl::InvalidArgumentError("too many unparseable functions");
}

std::vector<fs::path> VhloPairs(const fs::path& dir) {
  std::vector<fs::path> texts;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("stablehlo_legalize_to_vhlo.", 0) == 0 &&
        entry.path().extension() == ".mlir" &&
        fs::exists(entry.path().string() + ".bc")) {
      texts.push_back(entry.path());
    }
  }
  std::sort(texts.begin(), texts.end());
  return texts;
}

TEST(PortableArtifactTest, CorpusDecodesToTheSameTreesAsTheText) {
  const fs::path dir = fs::path(CorpusDir()) / "stablehlo-vhlo";
  if (CorpusDir().empty() || !fs::exists(dir)) {
    GTEST_SKIP() << "no StableHLO corpus at " << dir
                 << " (set PJRTX_STABLEHLO_CORPUS_DIR)";
  }
  const std::vector<fs::path> pairs = VhloPairs(dir);
  EXPECT_EQ(pairs.size(), 32u);
  int total = 0;
  int total_equal = 0;
  for (const fs::path& text_path : pairs) {
    const std::string name = text_path.filename().string();
    std::vector<std::string> unparsed;
    absl::StatusOr<mlir::Module> parsed =
        ParseCorpusText(ReadFile(text_path), &unparsed);
    ASSERT_TRUE(parsed.ok()) << name << ": " << parsed.status();
    absl::StatusOr<mlir::Module> decoded =
        bytecode::ReadPortableArtifact(ReadFile(text_path.string() + ".bc"));
    const int functions =
        static_cast<int>(parsed->functions.size() + unparsed.size());
    total += functions;
    if (!decoded.ok()) {
      ADD_FAILURE() << name << ".bc: " << decoded.status();
      std::cout << name << ": 0 of " << functions << " functions equal\n";
      continue;
    }
    std::map<std::string, const mlir::Function*> by_name;
    for (const mlir::Function& f : decoded->functions) by_name[f.name] = &f;
    int equal = 0;
    std::vector<std::string> failures;
    for (const std::string& u : unparsed) failures.push_back("@" + u);
    for (const mlir::Function& expected : parsed->functions) {
      auto found = by_name.find(expected.name);
      if (found == by_name.end()) {
        failures.push_back(
            absl::StrCat("@", expected.name, ": not in the artifact"));
        continue;
      }
      std::string difference =
          bytecode_testing::FirstDifference(expected, *found->second);
      if (difference.empty()) {
        ++equal;
      } else {
        failures.push_back(absl::StrCat("@", expected.name, ": ", difference));
      }
    }
    total_equal += equal;
    std::cout << name << ": " << equal << " of " << functions
              << " functions equal\n";
    for (const std::string& failure : failures) {
      std::cout << "  " << failure << "\n";
    }
  }
  std::cout << "total: " << total_equal << " of " << total
            << " functions equal\n";
  EXPECT_GE(total_equal, kRequiredEqualShare * total);
}

// The verifier and lowering see no difference: each corpus function,
// compiled as the entry, succeeds from the artifact exactly when it does
// from the text (many use ops or types the compiler does not lower).
TEST(PortableArtifactTest, CorpusFunctionsCompileAlikeFromTextAndBytes) {
  const fs::path dir = fs::path(CorpusDir()) / "stablehlo-vhlo";
  if (CorpusDir().empty() || !fs::exists(dir)) GTEST_SKIP() << "no corpus";
  int compiled = 0;
  int compared = 0;
  for (const fs::path& text_path :
       {dir / "stablehlo_legalize_to_vhlo.0_9_0.mlir",
        dir / "stablehlo_legalize_to_vhlo.1_20_0.mlir"}) {
    std::vector<std::string> unparsed;
    std::string text;
    absl::StatusOr<mlir::Module> parsed =
        ParseCorpusText(ReadFile(text_path), &unparsed, &text);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    const std::string bytes = ReadFile(text_path.string() + ".bc");
    for (const mlir::Function& function : parsed->functions) {
      if (function.body.blocks.empty()) continue;
      compiler::CompileOptions options;
      options.entry = function.name;
      absl::StatusOr<ir::Program> from_text = compiler::Compile(text, options);
      absl::StatusOr<ir::Program> from_bytes =
          compiler::Compile(bytes, options);
      ++compared;
      compiled += from_text.ok();
      EXPECT_EQ(from_text.ok(), from_bytes.ok())
          << text_path.filename() << " @" << function.name
          << "\n  text: " << from_text.status()
          << "\n  bytes: " << from_bytes.status();
      EXPECT_EQ(from_text.status().code(), from_bytes.status().code())
          << text_path.filename() << " @" << function.name;
    }
  }
  std::cout << compiled << " of " << compared
            << " corpus functions compile (alike from text and bytes)\n";
}

// A function of the corpus as both trees, for mutations.
class ComparisonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path dir = fs::path(CorpusDir()) / "stablehlo-vhlo";
    if (CorpusDir().empty() || !fs::exists(dir)) {
      GTEST_SKIP() << "no StableHLO corpus at " << dir;
    }
    const fs::path text = dir / "stablehlo_legalize_to_vhlo.1_20_0.mlir";
    std::vector<std::string> unparsed;
    absl::StatusOr<mlir::Module> parsed =
        ParseCorpusText(ReadFile(text), &unparsed);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    absl::StatusOr<mlir::Module> decoded =
        bytecode::ReadPortableArtifact(ReadFile(text.string() + ".bc"));
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    parsed_ = *std::move(parsed);
    decoded_ = *std::move(decoded);
  }

  // The pair of functions named `name`, checked equal before mutation.
  void Pick(const std::string& name, mlir::Function** parsed,
            mlir::Function** decoded) {
    for (mlir::Function& f : parsed_.functions) {
      if (f.name == name) *parsed = &f;
    }
    for (mlir::Function& f : decoded_.functions) {
      if (f.name == name) *decoded = &f;
    }
    ASSERT_NE(*parsed, nullptr) << name;
    ASSERT_NE(*decoded, nullptr) << name;
    ASSERT_EQ(bytecode_testing::FirstDifference(**parsed, **decoded), "");
  }

  mlir::Module parsed_;
  mlir::Module decoded_;
};

mlir::Operation* FindOp(mlir::Function& f, const std::string& name) {
  for (mlir::Operation& op : f.body.blocks[0].operations) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

TEST_F(ComparisonTest, FailsForOneFlippedConstantByte) {
  mlir::Function* parsed = nullptr;
  mlir::Function* decoded = nullptr;
  Pick("op_constant", &parsed, &decoded);
  mlir::Operation* constant = FindOp(*decoded, "stablehlo.constant");
  ASSERT_NE(constant, nullptr);
  ASSERT_FALSE(constant->attributes.empty());
  mlir::DenseElements& dense = constant->attributes[0].second.dense;
  ASSERT_TRUE(dense.is_hex);
  ASSERT_FALSE(dense.hex_bytes.empty());
  dense.hex_bytes[0] ^= 0x01;
  EXPECT_NE(bytecode_testing::FirstDifference(*parsed, *decoded), "");
}

TEST_F(ComparisonTest, FailsForSwappedOperands) {
  mlir::Function* parsed = nullptr;
  mlir::Function* decoded = nullptr;
  Pick("op_subtract", &parsed, &decoded);
  mlir::Operation* subtract = FindOp(*decoded, "stablehlo.subtract");
  ASSERT_NE(subtract, nullptr);
  ASSERT_EQ(subtract->operands.size(), 2u);
  std::swap(subtract->operands[0], subtract->operands[1]);
  EXPECT_NE(bytecode_testing::FirstDifference(*parsed, *decoded), "");
}

TEST_F(ComparisonTest, FailsForAChangedAttribute) {
  mlir::Function* parsed = nullptr;
  mlir::Function* decoded = nullptr;
  Pick("attr_comparison_direction_eq", &parsed, &decoded);
  mlir::Operation* compare = FindOp(*decoded, "stablehlo.compare");
  ASSERT_NE(compare, nullptr);
  bool changed = false;
  for (auto& [name, value] : compare->attributes) {
    if (name == "comparison_direction") {
      value.body = "NE";
      changed = true;
    }
  }
  ASSERT_TRUE(changed);
  EXPECT_NE(bytecode_testing::FirstDifference(*parsed, *decoded), "");
}

TEST(PortableArtifactTest, RejectsAFutureArtifactClearly) {
  const fs::path file =
      fs::path(CorpusDir()) / "stablehlo-vhlo" / "invalid_vhlo_future.mlir.bc";
  if (CorpusDir().empty() || !fs::exists(file)) {
    GTEST_SKIP() << "no " << file;
  }
  absl::StatusOr<mlir::Module> decoded =
      bytecode::ReadPortableArtifact(ReadFile(file));
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string message(decoded.status().message());
  EXPECT_NE(message.find("2.0.0"), std::string::npos) << message;
  EXPECT_NE(message.find("1.25.3"), std::string::npos) << message;
}

// What VHLO 1.21 to 1.25.3 added (WEAKORDER, exp2, log2, fma, the
// f8E5M3FNU type), serialized by jaxlib 0.12.1: decoding gives, function
// for function, what parsing the text does; each compiles, except the
// function on f8E5M3FNU, which fails naming the type.
TEST(PortableArtifactTest, Vhlo1253AdditionsDecodeAsTheirTextParses) {
  const fs::path text_path = fs::path(PJRTX_JAX_ARTIFACTS_DIR) / "jax_0_12_1" /
                             "vhlo_1_25_3_additions.mlir";
  const std::string text = ReadFile(text_path);
  const std::string bytes = ReadFile(text_path.string() + ".bc");
  ASSERT_NE(bytes.find("StableHLO_v1.25.3"), std::string::npos);
  absl::StatusOr<mlir::Module> parsed = mlir::ParseModule(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  absl::StatusOr<mlir::Module> decoded = bytecode::ReadPortableArtifact(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->functions.size(), parsed->functions.size());
  EXPECT_EQ(parsed->functions.size(), 7u);
  for (size_t i = 0; i < parsed->functions.size(); ++i) {
    const mlir::Function& expected = parsed->functions[i];
    EXPECT_EQ(
        bytecode_testing::FirstDifference(expected, decoded->functions[i]), "")
        << "@" << expected.name;
    compiler::CompileOptions options;
    options.entry = expected.name;
    absl::StatusOr<ir::Program> program = compiler::Compile(bytes, options);
    if (expected.name == "type_f8E5M3FNU") {
      ASSERT_FALSE(program.ok());
      EXPECT_NE(program.status().message().find(
                    "element type f8E5M3FNU is not supported"),
                absl::string_view::npos)
          << program.status();
    } else {
      EXPECT_TRUE(program.ok())
          << "@" << expected.name << ": " << program.status();
    }
  }
}

TEST(PortableArtifactTest, RejectsNewerBytecodeVersions) {
  std::string bytes = "ML\xefR";
  bytes += static_cast<char>((7 << 1) | 1);  // version 7
  bytes += std::string("StableHLO_v1.0.0\0", 17);
  absl::StatusOr<mlir::Module> decoded = bytecode::ReadPortableArtifact(bytes);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(decoded.status().message().find("version 7"), std::string::npos)
      << decoded.status();
  EXPECT_NE(decoded.status().message().find("(6)"), std::string::npos)
      << decoded.status();
}

TEST(PortableArtifactTest, SmallestArtifactCompiles) {
  const fs::path file = fs::path(CorpusDir()) / "stablehlo-vhlo" /
                        "vhlo_emit_version_api.1_1_0.mlir.bc";
  if (CorpusDir().empty() || !fs::exists(file)) {
    GTEST_SKIP() << "no " << file;
  }
  const std::string bytes = ReadFile(file);
  absl::StatusOr<mlir::Module> decoded = bytecode::ReadPortableArtifact(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->functions.size(), 1u);
  EXPECT_EQ(decoded->functions[0].name, "main");
  compiler::CompileOptions options;
  absl::StatusOr<ir::Program> program = compiler::Compile(bytes, options);
  EXPECT_TRUE(program.ok()) << program.status();
}

// Truncations and byte flips of real artifacts: errors, never crashes.
TEST(PortableArtifactTest, HostileBytesAreErrorsNotCrashes) {
  const fs::path dir = fs::path(CorpusDir()) / "stablehlo-vhlo";
  if (CorpusDir().empty() || !fs::exists(dir)) GTEST_SKIP() << "no corpus";
  std::mt19937 random(1234);
  for (const char* name : {"vhlo_emit_version_api.1_1_0.mlir.bc",
                           "stablehlo_legalize_to_vhlo.0_9_0.mlir.bc",
                           "stablehlo_legalize_to_vhlo.1_20_0.mlir.bc"}) {
    const std::string original = ReadFile(dir / name);
    for (size_t length = 0; length < original.size();
         length += 1 + original.size() / 97) {
      (void)bytecode::ReadPortableArtifact(original.substr(0, length));
    }
    for (int trial = 0; trial < 400; ++trial) {
      std::string mutated = original;
      const int flips = 1 + trial % 4;
      for (int i = 0; i < flips; ++i) {
        mutated[random() % mutated.size()] = static_cast<char>(random());
      }
      (void)bytecode::ReadPortableArtifact(mutated);
    }
  }
  // Huge counts right after the header.
  std::string bytes = "ML\xefR";
  bytes += static_cast<char>((6 << 1) | 1);
  bytes += std::string("x\0", 2);
  bytes += std::string("\x00\xff\xff\xff\xff\xff\xff\xff\xff", 10);
  EXPECT_FALSE(bytecode::ReadPortableArtifact(bytes).ok());
}

// The `mlir_module_text=r"""..."""` values of a jax.export data file.
std::vector<std::string> ModuleTexts(const std::string& source) {
  std::vector<std::string> texts;
  const std::string marker = "mlir_module_text=r\"\"\"";
  size_t pos = 0;
  while ((pos = source.find(marker, pos)) != std::string::npos) {
    pos += marker.size();
    const size_t end = source.find("\"\"\"", pos);
    if (end == std::string::npos) break;
    texts.push_back(source.substr(pos, end - pos));
    pos = end + 3;
  }
  return texts;
}

// Every artifact decodes; where the text parser reads the artifact's own
// text (mlir_module_text), the functions are compared too and the figures
// printed (JAX's text has Shardy and custom-call spellings the text parser
// may not read, so they are not asserted).
TEST(PortableArtifactTest, JaxExportArtifactsDecode) {
  const fs::path dir = fs::path(CorpusDir()) / "jax-export";
  if (CorpusDir().empty() || !fs::exists(dir)) {
    GTEST_SKIP() << "no jax.export data at " << dir;
  }
  int count = 0;
  int decoded_count = 0;
  int functions = 0;
  int equal_functions = 0;
  int unparsed_texts = 0;
  int text_compiles = 0;
  int bytes_compile = 0;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".py") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    const std::string source = ReadFile(file);
    absl::StatusOr<std::vector<std::string>> artifacts =
        bytecode_testing::ExtractBytesLiterals(source,
                                               "mlir_module_serialized");
    ASSERT_TRUE(artifacts.ok()) << file << ": " << artifacts.status();
    const std::vector<std::string> texts = ModuleTexts(source);
    for (size_t i = 0; i < artifacts->size(); ++i) {
      ++count;
      absl::StatusOr<mlir::Module> decoded =
          bytecode::ReadPortableArtifact((*artifacts)[i]);
      if (!decoded.ok()) {
        ADD_FAILURE() << file.filename() << " #" << i << ": "
                      << decoded.status();
        continue;
      }
      ++decoded_count;
      if (std::getenv("PJRTX_BYTECODE_TEST_VERBOSE") != nullptr) {
        compiler::CompileOptions options;
        std::cout << "  " << file.filename().string() << " #" << i
                  << " compiles from bytes: "
                  << compiler::Compile((*artifacts)[i], options).status()
                  << "\n";
      }
      if (i >= texts.size()) continue;
      absl::StatusOr<mlir::Module> parsed = mlir::ParseModule(texts[i]);
      if (!parsed.ok()) {
        ++unparsed_texts;
        std::cout << "  " << file.filename().string() << " #" << i
                  << ": text not parsed: " << parsed.status() << "\n";
        continue;
      }
      // What compiles from the text must compile from the artifact.
      compiler::CompileOptions options;
      absl::StatusOr<ir::Program> from_text =
          compiler::Compile(texts[i], options);
      if (from_text.ok()) {
        ++text_compiles;
        absl::StatusOr<ir::Program> from_bytes =
            compiler::Compile((*artifacts)[i], options);
        if (from_bytes.ok()) {
          ++bytes_compile;
        } else {
          ADD_FAILURE() << file.filename() << " #" << i
                        << ": the text compiles, the artifact does not: "
                        << from_bytes.status();
        }
      }
      std::map<std::string, const mlir::Function*> by_name;
      for (const mlir::Function& f : decoded->functions) by_name[f.name] = &f;
      for (const mlir::Function& expected : parsed->functions) {
        ++functions;
        auto found = by_name.find(expected.name);
        std::string difference =
            found == by_name.end()
                ? std::string("not in the artifact")
                : bytecode_testing::FirstDifference(expected, *found->second);
        if (difference.empty()) {
          ++equal_functions;
        } else {
          std::cout << "  " << file.filename().string() << " #" << i << " @"
                    << expected.name << ": " << difference << "\n";
        }
      }
    }
  }
  std::cout << "jax.export: " << decoded_count << " of " << count
            << " artifacts decode; " << equal_functions << " of " << functions
            << " functions equal their text (" << unparsed_texts
            << " texts not parsed); " << bytes_compile << " of "
            << text_compiles << " that compile from text compile from bytes\n";
  EXPECT_EQ(count, 135);
}

}  // namespace
}  // namespace pjrtx
