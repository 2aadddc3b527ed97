// Parses every test case of the StableHLO interpreter corpus (the .mlir
// files under ../shared/conformance/stablehlo-interpret, split on
// `// -----` as stablehlo-translate -split-input-file splits them).
//
// The corpus folder is the first argument of the test binary, else
// $PJRTX_STABLEHLO_CORPUS_DIR, else the one beside the repository; the test
// is skipped when none exists.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "compiler_stub/mlir/parser.h"
#include "gtest/gtest.h"

namespace pjrtx::mlir {
namespace {

namespace fs = std::filesystem;

fs::path CorpusDirectory() {
  fs::path directory;
  const std::vector<std::string>& args = ::testing::internal::GetArgvs();
  if (args.size() > 1) {
    directory = args[1];
  } else if (const char* env = std::getenv("PJRTX_STABLEHLO_CORPUS_DIR")) {
    directory = env;
  } else {
    // tests/compiler_stub/mlir/ -> the repository root -> its sibling.
    directory =
        fs::path(__FILE__).parent_path() / "../../../../shared" / "conformance";
  }
  // The conformance folder holds the corpus as stablehlo-interpret/.
  if (fs::is_directory(directory / "stablehlo-interpret")) {
    directory /= "stablehlo-interpret";
  }
  return directory;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The cases of one file. Each starts with as many empty lines as precede
// it, so that line numbers in messages are those of the file.
std::vector<std::string> SplitCases(const std::string& text) {
  std::vector<std::string> cases(1);
  size_t lines_read = 0;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    ++lines_read;
    // Like mlir's splitter, a marker anywhere splits (even `// // -----`).
    if (line.find("// -----") != std::string::npos) {
      cases.emplace_back(lines_read, '\n');
    } else {
      cases.back() += line + "\n";
    }
  }
  return cases;
}

// Every op's operand and result types are filled in, whatever its form.
void ExpectTypesComplete(const Region& region, const std::string& where,
                         int* incomplete) {
  for (const Block& block : region.blocks) {
    for (const Operation& op : block.operations) {
      if (op.operand_types.size() != op.operands.size() ||
          op.result_types.size() != static_cast<size_t>(op.num_results)) {
        ++*incomplete;
        ADD_FAILURE() << where << ":" << op.location.line << ":"
                      << op.location.column << ": " << op.name << " has "
                      << op.operand_types.size() << " operand types for "
                      << op.operands.size() << " operands and "
                      << op.result_types.size() << " result types for "
                      << op.num_results << " results";
      }
      for (const Region& inner : op.regions) {
        ExpectTypesComplete(inner, where, incomplete);
      }
    }
  }
}

TEST(CorpusParseTest, EveryCaseParses) {
  const fs::path directory = CorpusDirectory();
  if (!fs::is_directory(directory)) {
    GTEST_SKIP() << "no StableHLO corpus at " << directory;
  }
  std::vector<fs::path> files;
  for (const fs::directory_entry& entry :
       fs::recursive_directory_iterator(directory)) {
    if (entry.path().extension() == ".mlir") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty()) << "no .mlir files in " << directory;

  int cases = 0;
  int failed = 0;
  int incomplete = 0;
  for (const fs::path& file : files) {
    const std::string name = fs::relative(file, directory).string();
    const std::vector<std::string> split = SplitCases(ReadFile(file));
    for (size_t i = 0; i < split.size(); ++i) {
      ++cases;
      absl::StatusOr<Module> module = ParseModule(split[i]);
      if (!module.ok()) {
        ++failed;
        ADD_FAILURE() << name << " case " << i << ": " << module.status();
        continue;
      }
      for (const Function& function : module->functions) {
        ExpectTypesComplete(function.body, name, &incomplete);
      }
    }
  }
  std::cout << "Parsed " << cases - failed << " of " << cases << " cases in "
            << files.size() << " files; " << incomplete
            << " ops with missing types\n";
  EXPECT_EQ(failed, 0);
}

}  // namespace
}  // namespace pjrtx::mlir
