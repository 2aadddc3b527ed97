// Whether two syntax trees are the same program, function by function:
// the same ops, operands (by what defines them, not by name), results,
// regions and types, and attributes equal by value (dictionaries as maps,
// dialect attribute fields as maps where an absent list field equals an
// empty one, numbers by value with their types, dense constants bit for
// bit), ignoring value names, locations and source spellings.
#ifndef PJRTX_TESTS_COMPILER_STUB_BYTECODE_AST_EQUIVALENCE_H_
#define PJRTX_TESTS_COMPILER_STUB_BYTECODE_AST_EQUIVALENCE_H_

#include <string>

#include "compiler_stub/mlir/ast.h"

namespace pjrtx::bytecode_testing {

// The first difference between `a` and `b` as "<path>: <what differs>",
// or the empty string when they are equivalent.
std::string FirstDifference(const mlir::Function& a, const mlir::Function& b);

// Same for single attributes and types.
std::string AttributeDifference(const mlir::Attribute& a,
                                const mlir::Attribute& b);
std::string TypeDifference(const mlir::Type& a, const mlir::Type& b);

}  // namespace pjrtx::bytecode_testing

#endif  // PJRTX_TESTS_COMPILER_STUB_BYTECODE_AST_EQUIVALENCE_H_
