// Malformed programs, made deterministically from valid ones: each must give
// an INVALID_ARGUMENT error that starts with "<line>:<column>: ", quickly
// and without crashing (the test also runs under ASan and UBSan).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "compiler_stub/mlir/parser.h"
#include "gtest/gtest.h"

namespace pjrtx::mlir {
namespace {

// No parse may take longer, even instrumented.
constexpr double kMaxSecondsPerParse = 2.0;

// Valid programs to break. Each is one top-level construct ending in its
// closing '}', so that its proper prefixes are malformed (see MinCut), and
// none has comments or opaque dialect bodies, in which stray bytes are
// legal.
struct Template {
  const char* name;
  const char* text;
};

const Template kTemplates[] = {
    {"jax_module",
     R"mlir(module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<i32>) -> (tensor<4xf32> {jax.result_info = ""}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32> loc(#loc1)
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<4xf32>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %3:2 = stablehlo.while(%iterArg = %arg1, %iterArg_0 = %1) : tensor<i32>, tensor<4xf32>
     cond {
      %c = stablehlo.constant dense<10> : tensor<i32>
      %4 = stablehlo.compare  LT, %iterArg, %c,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %4 = stablehlo.add %iterArg_0, %iterArg_0 : tensor<4xf32>
      stablehlo.return %iterArg, %4 : tensor<i32>, tensor<4xf32>
    }
    %5 = stablehlo.dot_general %3#1, %1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
    return %3#1 : tensor<4xf32>
  }
})mlir"},
    {"convolution", R"mlir(func.func @conv() {
  %lhs = stablehlo.constant dense<[[[[1], [2]], [[3], [4]]]]> : tensor<1x2x2x1xi64>
  %rhs = stablehlo.constant dense<1> : tensor<1x1x1x1xi64>
  %result = stablehlo.convolution(%lhs, %rhs)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}
    : (tensor<1x2x2x1xi64>, tensor<1x1x1x1xi64>) -> tensor<1x2x2x1xi64>
  check.expect_eq_const %result, dense<[[[[1], [2]], [[3], [4]]]]> : tensor<1x2x2x1xi64>
  check.expect_almost_eq_const %result, dense<1.0> : tensor<1x2x2x1xf64> {tolerance = 0.1 : f64}
  check.expect_close %result, %result, max_ulp_difference = 3 : tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>
  func.return
})mlir"},
    {"generic",
     R"mlir(func.func @generic(%arg0: tensor<5xi64>, %arg1: tensor<i32>) -> (tensor<5xi64>, tensor<2xcomplex<f32>>) {
  %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %1 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<i64>, tensor<i64>) -> tensor<i1>
    "stablehlo.return"(%1) : (tensor<i1>) -> ()
  }) : (tensor<5xi64>) -> tensor<5xi64>
  %2:2 = "stablehlo.case"(%arg1) ({
    "stablehlo.return"(%0, %0) : (tensor<5xi64>, tensor<5xi64>) -> ()
  }, {
    "stablehlo.return"(%arg0, %arg0) : (tensor<5xi64>, tensor<5xi64>) -> ()
  }) : (tensor<i32>) -> (tensor<5xi64>, tensor<5xi64>)
  %3 = "stablehlo.constant"() {value = dense<[(1.0, -2.0), (0x7FC00000, inf)]> : tensor<2xcomplex<f32>>} : () -> tensor<2xcomplex<f32>>
  %4 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 0>, slice_sizes = array<i64: 1>, indices_are_sorted = false} : (tensor<5xi64>, tensor<i32>) -> tensor<i64>
  "func.return"(%2#1, %3) : (tensor<5xi64>, tensor<2xcomplex<f32>>) -> ()
})mlir"},
    {"calls", R"mlir(module @calls {
  func.func private @callee(%x: tensor<2xf32>) -> tuple<tensor<2xf32>, !stablehlo.token> {
    %t = stablehlo.after_all : !stablehlo.token
    %r = stablehlo.tuple %x, %t : tuple<tensor<2xf32>, !stablehlo.token>
    func.return %r : tuple<tensor<2xf32>, !stablehlo.token>
  }
  func.func @main() {
    %c = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
    %r = func.call @callee(%c) : (tensor<2xf32>) -> tuple<tensor<2xf32>, !stablehlo.token>
    %e = stablehlo.get_tuple_element %r[0] : (tuple<tensor<2xf32>, !stablehlo.token>) -> tensor<2xf32>
    %s = stablehlo.slice %e [0:2:1] : (tensor<2xf32>) -> tensor<2xf32>
    %i = stablehlo.iota dim = 0 : tensor<2xi32>
    %cc = stablehlo.custom_call @foo(%s) {backend_config = ""} : (tensor<2xf32>) -> tensor<2xf32>
    %k = stablehlo.composite "my.op" %cc {decomposition = @callee} : (tensor<2xf32>) -> tensor<2xf32>
    %b0, %b1 = stablehlo.optimization_barrier %k, %i : tensor<2xf32>, tensor<2xi32>
    check.expect_eq %b0, %e : tensor<2xf32>
    func.return
  }
})mlir"},
    {"dense", R"mlir(func.func @dense() {
  %a = stablehlo.constant dense<[[1, -2], [3, 4]]> : tensor<2x2xi2>
  %b = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %c = stablehlo.constant dense<> : tensor<0xui8>
  %d = stablehlo.pad %a, %a, low = [0, 1], high = [1, 0], interior = [0, 0] : (tensor<2x2xi2>, tensor<2x2xi2>) -> tensor<3x3xi2>
  %e = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x2xi2>) -> tensor<2x2xi2>
  %f = stablehlo.reduce_precision %c, format = e5m2 : tensor<0xui8>
  %g = stablehlo.fft %c, type = FFT, length = [0] : (tensor<0xui8>) -> tensor<0xui8>
  %h = stablehlo.select %b, %b, %b : tensor<2xi1>, tensor<2xi1>
  func.return
})mlir"},
};

struct Case {
  std::string description;
  std::string text;
};

// Whether each byte of `text` is outside string literals, where a stray
// byte is always an error.
std::vector<bool> CodeMask(std::string_view text) {
  std::vector<bool> code(text.size(), true);
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (in_string) {
      code[i] = false;
      if (text[i] == '\\') {
        if (i + 1 < text.size()) code[++i] = false;
      } else if (text[i] == '"') {
        in_string = false;
      }
    } else if (text[i] == '"') {
      code[i] = false;
      in_string = true;
    }
  }
  return code;
}

// The shortest prefix of a template that truncations keep. Shorter prefixes
// of a function, up to its signature, are valid declarations.
size_t MinCut(std::string_view text) {
  if (text.substr(0, 6) == "module") return 1;
  return text.find('{') + 1;
}

void AddTruncations(const Template& t, std::vector<Case>* cases) {
  const std::string text = t.text;
  // Cut points spread over the whole program, none at its end.
  constexpr size_t kCuts = 40;
  const size_t min_cut = MinCut(text);
  const size_t span = text.size() - min_cut;
  for (size_t k = 0; k < kCuts; ++k) {
    const size_t cut = min_cut + span * k / kCuts;
    cases->push_back({std::string(t.name) + " cut at " + std::to_string(cut),
                      text.substr(0, cut)});
  }
}

void AddByteFlips(const Template& t, std::mt19937* random,
                  std::vector<Case>* cases) {
  // Bytes that no token contains.
  constexpr char kStrayBytes[] = {'\x01', '\x7f', '`',  '~',    ';',   '&',
                                  '|',    '\'',   '\\', '\x80', '\xff'};
  const std::string text = t.text;
  const std::vector<bool> code = CodeMask(text);
  for (int n = 0; n < 15; ++n) {
    size_t position;
    do {
      position = (*random)() % text.size();
    } while (!code[position]);
    std::string flipped = text;
    flipped[position] = kStrayBytes[(*random)() % sizeof(kStrayBytes)];
    cases->push_back(
        {std::string(t.name) + " byte flipped at " + std::to_string(position),
         flipped});
  }
}

void AddBracketEdits(const Template& t, std::vector<Case>* cases) {
  const std::string text = t.text;
  const std::vector<bool> code = CodeMask(text);
  std::vector<size_t> brackets;
  for (size_t i = 0; i < text.size(); ++i) {
    if (code[i] &&
        std::string_view("{}()[]<>").find(text[i]) != std::string_view::npos) {
      brackets.push_back(i);
    }
  }
  // Every fifth bracket, deleted and doubled.
  for (size_t b = 0; b < brackets.size(); b += 5) {
    const size_t at = brackets[b];
    std::string deleted = text;
    deleted.erase(at, 1);
    cases->push_back(
        {std::string(t.name) + " bracket deleted at " + std::to_string(at),
         deleted});
    std::string doubled = text;
    doubled.insert(at, 1, text[at]);
    cases->push_back(
        {std::string(t.name) + " bracket doubled at " + std::to_string(at),
         doubled});
  }
}

// Replacements that break a type or an attribute wherever they apply.
struct Corruption {
  const char* from;
  const char* to;
};
const Corruption kCorruptions[] = {
    // Types.
    {"tensor<", "tensor["},
    {"tensor<", "tensor <<"},
    {"xf32>", "xq32>"},
    {"xf32>", "x>"},
    {"tensor<i32>", "tensor<-1xi32>"},
    {"tuple<", "tuple("},
    {"!stablehlo.token", "!stablehlo"},
    {"complex<f32>", "complex<tensor<f32>>"},
    {"x2xi2>", "x2xi2"},
    {"i64>", "i64x>"},
    {"tensor<2", "tensor<99999999999999999999"},
    {"f32>", "f 32>"},
    {") -> tensor", ") -> -> tensor"},
    {": (tensor", ": ((tensor"},
    // Attributes.
    {"dense<", "dense("},
    {"dense<", "dense<<"},
    {"array<i64: 1>", "array<i64: x>"},
    {"= [", "= [["},
    {"= 1 : i32", "= : i32"},
    {"= 1 : i32", "= 1 : i32 4"},
    {"@callee", "@"},
    {"dims = [1, 0]", "dims = [1 0]"},
    {"0x7FC00000", "0xZZ"},
    {"<comparison_direction GT>", "<comparison_direction G T>"},
    {"index_vector_dim = 0", "index_vector_dim 0"},
    {"precision = [DEFAULT", "precision = [(DEFAULT"},
    {"contracting_dims = [0] x [0]", "contracting_dims = [0] y [0]"},
    {"[b, 0, 1, f]", "[b, 0, 0, f]"},
    {"format = e5m2", "format = x5m2"},
    {"\"0x0000803F00000040\"", "\"0x0000803F0000004\""},
    {"dense<[[1, -2], [3, 4]]>", "dense<[[1, -2], [3]]>"},
    {"max_ulp_difference = 3", "max_ulp_difference = 3.5"},
    {"{replicated}\"", "{replicated}"},
    {"{tolerance = 0.1 : f64}", "{tolerance = 0.1 : f64"},
    {"<{dimension = 0 : i64", "<{dimension 0 : i64"},
    {"loc(#loc1)", "loc(#loc1"},
};

void AddCorruptions(const Template& t, std::vector<Case>* cases) {
  const std::string text = t.text;
  for (const Corruption& c : kCorruptions) {
    const size_t at = text.find(c.from);
    if (at == std::string::npos) continue;
    std::string corrupted = text;
    corrupted.replace(at, std::string_view(c.from).size(), c.to);
    cases->push_back(
        {std::string(t.name) + ": " + c.from + " -> " + c.to, corrupted});
  }
}

std::vector<Case> MalformedCases() {
  std::vector<Case> cases;
  std::mt19937 random(20240607);
  for (const Template& t : kTemplates) {
    AddTruncations(t, &cases);
    AddByteFlips(t, &random, &cases);
    AddBracketEdits(t, &cases);
    AddCorruptions(t, &cases);
  }
  return cases;
}

// Whether `message` starts with "<line>:<column>: ", a line within the text.
bool HasLineColumnPrefix(const std::string& message, std::string_view text) {
  const int64_t lines = std::count(text.begin(), text.end(), '\n') + 1;
  int64_t numbers[2] = {0, 0};
  size_t i = 0;
  for (int64_t& number : numbers) {
    const size_t begin = i;
    while (i < message.size() && message[i] >= '0' && message[i] <= '9') {
      number = number * 10 + (message[i] - '0');
      ++i;
    }
    if (i == begin || i > begin + 9 || i >= message.size() ||
        message[i] != ':') {
      return false;
    }
    ++i;
  }
  return numbers[0] >= 1 && numbers[0] <= lines && numbers[1] >= 1 &&
         i < message.size() && message[i] == ' ';
}

// Parses `text`, failing the test if it takes too long.
absl::StatusOr<Module> TimedParse(const std::string& text,
                                  const std::string& description) {
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<Module> module = ParseModule(text);
  const std::chrono::duration<double> took =
      std::chrono::steady_clock::now() - start;
  EXPECT_LT(took.count(), kMaxSecondsPerParse) << description;
  return module;
}

TEST(MalformedTest, TemplatesParse) {
  for (const Template& t : kTemplates) {
    absl::StatusOr<Module> module = ParseModule(t.text);
    EXPECT_TRUE(module.ok()) << t.name << ": " << module.status();
    // The prefix a truncation never goes below is itself malformed.
    EXPECT_FALSE(
        ParseModule(std::string(t.text).substr(0, MinCut(t.text))).ok())
        << t.name;
  }
}

TEST(MalformedTest, EachIsAnErrorWithLineAndColumn) {
  const std::vector<Case> cases = MalformedCases();
  EXPECT_GE(cases.size(), 200u);
  for (const Case& c : cases) {
    absl::StatusOr<Module> module = TimedParse(c.text, c.description);
    if (module.ok()) {
      ADD_FAILURE() << c.description << " parsed:\n" << c.text;
      continue;
    }
    EXPECT_EQ(module.status().code(), absl::StatusCode::kInvalidArgument)
        << c.description;
    EXPECT_TRUE(
        HasLineColumnPrefix(std::string(module.status().message()), c.text))
        << c.description << ": " << module.status();
  }
}

TEST(MalformedTest, RandomMutationsNeverCrashOrHang) {
  std::mt19937 random(7);
  for (int n = 0; n < 3000; ++n) {
    const Template& t = kTemplates[random() % std::size(kTemplates)];
    std::string text = t.text;
    const int edits = 1 + random() % 6;
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const size_t at = random() % text.size();
      switch (random() % 4) {
        case 0:
          text[at] = static_cast<char>(random());
          break;
        case 1:
          text.erase(at, 1 + random() % 16);
          break;
        case 2:
          text.insert(at, text.substr(random() % text.size(), random() % 16));
          break;
        default:
          text.resize(at);
          break;
      }
    }
    const std::string description = "mutation " + std::to_string(n);
    absl::StatusOr<Module> module = TimedParse(text, description);
    if (!module.ok()) {
      EXPECT_TRUE(
          HasLineColumnPrefix(std::string(module.status().message()), text))
          << description << ": " << module.status();
    }
  }
}

}  // namespace
}  // namespace pjrtx::mlir
