#include "runtime/core/base/value.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pjrtx {
namespace {

using ::testing::HasSubstr;

std::vector<OptionSpec> Schema() {
  return {{"topology", std::string("v5e:2x2"), "the topology"},
          {"num_slices", int64_t{1}, "slices"},
          {"sync", false, "sync mode"}};
}

TEST(OptionSetTest, DefaultsFillOptionsNotGiven) {
  absl::StatusOr<OptionSet> set =
      OptionSet::Validate(Schema(), {{"num_slices", int64_t{4}}});
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_EQ(set->GetString("topology"), "v5e:2x2");
  EXPECT_EQ(set->GetInt64("num_slices"), 4);
  EXPECT_FALSE(set->GetBool("sync"));
}

TEST(OptionSetTest, UnknownOptionIsNamedWithTheKnownOnes) {
  absl::StatusOr<OptionSet> set =
      OptionSet::Validate(Schema(), {{"num_slice", int64_t{4}}});
  ASSERT_EQ(set.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(set.status().message(), HasSubstr("'num_slice'"));
  EXPECT_THAT(set.status().message(), HasSubstr("num_slices (int64)"));
}

TEST(OptionSetTest, WrongTypeNamesOptionAndBothTypes) {
  absl::StatusOr<OptionSet> set =
      OptionSet::Validate(Schema(), {{"num_slices", std::string("4")}});
  ASSERT_EQ(set.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(set.status().message(), HasSubstr("'num_slices'"));
  EXPECT_THAT(set.status().message(), HasSubstr("int64"));
  EXPECT_THAT(set.status().message(), HasSubstr("string"));
}

TEST(OptionSetTest, RepeatedOptionIsRejected) {
  absl::StatusOr<OptionSet> set =
      OptionSet::Validate(Schema(), {{"sync", true}, {"sync", false}});
  EXPECT_EQ(set.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(set.status().message(), HasSubstr("twice"));
}

TEST(ValueTest, PrintsEveryType) {
  EXPECT_EQ(ValueToString(AttributeValue(std::string("x"))), "x");
  EXPECT_EQ(ValueToString(AttributeValue(int64_t{-3})), "-3");
  EXPECT_EQ(ValueToString(AttributeValue(std::vector<int64_t>{1, 2})), "[1,2]");
  EXPECT_EQ(ValueToString(AttributeValue(true)), "true");
}

}  // namespace
}  // namespace pjrtx
