// Lets a multi-process sample run with no arguments: started without a
// launcher, it starts its processes itself through `pjrtx launch`.
#ifndef PJRTX_SAMPLES_COMMON_RELAUNCH_H_
#define PJRTX_SAMPLES_COMMON_RELAUNCH_H_

#include <cstdint>

#include "runtime/coordination/launch_environment.h"

namespace samples {

// When `environment` is a single process and `processes` > 1, replaces this
// process with `pjrtx_cli launch -n <processes> -- <this program> <args>`;
// returns otherwise. Exits 1 naming the reason if that fails.
void RelaunchIfNeeded(const pjrtx::LaunchEnvironment& environment,
                      int64_t processes, const char* pjrtx_cli, int argc,
                      char** argv);

}  // namespace samples

#endif  // PJRTX_SAMPLES_COMMON_RELAUNCH_H_
