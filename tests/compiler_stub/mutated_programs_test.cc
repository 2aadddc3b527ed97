// Programs that parse but are wrong: every corpus case mutated in ways that
// keep the text well-formed (dimensions, element types, integer attributes,
// op names swapped). Each must either compile, or fail with a message that
// starts with "line:column: "; never crash or hang. Whatever compiles is
// also run by the interpreter (unless it loops), so a verified program can
// never drive a kernel out of bounds — the sanitizer build checks that.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "compiler_stub/compiler.h"
#include "gtest/gtest.h"
#include "runtime/cli/corpus_case.h"
#include "runtime/cpu/interpreter.h"

namespace pjrtx {
namespace {

std::string CorpusDir() {
  const char* env = std::getenv("PJRTX_STABLEHLO_CORPUS_DIR");
  return env != nullptr ? env : "";
}

std::vector<std::string> CorpusCases() {
  std::vector<std::string> cases;
  const std::string dir = CorpusDir();
  if (dir.empty() || !std::filesystem::is_directory(dir)) return cases;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".mlir") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    for (const cli::CorpusCase& c : cli::SplitCases(text.str())) {
      cases.push_back(c.text);
    }
  }
  return cases;
}

// One textual mutation chosen by `rng`; returns false if nothing applied.
bool Mutate(std::string& text, std::mt19937& rng) {
  static const std::vector<std::pair<std::regex, std::vector<std::string>>>
      kRules = {
          // A dimension of a tensor type.
          {std::regex(R"(tensor<(\d+)x)"),
           {"tensor<0x", "tensor<7x", "tensor<1x"}},
          {std::regex(R"(x(\d+)x)"), {"x3x", "x0x", "x64x"}},
          // An element type.
          {std::regex(R"(xf32>)"), {"xi32>", "xf16>", "xi1>", "xui8>"}},
          {std::regex(R"(xi64>)"), {"xf32>", "xi8>", "xi1>"}},
          {std::regex(R"(complex<f64>)"),
           {"complex<f32>", "f64", "complex<i32>", "complex<f16>"}},
          {std::regex(R"(\(-?[0-9.]+, )"), {"(", "(1.0, 2.0, ", "1.0, "}},
          // Integer lists in attributes.
          {std::regex(R"(array<i64: [0-9, ]*>)"),
           {"array<i64: 5>", "array<i64>", "array<i64: -1, 0>",
            "array<i64: 0, 0>"}},
          {std::regex(R"(dims = \[[0-9, ]*\])"),
           {"dims = [3]", "dims = []", "dims = [0, 0]"}},
          {std::regex(R"(dimension = \d+)"),
           {"dimension = 9", "dimension = -1"}},
          {std::regex(R"(index_vector_dim = \d+)"), {"index_vector_dim = 7"}},
          {std::regex(R"(dense<\[)"), {"dense<[[", "dense<[1, "}},
          // Ops swapped for others of another arity or meaning.
          {std::regex(R"(stablehlo\.add\b)"),
           {"stablehlo.dot_general", "stablehlo.sine", "stablehlo.shift_left"}},
          {std::regex(R"(stablehlo\.multiply\b)"),
           {"stablehlo.remainder", "stablehlo.reshape"}},
          {std::regex(R"(stablehlo\.reduce\b)"), {"stablehlo.sort"}},
      };
  std::uniform_int_distribution<size_t> pick_rule(0, kRules.size() - 1);
  for (int attempt = 0; attempt < 8; ++attempt) {
    const auto& [pattern, replacements] = kRules[pick_rule(rng)];
    std::vector<std::smatch> matches;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), pattern);
         it != std::sregex_iterator(); ++it) {
      matches.push_back(*it);
    }
    if (matches.empty()) continue;
    const std::smatch& m = matches[std::uniform_int_distribution<size_t>(
        0, matches.size() - 1)(rng)];
    const std::string& replacement =
        replacements[std::uniform_int_distribution<size_t>(
            0, replacements.size() - 1)(rng)];
    text.replace(m.position(0), m.length(0), replacement);
    return true;
  }
  return false;
}

TEST(MutatedProgramsTest, CompileOrFailWithPositionAndRunSafely) {
  std::vector<std::string> cases = CorpusCases();
  if (cases.empty()) {
    GTEST_SKIP() << "no StableHLO corpus (set PJRTX_STABLEHLO_CORPUS_DIR)";
  }
  std::mt19937 rng(20261121);
  const std::regex position(R"(^\d+:\d+: )");
  int compiled = 0, rejected = 0, ran = 0;
  for (const std::string& original : cases) {
    for (int variant = 0; variant < 3; ++variant) {
      std::string text = original;
      if (!Mutate(text, rng)) continue;
      compiler::CompileOptions options;
      options.checks_as_outputs = true;
      const auto start = std::chrono::steady_clock::now();
      absl::StatusOr<ir::Program> program = compiler::Compile(text, options);
      EXPECT_LT(std::chrono::steady_clock::now() - start,
                std::chrono::seconds(5));
      if (!program.ok()) {
        ++rejected;
        const std::string message(program.status().message());
        EXPECT_TRUE(std::regex_search(message, position))
            << "no line:column in: " << message << "\nprogram:\n"
            << text;
        continue;
      }
      ++compiled;
      const ir::Computation& entry = program->computations[program->entry];
      if (!entry.parameters.empty() ||
          text.find("stablehlo.while") != std::string::npos) {
        continue;  // Needs arguments, or might loop without end.
      }
      cpu::Interpreter interpreter(*program);
      absl::StatusOr<std::vector<cpu::TensorValue>> results =
          interpreter.Run({});
      ++ran;
      // Runtime errors are allowed (e.g. recursion limits); crashes are not.
      (void)results;
    }
  }
  std::printf("mutants: %d compiled (%d run), %d rejected with a position\n",
              compiled, ran, rejected);
  EXPECT_GT(rejected, 200);
}

}  // namespace
}  // namespace pjrtx
