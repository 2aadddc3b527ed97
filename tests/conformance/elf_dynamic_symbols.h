// Reads the defined dynamic symbols of an ELF64 shared object.
//
// The design promises that a plugin exports exactly two symbols,
// GetPjrtxApi and GetPjrtApi; this reader lets the suite check that on the
// file itself, without depending on binutils being installed where the
// suite runs.

#ifndef PJRTX_TESTS_CONFORMANCE_ELF_DYNAMIC_SYMBOLS_H_
#define PJRTX_TESTS_CONFORMANCE_ELF_DYNAMIC_SYMBOLS_H_

#include <string>
#include <vector>

namespace pjrtx::conformance {

// Lists the names of the symbols of `.dynsym` that are defined (section index
// not SHN_UNDEF) and visible to other objects (binding GLOBAL, WEAK or
// GNU_UNIQUE): what `nm -D --defined-only` prints, without version suffixes.
// Only ELF64 files of the host's byte order are read. Returns false and sets
// `error` if the file cannot be read or is not such a file.
bool ReadDefinedDynamicSymbols(const std::string& path,
                               std::vector<std::string>* names,
                               std::string* error);

}  // namespace pjrtx::conformance

#endif  // PJRTX_TESTS_CONFORMANCE_ELF_DYNAMIC_SYMBOLS_H_
