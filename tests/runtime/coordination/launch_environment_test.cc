#include "runtime/coordination/launch_environment.h"

#include <map>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace pjrtx {
namespace {

using ::testing::HasSubstr;
using Env = std::map<std::string, std::string>;

absl::StatusOr<LaunchEnvironment> Detect(const Env& env) {
  return DetectLaunchEnvironment(
      [&env](const char* name) -> std::optional<std::string> {
        auto it = env.find(name);
        if (it == env.end()) return std::nullopt;
        return it->second;
      });
}

// Expects INVALID_ARGUMENT whose message contains every one of `parts`.
void ExpectInvalid(const Env& env, std::initializer_list<const char*> parts) {
  absl::StatusOr<LaunchEnvironment> result = Detect(env);
  ASSERT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument)
      << result.status();
  for (const char* part : parts) {
    EXPECT_THAT(result.status().message(), HasSubstr(part));
  }
}

TEST(LaunchEnvironmentTest, SingleProcessByDefault) {
  absl::StatusOr<LaunchEnvironment> env = Detect({});
  ASSERT_TRUE(env.ok()) << env.status();
  EXPECT_EQ(env->launcher, "single");
  EXPECT_EQ(env->num_processes, 1);
  EXPECT_EQ(env->process_id, 0);
  EXPECT_EQ(env->coordinator, "");
}

TEST(LaunchEnvironmentTest, ExplicitVariablesWinOverLaunchers) {
  absl::StatusOr<LaunchEnvironment> env =
      Detect({{"PJRTX_COORDINATOR", "head:1234"},
              {"PJRTX_NUM_PROCESSES", "8"},
              {"PJRTX_PROCESS_ID", "5"},
              {"OMPI_COMM_WORLD_SIZE", "2"},
              {"OMPI_COMM_WORLD_RANK", "1"},
              {"SLURM_NTASKS", "3"},
              {"SLURM_PROCID", "2"}});
  ASSERT_TRUE(env.ok()) << env.status();
  EXPECT_EQ(env->launcher, "pjrtx");
  EXPECT_EQ(env->coordinator, "head:1234");
  EXPECT_EQ(env->num_processes, 8);
  EXPECT_EQ(env->process_id, 5);
}

TEST(LaunchEnvironmentTest, ExplicitSingleProcessNeedsNoCoordinator) {
  absl::StatusOr<LaunchEnvironment> env =
      Detect({{"PJRTX_NUM_PROCESSES", "1"}, {"PJRTX_PROCESS_ID", "0"}});
  ASSERT_TRUE(env.ok()) << env.status();
  EXPECT_EQ(env->launcher, "pjrtx");
  EXPECT_EQ(env->coordinator, "");
}

TEST(LaunchEnvironmentTest, OpenMpiDefaultsToLoopbackCoordinator) {
  absl::StatusOr<LaunchEnvironment> env =
      Detect({{"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_RANK", "3"}});
  ASSERT_TRUE(env.ok()) << env.status();
  EXPECT_EQ(env->launcher, "openmpi");
  EXPECT_EQ(env->coordinator, "127.0.0.1:47100");
  EXPECT_EQ(env->num_processes, 4);
  EXPECT_EQ(env->process_id, 3);

  env = Detect({{"OMPI_COMM_WORLD_SIZE", "4"},
                {"OMPI_COMM_WORLD_RANK", "0"},
                {"PJRTX_COORDINATOR", "node7:9000"}});
  ASSERT_TRUE(env.ok()) << env.status();
  EXPECT_EQ(env->coordinator, "node7:9000");
}

TEST(LaunchEnvironmentTest, SlurmUsesFirstStepNodeAndJobPort) {
  absl::StatusOr<LaunchEnvironment> env =
      Detect({{"SLURM_NTASKS", "16"},
              {"SLURM_PROCID", "9"},
              {"SLURM_JOB_ID", "4097"},
              {"SLURM_STEP_NODELIST", "gpu[03-06,09],cpu1"},
              {"SLURM_JOB_NODELIST", "other[1-9]"}});
  ASSERT_TRUE(env.ok()) << env.status();
  EXPECT_EQ(env->launcher, "slurm");
  EXPECT_EQ(env->num_processes, 16);
  EXPECT_EQ(env->process_id, 9);
  EXPECT_EQ(env->coordinator, "gpu03:61441");  // 61440 + 4097 % 4096
}

TEST(LaunchEnvironmentTest, SlurmFallsBackToJobNodeListAndDefaultPort) {
  absl::StatusOr<LaunchEnvironment> env =
      Detect({{"SLURM_NTASKS", "2"},
              {"SLURM_PROCID", "1"},
              {"SLURM_JOB_NODELIST", "alpha,beta"}});
  ASSERT_TRUE(env.ok()) << env.status();
  EXPECT_EQ(env->coordinator, "alpha:47100");

  env = Detect({{"SLURM_NTASKS", "2"},
                {"SLURM_PROCID", "1"},
                {"PJRTX_COORDINATOR", "head:1"}});
  ASSERT_TRUE(env.ok()) << env.status();
  EXPECT_EQ(env->coordinator, "head:1");
}

TEST(LaunchEnvironmentTest, ParsesSlurmNodeLists) {
  EXPECT_EQ(FirstSlurmHost("a,b").value_or(""), "a");
  EXPECT_EQ(FirstSlurmHost("single").value_or(""), "single");
  EXPECT_EQ(FirstSlurmHost("node[01-04,07]").value_or(""), "node01");
  EXPECT_EQ(FirstSlurmHost("node[07,01-04]").value_or(""), "node07");
  EXPECT_EQ(FirstSlurmHost("node[01-02],login").value_or(""), "node01");
  EXPECT_EQ(FirstSlurmHost("n[1-2]-ib[3-4]").value_or(""), "n1-ib3");
  EXPECT_EQ(FirstSlurmHost("rack-2").value_or(""), "rack-2");
  for (const char* bad : {"", "node[01-04", "node]01[", ",a", "[]"}) {
    absl::StatusOr<std::string> host = FirstSlurmHost(bad);
    EXPECT_EQ(host.status().code(), absl::StatusCode::kInvalidArgument)
        << "'" << bad << "' gave " << host.value_or("?");
  }
}

TEST(LaunchEnvironmentTest, KubernetesIndexedJob) {
  absl::StatusOr<LaunchEnvironment> env =
      Detect({{"JOB_COMPLETION_INDEX", "2"},
              {"PJRTX_NUM_PROCESSES", "3"},
              {"PJRTX_COORDINATOR", "train-0.train:47100"}});
  ASSERT_TRUE(env.ok()) << env.status();
  EXPECT_EQ(env->launcher, "kubernetes");
  EXPECT_EQ(env->num_processes, 3);
  EXPECT_EQ(env->process_id, 2);
  EXPECT_EQ(env->coordinator, "train-0.train:47100");
}

TEST(LaunchEnvironmentTest, RejectsBadValues) {
  ExpectInvalid({{"PJRTX_PROCESS_ID", "0"}},
                {"PJRTX_NUM_PROCESSES", "not set"});
  ExpectInvalid({{"PJRTX_PROCESS_ID", "0"}, {"PJRTX_NUM_PROCESSES", "two"}},
                {"PJRTX_NUM_PROCESSES", "'two'", ">= 1"});
  ExpectInvalid({{"PJRTX_PROCESS_ID", "0"}, {"PJRTX_NUM_PROCESSES", "0"}},
                {"PJRTX_NUM_PROCESSES", "'0'", ">= 1"});
  ExpectInvalid({{"PJRTX_PROCESS_ID", "x"},
                 {"PJRTX_NUM_PROCESSES", "2"},
                 {"PJRTX_COORDINATOR", "h:1"}},
                {"PJRTX_PROCESS_ID", "'x'", "0..1"});
  ExpectInvalid({{"PJRTX_PROCESS_ID", "2"},
                 {"PJRTX_NUM_PROCESSES", "2"},
                 {"PJRTX_COORDINATOR", "h:1"}},
                {"PJRTX_PROCESS_ID", "'2'", "0..1"});
  ExpectInvalid({{"PJRTX_PROCESS_ID", "-1"},
                 {"PJRTX_NUM_PROCESSES", "2"},
                 {"PJRTX_COORDINATOR", "h:1"}},
                {"PJRTX_PROCESS_ID", "'-1'"});
  ExpectInvalid({{"PJRTX_PROCESS_ID", "1"}, {"PJRTX_NUM_PROCESSES", "2"}},
                {"PJRTX_COORDINATOR", "not set"});
  ExpectInvalid({{"PJRTX_PROCESS_ID", "1"},
                 {"PJRTX_NUM_PROCESSES", "2"},
                 {"PJRTX_COORDINATOR", "nohost"}},
                {"PJRTX_COORDINATOR", "'nohost'", "host:port"});
  ExpectInvalid({{"PJRTX_NUM_PROCESSES", "2"}}, {"PJRTX_PROCESS_ID"});
  ExpectInvalid({{"PJRTX_COORDINATOR", "h:99999"}}, {"'h:99999'"});

  ExpectInvalid({{"OMPI_COMM_WORLD_RANK", "0"}},
                {"OMPI_COMM_WORLD_SIZE", "not set"});
  ExpectInvalid({{"OMPI_COMM_WORLD_RANK", "4"}, {"OMPI_COMM_WORLD_SIZE", "4"}},
                {"OMPI_COMM_WORLD_RANK", "'4'", "0..3"});
  ExpectInvalid({{"OMPI_COMM_WORLD_RANK", "0"}, {"OMPI_COMM_WORLD_SIZE", "4x"}},
                {"OMPI_COMM_WORLD_SIZE", "'4x'"});

  ExpectInvalid({{"SLURM_PROCID", "0"}}, {"SLURM_NTASKS", "not set"});
  ExpectInvalid({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "-3"}},
                {"SLURM_NTASKS", "'-3'"});
  ExpectInvalid({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "2"}},
                {"SLURM_STEP_NODELIST", "not set"});
  ExpectInvalid({{"SLURM_PROCID", "0"},
                 {"SLURM_NTASKS", "2"},
                 {"SLURM_JOB_NODELIST", "node[1-2"}},
                {"SLURM_JOB_NODELIST", "'node[1-2'"});
  ExpectInvalid({{"SLURM_PROCID", "0"},
                 {"SLURM_NTASKS", "2"},
                 {"SLURM_JOB_NODELIST", "a"},
                 {"SLURM_JOB_ID", "abc"}},
                {"SLURM_JOB_ID", "'abc'"});

  ExpectInvalid({{"JOB_COMPLETION_INDEX", "0"}},
                {"PJRTX_NUM_PROCESSES", "not set", "Kubernetes"});
  ExpectInvalid({{"JOB_COMPLETION_INDEX", "0"}, {"PJRTX_NUM_PROCESSES", "2"}},
                {"PJRTX_COORDINATOR", "not set", "Kubernetes"});
  ExpectInvalid({{"JOB_COMPLETION_INDEX", "5"},
                 {"PJRTX_NUM_PROCESSES", "2"},
                 {"PJRTX_COORDINATOR", "h:1"}},
                {"JOB_COMPLETION_INDEX", "'5'", "0..1"});
}

}  // namespace
}  // namespace pjrtx
