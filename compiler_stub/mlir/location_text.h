// How messages write a syntax tree Location: "12:5" for a position in MLIR
// text, exactly as the text parser's errors always have, and
// "/src/model.py:12:5" for the source position an artifact's location
// names. A construct without a position (an artifact op whose location is
// unknown, a value a pass made up) keeps the old "0:0". Errors put it
// first: "<location>: <message>".
#ifndef PJRTX_COMPILER_STUB_MLIR_LOCATION_TEXT_H_
#define PJRTX_COMPILER_STUB_MLIR_LOCATION_TEXT_H_

#include <string>

#include "compiler_stub/mlir/location.h"

namespace pjrtx::mlir {

std::string LocationText(const Location& location);

}  // namespace pjrtx::mlir

#endif  // PJRTX_COMPILER_STUB_MLIR_LOCATION_TEXT_H_
