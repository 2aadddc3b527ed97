// The custom syntax of Shardy's module-level sdy.mesh, which JAX prints
// before the functions whenever a program's arguments are placed on
// devices (with #sdy.sharding<@mesh, ...> on the arguments):
//   sdy.mesh @empty_mesh = <[]>
//   sdy.mesh @mesh = <["x"=2, "y"=4], device_ids=[...]> {attr-dict}
// The mesh is kept as an uninterpreted #sdy.mesh<...>: it only names the
// devices the sharding annotations refer to.
#include <string>
#include <utility>

#include "compiler_stub/mlir/custom_op_helpers.h"
#include "compiler_stub/mlir/custom_ops.h"
#include "support/status_macros.h"

namespace pjrtx::mlir {
namespace {

// @name = mesh attr-dict, the mesh written without its #sdy.mesh prefix
// (or, as an attribute, with it).
absl::Status ParseMesh(Parser& parser, Operation& op) {
  const Token name = parser.token();
  Attribute symbol;
  PJRTX_ASSIGN_OR_RETURN(symbol.string_value, parser.ParseSymbolName());
  symbol.kind = Attribute::Kind::kString;
  symbol.location = name.location;
  symbol.text = std::string(name.text);
  op.attributes.emplace_back("sym_name", std::move(symbol));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kEqual));
  const size_t begin = parser.Mark();
  Attribute mesh;
  mesh.location = parser.token().location;
  if (parser.Is(TokenKind::kLess)) {
    mesh.kind = Attribute::Kind::kDialect;
    mesh.dialect = "sdy";
    mesh.mnemonic = "mesh";
    PJRTX_ASSIGN_OR_RETURN(std::string_view body, parser.CaptureAngleBody());
    mesh.body = std::string(body);
    mesh.text = std::string(parser.TextFrom(begin));
  } else {
    PJRTX_ASSIGN_OR_RETURN(mesh, parser.ParseAttribute());
  }
  op.attributes.emplace_back("mesh", std::move(mesh));
  return ParseOptionalAttributes(parser, op);
}

}  // namespace

CustomOpParser FindSdyOpParser(std::string_view name) {
  if (name == "sdy.mesh") return ParseMesh;
  return nullptr;
}

}  // namespace pjrtx::mlir
