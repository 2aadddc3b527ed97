// The syntax tree of an MLIR text module, in MLIR's generic form.
//
// The parser accepts both the generic form
//   %r = "stablehlo.add"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) ->
//   tensor<2xf32>
// and the pretty (custom) forms StableHLO and JAX print
//   %r = stablehlo.add %a, %b : tensor<2xf32>
// and returns both as the same Operation: the op's full name, operands,
// attributes named and shaped as the generic form writes them, regions, and
// every operand and result type. Nothing here knows op semantics beyond
// what the pretty syntax needs.
#ifndef PJRTX_COMPILER_STUB_MLIR_AST_H_
#define PJRTX_COMPILER_STUB_MLIR_AST_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compiler_stub/mlir/location.h"

namespace pjrtx::mlir {

struct Type {
  enum class Kind {
    kTensor,    // tensor<2x3xf32>, tensor<f32> (rank 0), tensor<?x4xi32>
    kScalar,    // f32, i64, ui8, i1, bf16, index, ...  (used in attributes)
    kTuple,     // tuple<tensor<f32>, !stablehlo.token>
    kToken,     // !stablehlo.token
    kFunction,  // (tensor<f32>) -> tensor<f32>
    kOther,     // anything else, kept as text (e.g. quantized types, unranked
                // tensor<*xf32>, vector<...>)
  };
  Kind kind = Kind::kOther;
  // Element type spelling for kTensor and kScalar: "f32", "i32", "si32"
  // (signless and signed are distinct spellings: "i32" vs "si32"), "ui8",
  // "i1", "bf16", "f16", "f64", "f8E4M3FN", "f8E5M2", "complex<f32>", ...
  std::string element;
  // kTensor: dimensions; -1 for a dynamic '?'. Empty for rank 0.
  std::vector<int64_t> dims;
  // kTensor: the encoding after the shape, if any (text), e.g. a bounds
  // attribute; kept, not interpreted.
  std::string encoding;
  // kTuple elements; kFunction inputs.
  std::vector<Type> elements;
  // kFunction results.
  std::vector<Type> results;
  // The exact source text, for messages.
  std::string text;
  Location location;
};

struct Attribute;

// A dense elements literal: dense<...> or a hex string dense<"0x...">.
struct DenseElements {
  // Either the nested-list structure flattened in row-major order (each
  // entry one scalar token text: "1", "-2.5e3", "true", "0x7FC00000",
  // "(1.0, 2.0)" for complex), with `splat` when a single scalar fills the
  // whole shape...
  std::vector<std::string> values;
  bool splat = false;
  // ...or the raw bytes of a hex string, little-endian, row-major.
  bool is_hex = false;
  std::vector<uint8_t> hex_bytes;
  // The nesting depth and the length of each nested list as written, so
  // that a shape mismatch can be reported: e.g. [[1,2],[3,4]] gives {2, 2}.
  std::vector<int64_t> written_shape;
};

struct Attribute {
  enum class Kind {
    kUnit,           // a name alone in a dictionary: {foo}
    kBool,           // true / false
    kInteger,        // 42 or 42 : i64
    kFloat,          // 1.5 or 1.5 : f32
    kString,         // "text"
    kType,           // a type used as an attribute
    kSymbolRef,      // @name
    kArray,          // [a, b, ...]
    kDenseArray,     // array<i64: 1, 2>  (values in `integers`/`floats`)
    kDenseElements,  // dense<...> : tensor<...>
    kDictionary,     // {a = 1, b}
    // #dialect<mnemonic ...>, e.g. #stablehlo<comparison_direction EQ>
    // (dialect "stablehlo", mnemonic "comparison_direction", body "EQ"), or
    // #stablehlo.gather<offset_dims = [1], ...> (dialect "stablehlo",
    // mnemonic "gather", fields parsed into `entries`), or
    // #stablehlo.channel_handle<handle = 1, type = 0>. Builtin attributes
    // whose body is not interpreted (dense_resource<...>, affine_map<...>,
    // sparse<...>) are kDialect too, with dialect "builtin".
    kDialect,
  };
  Kind kind = Kind::kUnit;
  bool bool_value = false;
  int64_t integer = 0;
  double float_value = 0;
  std::string string_value;  // kString; kSymbolRef name without '@'
  Type type;  // kType; the ": type" of kInteger, kFloat, kDenseElements,
              // kDenseArray (its element type as kScalar). An integer or
              // float written without a type gets i64 or f64, as in MLIR.
  std::vector<Attribute> elements;  // kArray
  std::vector<int64_t> integers;    // kDenseArray of integer type
  std::vector<double> floats;       // kDenseArray of float type
  DenseElements dense;              // kDenseElements
  // kDictionary entries; kDialect fields written as `key = value`.
  std::vector<std::pair<std::string, Attribute>> entries;
  std::string dialect;   // kDialect
  std::string mnemonic;  // kDialect
  // kDialect: the body text when it is not `key = value` pairs (e.g. "EQ",
  // "FLOAT", "DEFAULT"); empty when the fields parsed into `entries`.
  std::string body;
  // Exact source text, for messages; at most its first 1024 characters
  // (then "..."), so that large dense literals are not kept twice.
  std::string text;
  Location location;
};

struct Region;

// An SSA value use: "%name" or "%name#2" (result 2 of a multi-result op).
struct ValueRef {
  std::string name;  // Without '%'.
  int index = 0;
  Location location;
};

struct Operation {
  std::string name;  // Full name: "stablehlo.add", "func.return",
                     // "check.expect_eq_const", "func.call", ...
  // Result names as written: "%0" defines one result; "%0:2" two (named
  // %0#0 and %0#1). Empty for ops without results or whose results are not
  // named. Several names, `%a, %b:2 = ...`, are normalized to the first
  // (`%a:3`), and uses of the others rewritten (%b#1 becomes %a#2).
  std::string result_name;  // Without '%'.
  int num_results = 0;
  std::vector<ValueRef> operands;
  std::vector<Type> operand_types;  // One per operand.
  std::vector<Type> result_types;   // One per result.
  // Attributes with the names the generic form uses (e.g. "dimensions",
  // "comparison_direction", "value", "callee"), in source order; properties
  // (<{...}>) included.
  std::vector<std::pair<std::string, Attribute>> attributes;
  std::vector<Region> regions;
  // Successor blocks are not used by StableHLO programs and are rejected.
  Location location;
};

struct BlockArgument {
  std::string name;  // Without '%'.
  Type type;
  Location location;
};

struct Block {
  std::string label;  // "bb0", or empty for an implicit entry block.
  std::vector<BlockArgument> arguments;
  std::vector<Operation> operations;
  Location location;
};

struct Region {
  std::vector<Block> blocks;
  Location location;
};

struct FunctionArgument {
  std::string name;  // Without '%'.
  Type type;
  // Argument attributes as written: {mhlo.sharding = "...",
  // jax.arg_info = "x"}.
  std::vector<std::pair<std::string, Attribute>> attributes;
  Location location;
};

struct Function {
  std::string name;        // Without '@'.
  std::string visibility;  // "public", "private" or empty.
  std::vector<FunctionArgument> arguments;
  std::vector<Type> result_types;
  // Result attributes, one list per result (empty lists when none).
  std::vector<std::vector<std::pair<std::string, Attribute>>> result_attributes;
  std::vector<std::pair<std::string, Attribute>> attributes;
  Region body;  // One block whose arguments are the function arguments.
  Location location;
};

struct Module {
  std::string name;  // `module @jit_f` gives "jit_f"; empty if unnamed.
  // Module attributes, e.g. mhlo.num_partitions = 1 : i32.
  std::vector<std::pair<std::string, Attribute>> attributes;
  std::vector<Function> functions;
  // Ops at module level other than functions (none expected in StableHLO);
  // kept so the verifier can reject them with a location.
  std::vector<Operation> other_operations;
  Location location;
};

}  // namespace pjrtx::mlir

#endif  // PJRTX_COMPILER_STUB_MLIR_AST_H_
