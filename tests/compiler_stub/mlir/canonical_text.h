// A canonical, generic-form-like text of the syntax tree for tests: two
// trees print the same exactly when they carry the same meaning. Source
// spellings (Type::text, Attribute::text), locations and the labels of entry
// blocks are left out, and an op's attributes are sorted by name.
#ifndef PJRTX_TESTS_COMPILER_STUB_MLIR_CANONICAL_TEXT_H_
#define PJRTX_TESTS_COMPILER_STUB_MLIR_CANONICAL_TEXT_H_

#include <string>

#include "compiler_stub/mlir/ast.h"

namespace pjrtx::mlir::testing {

std::string CanonicalText(const Type& type);
std::string CanonicalText(const Attribute& attribute);
std::string CanonicalText(const Operation& op);
std::string CanonicalText(const Module& module);

}  // namespace pjrtx::mlir::testing

#endif  // PJRTX_TESTS_COMPILER_STUB_MLIR_CANONICAL_TEXT_H_
