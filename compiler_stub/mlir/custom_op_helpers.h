// Building blocks shared by the custom (pretty) op syntaxes: the directives
// of MLIR's declarative assembly formats (operand lists, functional types,
// custom<SameOperandsAndResultType>, ...) and constructors for the
// attributes they stand for in the generic form.
#ifndef PJRTX_COMPILER_STUB_MLIR_CUSTOM_OP_HELPERS_H_
#define PJRTX_COMPILER_STUB_MLIR_CUSTOM_OP_HELPERS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler_stub/mlir/ast.h"
#include "compiler_stub/mlir/parser_impl.h"

namespace pjrtx::mlir {

// Parses the custom form of one op from just after its name. On entry `op`
// has its name and location, and num_results holds how many results the
// statement names (0 when none); the parser fills operands, operand and
// result types, attributes and regions.
using CustomOpParser = absl::Status (*)(Parser& parser, Operation& op);

// ---- Types and attributes as the generic form would carry them. ----
Type MakeScalarType(std::string_view element);
// tensor<dims x element>, with its spelling as text.
Type MakeTensorType(std::vector<int64_t> dims, std::string_view element);
// An integer attribute `value : type`, e.g. 0 : i64.
Attribute MakeIntegerAttribute(int64_t value, std::string_view type,
                               const Location& location, std::string_view text);
Attribute MakeStringAttribute(std::string value, const Location& location,
                              std::string_view text);
// array<i64: values...>.
Attribute MakeI64ArrayAttribute(std::vector<int64_t> values,
                                const Location& location,
                                std::string_view text);
// [values...] as integers of type i64, as in #stablehlo.dot<...> fields.
Attribute MakeIntegerListAttribute(const std::vector<int64_t>& values,
                                   const Location& location,
                                   std::string_view text);
Attribute MakeBoolAttribute(bool value, const Location& location,
                            std::string_view text);
// #dialect<mnemonic body>, e.g. #stablehlo<comparison_direction EQ>.
Attribute MakeEnumAttribute(std::string_view dialect, std::string_view mnemonic,
                            std::string_view body, const Location& location,
                            std::string_view text);

// ---- Grammar pieces. ----
// Zero or more operands separated by commas: $operands.
absl::Status ParseOperands(Parser& parser, Operation& op);
// Operands each followed by a comma, up to the first non-operand:
// custom<VariadicOperandWithAttribute>.
absl::Status ParseOperandsEachWithComma(Parser& parser, Operation& op);
// `keyword =`.
absl::Status ExpectKeywordEqual(Parser& parser, std::string_view keyword);
// `[1, -2, 3]`.
absl::StatusOr<std::vector<int64_t>> ParseIntegerList(Parser& parser);
// `[1, 2]` as array<i64: 1, 2>: custom<DenseI64Array>.
absl::StatusOr<Attribute> ParseI64ArrayAttribute(Parser& parser);
// An integer written bare that the generic form types, e.g. `dim = 0`
// stands for 0 : i64.
absl::StatusOr<Attribute> ParseTypedInteger(Parser& parser,
                                            std::string_view type);
// A bare word naming an enum case, e.g. `EQ` for
// #stablehlo<comparison_direction EQ>.
absl::StatusOr<Attribute> ParseEnumWord(Parser& parser,
                                        std::string_view dialect,
                                        std::string_view mnemonic);
// A float written bare that the generic form types (`tolerance = 0.1`),
// optionally followed by its own `: f64`.
absl::StatusOr<Attribute> ParseTypedFloat(Parser& parser,
                                          std::string_view type);
// An optional attribute dictionary, appended to the op's attributes.
absl::Status ParseOptionalAttributes(Parser& parser, Operation& op);

// `:` and then either one type T, giving every operand and the one result
// type T, or a function type: custom<SameOperandsAndResultType>.
absl::Status ParseSameOperandsAndResultType(Parser& parser, Operation& op);
// `:` and a function type: functional-type(operands, results).
absl::Status ParseFunctionalType(Parser& parser, Operation& op);
// Sets the op's operand and result types from a function type, which must
// list one input per operand.
absl::Status AssignFunctionType(Parser& parser, Operation& op,
                                const Type& type);

// The complete custom form `operands attr-dict : type-or-function-type`
// that most elementwise and shape ops share.
absl::Status ParseOperandsAndSameType(Parser& parser, Operation& op);

// `operands attr-dict (: types)?`, the terminators func.return and
// stablehlo.return.
absl::Status ParseReturnLike(Parser& parser, Operation& op);

}  // namespace pjrtx::mlir

#endif  // PJRTX_COMPILER_STUB_MLIR_CUSTOM_OP_HELPERS_H_
