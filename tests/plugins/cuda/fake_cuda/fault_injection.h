// Failures on demand (FAKE_CUDA_FAIL_AFTER, FAKE_CUDA_FAIL_ALLOC_AFTER,
// FAKE_CUDA_FAIL_LAUNCH), so that tests reach the plugin's error paths.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_FAULT_INJECTION_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_FAULT_INJECTION_H_

#include <cuda.h>

namespace fake_cuda {

// Counts a call to entry point `name`; CUDA_ERROR_UNKNOWN once
// FAKE_CUDA_FAIL_AFTER's count for it is used up, else CUDA_SUCCESS.
CUresult CountCall(const char* name);

// Counts a device allocation; true when FAKE_CUDA_FAIL_ALLOC_AFTER says
// this one (and every later one) runs out of memory.
bool AllocationFails();

// True when FAKE_CUDA_FAIL_LAUNCH makes every kernel launch fail.
bool LaunchFails();

}  // namespace fake_cuda

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_FAULT_INJECTION_H_
