#include "samples/common/slice_job.h"

#include <cstdint>
#include <utility>

#include "runtime/client/plugin_library.h"
#include "runtime/coordination/client_key_value.h"
#include "runtime/coordination/launch_environment.h"
#include "samples/common/must.h"
#include "samples/common/relaunch.h"

namespace samples {

// Long enough for every process of the job to start.
constexpr int64_t kJoinTimeoutMs = 120'000;

pjrtx::JobCoordination JoinSliceJob(const JobFlags& flags,
                                    const char* pjrtx_cli, int argc,
                                    char** argv) {
  const pjrtx::LaunchEnvironment environment =
      Must(pjrtx::DetectLaunchEnvironment(), "launch environment");
  RelaunchIfNeeded(environment, flags.slices, pjrtx_cli, argc, argv);
  return Must(pjrtx::JoinJob(environment, kJoinTimeoutMs), "joining the job");
}

pjrtx::client::Client CreateSliceClient(
    const JobFlags& flags, pjrtx::JobCoordination& job,
    std::vector<pjrtx::client::NamedValue> more_options) {
  auto library =
      Must(pjrtx::client::PluginLibrary::Load(flags.plugin), "plugin");
  std::vector<pjrtx::client::NamedValue> options = {
      {"topology", flags.topology},
      {"num_slices", int64_t{job.environment.num_processes}},
      {"slice_index", int64_t{job.environment.process_id}}};
  for (pjrtx::client::NamedValue& option : more_options) {
    options.push_back(std::move(option));
  }
  return Must(
      pjrtx::client::Client::Create(
          library, options, pjrtx::KeyValueCallbacksFor(job.store.get())),
      "client");
}

}  // namespace samples
