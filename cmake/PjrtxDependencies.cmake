# Finds the Debian packages the build uses (DESIGN section 10). A missing
# package stops configuration with the apt-get line that installs it.
set(PJRTX_APT_LINE
    "apt-get install libabsl-dev libgtest-dev libgmock-dev libbenchmark-dev libflatbuffers-dev flatbuffers-compiler libucx-dev ucx-utils libdlpack-dev libdnnl-dev ocl-icd-opencl-dev")

macro(pjrtx_require_package name)
  find_package(${name} ${ARGN} QUIET)
  if(NOT ${name}_FOUND)
    message(FATAL_ERROR
      "Package '${name}' not found. Install the build dependencies with:\n"
      "  ${PJRTX_APT_LINE}\n"
      "or run ./scripts/install-deps.sh")
  endif()
endmacro()

find_package(Threads REQUIRED)
pjrtx_require_package(absl CONFIG)
pjrtx_require_package(dlpack CONFIG)
pjrtx_require_package(FlatBuffers CONFIG)
pjrtx_require_package(dnnl CONFIG)
if(PJRTX_BUILD_TESTS)
  pjrtx_require_package(GTest)
  pjrtx_require_package(benchmark)
endif()
