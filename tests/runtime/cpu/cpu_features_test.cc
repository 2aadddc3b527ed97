#include "runtime/cpu/cpu_features.h"

#include <cstdlib>
#include <string>

#include "gtest/gtest.h"
#include "oneapi/dnnl/dnnl.h"

namespace pjrtx::cpu {
namespace {

TEST(CpuIsaTest, ParsesEveryNameItPrints) {
  for (CpuIsa isa : {CpuIsa::kBaseline, CpuIsa::kAvx2, CpuIsa::kAvx512}) {
    absl::StatusOr<CpuIsa> parsed = ParseCpuIsa(CpuIsaName(isa));
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(*parsed, isa);
  }
  EXPECT_LT(CpuIsa::kBaseline, CpuIsa::kAvx2);
  EXPECT_LT(CpuIsa::kAvx2, CpuIsa::kAvx512);
}

TEST(CpuIsaTest, UnknownNameIsNamedWithTheAcceptedOnes) {
  for (const char* bad : {"avx3", "AVX2", "", "sse"}) {
    absl::StatusOr<CpuIsa> parsed = ParseCpuIsa(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(parsed.status().message().find(std::string("'") + bad + "'"),
              absl::string_view::npos)
        << parsed.status();
    EXPECT_NE(parsed.status().message().find("'avx512', 'avx2' or 'baseline'"),
              absl::string_view::npos)
        << parsed.status();
  }
}

// Run by CTest with and without PJRTX_CPU_MAX_ISA (the `.isa_*` variants):
// the engine's ISA is the detected one capped by the setting, and the cap
// reaches oneDNN unless DNNL_MAX_CPU_ISA is set.
TEST(HostCpuFeaturesTest, HonoursTheSetting) {
  const CpuFeatures& features = HostCpuFeatures();
  EXPECT_LE(features.isa, features.detected);
  const char* setting = std::getenv("PJRTX_CPU_MAX_ISA");
  if (setting == nullptr) {
    EXPECT_EQ(features.isa, features.detected);
    EXPECT_TRUE(features.setting_error.ok());
    EXPECT_EQ(features.description, CpuIsaName(features.detected));
    return;
  }
  absl::StatusOr<CpuIsa> cap = ParseCpuIsa(setting);
  if (!cap.ok()) {
    EXPECT_EQ(features.setting_error, cap.status());
    EXPECT_EQ(features.isa, features.detected);
    return;
  }
  EXPECT_EQ(features.isa, std::min(*cap, features.detected));
  EXPECT_NE(
      features.description.find(std::string("PJRTX_CPU_MAX_ISA=") + setting),
      std::string::npos)
      << features.description;
  // The one feature query outside runtime/cpu/cpu_features.cc the tree
  // allows (tests/runtime/cpu/feature_queries_test.sh): proof that oneDNN
  // was capped too.
  if (std::getenv("DNNL_MAX_CPU_ISA") == nullptr && *cap != CpuIsa::kAvx512) {
    const auto onednn = static_cast<unsigned>(dnnl_get_effective_cpu_isa());
    const auto limit = static_cast<unsigned>(
        *cap == CpuIsa::kAvx2 ? dnnl_cpu_isa_avx2 : dnnl_cpu_isa_sse41);
    EXPECT_EQ(onednn & ~limit, 0u)
        << "oneDNN's ISA has bits beyond " << CpuIsaName(*cap);
  }
}

}  // namespace
}  // namespace pjrtx::cpu
