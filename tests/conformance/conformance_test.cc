#include "conformance_test.h"

#include <optional>
#include <string>

#include "plugin_under_test.h"

namespace pjrtx::conformance {

void SkipIfKnownGap() {
  const ::testing::TestInfo* info =
      ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string name =
      std::string(info->test_suite_name()) + "." + info->name();
  if (std::optional<std::string> reason = Plugin().known_gaps.ReasonFor(name)) {
    GTEST_SKIP() << "known gap: " << *reason;
  }
}

void ConformanceTest::SetUp() {
  SkipIfKnownGap();
  if (IsSkipped()) return;
  ASSERT_TRUE(Plugin().unusable_reason.empty())
      << "the plugin cannot be tested: " << Plugin().unusable_reason;
}

void SkipIfUnavailable() {
  if (std::optional<std::string> reason = UnavailableReason()) {
    GTEST_SKIP() << "plugin unavailable: " << *reason;
  }
}

void ClientTest::SetUp() {
  ConformanceTest::SetUp();
  if (IsSkipped() || HasFatalFailure()) return;
  SkipIfUnavailable();
  if (IsSkipped()) return;
  ASSERT_PJRTX_OK(CreateClient(&client_));
  ASSERT_NE(client_, nullptr) << "Client_Create returned OK and no client";
  devices_ = Devices(client_.get());
  addressable_devices_ = AddressableDevices(client_.get());
  ASSERT_FALSE(addressable_devices_.empty())
      << "the client has no addressable device and the plugin published no "
         "pjrtx.unavailable_reason";
}

}  // namespace pjrtx::conformance
