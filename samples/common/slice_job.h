// Starting a multi-process sample: one process per slice, a client of the
// tpu_emu plugin per process that knows its slice and the job's store.
#ifndef PJRTX_SAMPLES_COMMON_SLICE_JOB_H_
#define PJRTX_SAMPLES_COMMON_SLICE_JOB_H_

#include <vector>

#include "runtime/client/client.h"
#include "runtime/client/named_value.h"
#include "runtime/coordination/job_coordination.h"
#include "samples/common/job_flags.h"

namespace samples {

// Detects the launcher (without one and with several slices, starts them
// through `pjrtx_cli launch`; see RelaunchIfNeeded) and joins the job's
// key-value store. Exits 1 naming the step that failed.
pjrtx::JobCoordination JoinSliceJob(const JobFlags& flags,
                                    const char* pjrtx_cli, int argc,
                                    char** argv);

// A client of `flags.plugin` for this process's slice (topology,
// num_slices, slice_index from the job) with `more_options`, given the
// job's store. Exits 1 naming the step that failed.
pjrtx::client::Client CreateSliceClient(
    const JobFlags& flags, pjrtx::JobCoordination& job,
    std::vector<pjrtx::client::NamedValue> more_options = {});

}  // namespace samples

#endif  // PJRTX_SAMPLES_COMMON_SLICE_JOB_H_
