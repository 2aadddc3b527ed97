#include "runtime/cpu/cpu_features.h"

#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "oneapi/dnnl/dnnl.h"

namespace pjrtx::cpu {
namespace {

constexpr char kSetting[] = "PJRTX_CPU_MAX_ISA";

CpuIsa DetectIsa() {
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")) {
    return CpuIsa::kAvx512;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    return CpuIsa::kAvx2;
  }
  return CpuIsa::kBaseline;
}

// Caps oneDNN at `isa` unless its own setting is there; oneDNN accepts a
// cap only before its first primitive, so a refusal leaves it as it was.
void CapOneDnn(CpuIsa isa) {
  if (std::getenv("DNNL_MAX_CPU_ISA") != nullptr) return;
  switch (isa) {
    case CpuIsa::kAvx512:
      return;
    case CpuIsa::kAvx2:
      dnnl_set_max_cpu_isa(dnnl_cpu_isa_avx2);
      return;
    case CpuIsa::kBaseline:
      dnnl_set_max_cpu_isa(dnnl_cpu_isa_sse41);
      return;
  }
}

bool OneDnnHasVnni() {
  const auto isa = static_cast<unsigned>(dnnl_get_effective_cpu_isa());
  auto has = [isa](dnnl_cpu_isa_t feature) {
    const auto bits = static_cast<unsigned>(feature);
    return (isa & bits) == bits;
  };
  return has(dnnl_cpu_isa_avx512_core_vnni) || has(dnnl_cpu_isa_avx2_vnni);
}

CpuFeatures Detect() {
  CpuFeatures features;
  features.detected = DetectIsa();
  features.isa = features.detected;
  features.description = std::string(CpuIsaName(features.isa));
  if (const char* setting = std::getenv(kSetting); setting != nullptr) {
    absl::StatusOr<CpuIsa> cap = ParseCpuIsa(setting);
    if (!cap.ok()) {
      features.setting_error = cap.status();
    } else {
      if (*cap < features.isa) features.isa = *cap;
      features.description =
          absl::StrCat(CpuIsaName(features.isa), " (", kSetting, "=", setting,
                       "; the CPU has ", CpuIsaName(features.detected), ")");
      CapOneDnn(features.isa);
    }
  }
  features.exact_int8_matmul = OneDnnHasVnni();
  return features;
}

}  // namespace

absl::string_view CpuIsaName(CpuIsa isa) {
  switch (isa) {
    case CpuIsa::kBaseline:
      return "baseline";
    case CpuIsa::kAvx2:
      return "avx2";
    case CpuIsa::kAvx512:
      return "avx512";
  }
  return "unknown";
}

absl::StatusOr<CpuIsa> ParseCpuIsa(absl::string_view name) {
  for (CpuIsa isa : {CpuIsa::kBaseline, CpuIsa::kAvx2, CpuIsa::kAvx512}) {
    if (name == CpuIsaName(isa)) return isa;
  }
  return absl::InvalidArgumentError(
      absl::StrCat(kSetting, " is '", name,
                   "'; expected 'avx512', 'avx2' or 'baseline' (the widest "
                   "vector instructions the CPU engine may use)"));
}

const CpuFeatures& HostCpuFeatures() {
  static const CpuFeatures* const features = new CpuFeatures(Detect());
  return *features;
}

}  // namespace pjrtx::cpu
