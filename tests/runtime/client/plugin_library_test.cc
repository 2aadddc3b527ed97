#include "runtime/client/plugin_library.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pjrtx::client {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

TEST(PluginLibraryTest, LoadsPluginAndReadsAttributesAndSchema) {
  auto library = PluginLibrary::Load(MINIMAL_PLUGIN);
  ASSERT_TRUE(library.ok()) << library.status();
  EXPECT_EQ((*library)->StringAttribute("pjrtx.platform_name"), "minimal");
  ASSERT_EQ((*library)->option_defaults().size(), 1u);
  EXPECT_EQ((*library)->option_defaults()[0].name, "device_count");
}

TEST(PluginLibraryTest, MissingFileIsNotFoundWithThePath) {
  auto library = PluginLibrary::Load("/nonexistent/libpjrt_nothing.so");
  EXPECT_EQ(library.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(library.status().message(), HasSubstr("/nonexistent/"));
}

TEST(PluginLibraryTest, NewerMajorNamesBothVersions) {
  auto library = PluginLibrary::Load(FAKE_PLUGIN_NEWER_MAJOR);
  EXPECT_EQ(library.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(
      library.status().message(),
      AllOf(HasSubstr("implements pjrtx API 1.1"), HasSubstr("needs API 0.3")));
}

TEST(PluginLibraryTest, OlderMinorNamesBothVersions) {
  auto library = PluginLibrary::Load(FAKE_PLUGIN_OLDER_MINOR);
  EXPECT_EQ(library.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(library.status().message(),
              AllOf(HasSubstr("API 0.0"), HasSubstr("needs API 0.3")));
}

}  // namespace
}  // namespace pjrtx::client
