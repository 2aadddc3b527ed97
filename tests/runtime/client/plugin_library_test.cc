#include "runtime/client/plugin_library.h"

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pjrtx::client {
namespace {

// The loader asks for the version this tree's header declares.
const std::string kNeedsCurrentApi =
    absl::StrCat("needs API ", PJRTX_API_MAJOR, ".", PJRTX_API_MINOR);

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
  EXPECT_THAT(library.status().message(),
              AllOf(HasSubstr("implements pjrtx API 1.1"),
                    HasSubstr(kNeedsCurrentApi)));
}

TEST(PluginLibraryTest, OlderMinorNamesBothVersions) {
  auto library = PluginLibrary::Load(FAKE_PLUGIN_OLDER_MINOR);
  EXPECT_EQ(library.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(library.status().message(),
              AllOf(HasSubstr("API 0.0"), HasSubstr(kNeedsCurrentApi)));
}

}  // namespace
}  // namespace pjrtx::client
