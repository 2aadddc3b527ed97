// The VHLO ops this reader knows (VhloOps.td): each versioned op, the
// StableHLO op it stands for, the VHLO versions that have it, and its
// attributes, which the properties encoding stores without names.
#ifndef PJRTX_COMPILER_STUB_BYTECODE_VHLO_OPS_H_
#define PJRTX_COMPILER_STUB_BYTECODE_VHLO_OPS_H_

#include <string>
#include <string_view>
#include <vector>

namespace pjrtx::bytecode {

struct VhloVersion {
  int major = 0;
  int minor = 0;
  int patch = 0;
  friend bool operator<(const VhloVersion& a, const VhloVersion& b) {
    if (a.major != b.major) return a.major < b.major;
    if (a.minor != b.minor) return a.minor < b.minor;
    return a.patch < b.patch;
  }
  std::string ToString() const;
};

// The newest StableHLO/VHLO version whose ops and encodings this reader
// knows; producers newer than it are rejected.
inline constexpr VhloVersion kNewestVhloVersion = {1, 25, 3};
inline constexpr VhloVersion kOldestVhloVersion = {0, 9, 0};

struct VhloOp {
  const char* name;       // Without "vhlo.": "gather_v2".
  const char* stablehlo;  // "stablehlo.gather"; "func.func", "func.call".
  VhloVersion min_version;
  VhloVersion max_version;  // kNewestVhloVersion for current ops.
  // Attribute names in declaration order.
  std::vector<const char*> attributes;
};

// The op named `name` (without the dialect), or null.
const VhloOp* FindVhloOp(std::string_view name);

// The op's attribute names in the order op properties store them:
// sorted by name, as ODS-generated ops write them.
std::vector<std::string> PropertiesOrder(const VhloOp& op);

}  // namespace pjrtx::bytecode

#endif  // PJRTX_COMPILER_STUB_BYTECODE_VHLO_OPS_H_
