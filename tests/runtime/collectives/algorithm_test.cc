#include "runtime/collectives/algorithm.h"

#include <cstring>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pjrtx::collectives {
namespace {

using ::testing::HasSubstr;

GetEnvFunction EnvWith(const char* value) {
  return [value](const char* name) -> const char* {
    return std::strcmp(name, kAlgorithmEnvironmentVariable) == 0 ? value
                                                                 : nullptr;
  };
}

TEST(AlgorithmTest, ParsesEveryNameBack) {
  for (Algorithm algorithm :
       {Algorithm::kAuto, Algorithm::kRing, Algorithm::kHalvingDoubling,
        Algorithm::kHierarchical}) {
    absl::StatusOr<Algorithm> parsed = ParseAlgorithm(AlgorithmName(algorithm));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, algorithm);
  }
}

TEST(AlgorithmTest, UnknownNameIsNamedWithTheChoices) {
  absl::StatusOr<Algorithm> parsed = ParseAlgorithm("tree");
  EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(parsed.status().message(), HasSubstr("'tree'"));
  EXPECT_THAT(parsed.status().message(), HasSubstr("halving_doubling"));
}

TEST(AlgorithmTest, HeuristicPicksBySizeAndSlices) {
  const GetEnvFunction unset = EnvWith(nullptr);
  EXPECT_EQ(*ChooseAlgorithm(Algorithm::kAuto, 1024, 8, 1, unset),
            Algorithm::kHalvingDoubling);
  EXPECT_EQ(*ChooseAlgorithm(Algorithm::kAuto, 64 << 20, 8, 1, unset),
            Algorithm::kRing);
  EXPECT_EQ(*ChooseAlgorithm(Algorithm::kAuto, 1024, 8, 2, unset),
            Algorithm::kHierarchical);
  EXPECT_EQ(*ChooseAlgorithm(Algorithm::kAuto, 64 << 20, 8, 4, unset),
            Algorithm::kHierarchical);
  // One chip per slice: nothing to gain from the intra-slice phases.
  EXPECT_EQ(*ChooseAlgorithm(Algorithm::kAuto, 64 << 20, 4, 4, unset),
            Algorithm::kRing);
}

TEST(AlgorithmTest, EnvironmentOverridesHeuristicButNotTheCaller) {
  EXPECT_EQ(*ChooseAlgorithm(Algorithm::kAuto, 1024, 8, 1, EnvWith("ring")),
            Algorithm::kRing);
  EXPECT_EQ(*ChooseAlgorithm(Algorithm::kAuto, 1024, 8, 1, EnvWith("auto")),
            Algorithm::kHalvingDoubling);
  EXPECT_EQ(*ChooseAlgorithm(Algorithm::kAuto, 1024, 8, 1, EnvWith("")),
            Algorithm::kHalvingDoubling);
  EXPECT_EQ(*ChooseAlgorithm(Algorithm::kHalvingDoubling, 64 << 20, 8, 1,
                             EnvWith("ring")),
            Algorithm::kHalvingDoubling);
}

TEST(AlgorithmTest, BadEnvironmentValueNamesTheVariable) {
  absl::StatusOr<Algorithm> chosen =
      ChooseAlgorithm(Algorithm::kAuto, 1024, 8, 1, EnvWith("rings"));
  EXPECT_EQ(chosen.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(chosen.status().message(),
              HasSubstr("PJRTX_COLLECTIVE_ALGORITHM"));
  EXPECT_THAT(chosen.status().message(), HasSubstr("'rings'"));
}

TEST(AlgorithmTest, HierarchicalNeedsEqualSlices) {
  absl::StatusOr<Algorithm> chosen =
      ChooseAlgorithm(Algorithm::kHierarchical, 1024, 6, 4, EnvWith(nullptr));
  EXPECT_EQ(chosen.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(chosen.status().message(), HasSubstr("6 ranks"));
  EXPECT_THAT(chosen.status().message(), HasSubstr("4 slices"));
}

}  // namespace
}  // namespace pjrtx::collectives
