// Base fixtures shared by every conformance test.
//
// ConformanceTest skips known gaps and fails at once when the plugin's table
// cannot be used; tests that need no client (pure ABI, events) derive from
// it. ClientTest adds a fresh client per test (so memory statistics and
// transfer counters start clean) and skips when the plugin reports
// `pjrtx.unavailable_reason`.

#ifndef PJRTX_TESTS_CONFORMANCE_CONFORMANCE_TEST_H_
#define PJRTX_TESTS_CONFORMANCE_CONFORMANCE_TEST_H_

#include <vector>

#include "api_helpers.h"
#include "gtest/gtest.h"
#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx::conformance {

class ConformanceTest : public ::testing::Test {
 protected:
  void SetUp() override;

  const PJRTX_Api* api() const { return Api(); }
};

class ClientTest : public ConformanceTest {
 protected:
  void SetUp() override;

  PJRTX_Client* client() const { return client_.get(); }
  // Client_Devices and Client_AddressableDevices, read once in SetUp.
  const std::vector<PJRTX_Device*>& devices() const { return devices_; }
  const std::vector<PJRTX_Device*>& addressable_devices() const {
    return addressable_devices_;
  }
  // The first addressable device; SetUp guarantees there is one.
  PJRTX_Device* device() const { return addressable_devices_.front(); }

 private:
  ClientPtr client_;
  std::vector<PJRTX_Device*> devices_;
  std::vector<PJRTX_Device*> addressable_devices_;
};

// Skips the current test if the known-gaps file lists it.
void SkipIfKnownGap();

// Skips the current test with the plugin's `pjrtx.unavailable_reason`, if it
// published one. For tests that create their own clients.
void SkipIfUnavailable();

}  // namespace pjrtx::conformance

#endif  // PJRTX_TESTS_CONFORMANCE_CONFORMANCE_TEST_H_
