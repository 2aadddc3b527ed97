# dot_bench: dot_general on the TPU emulator against oneDNN called directly
# and OpenBLAS (included from the CMakeLists.txt beside this file). OpenBLAS
# is a benchmark-only dependency (libopenblas-dev); without it the benchmark
# is left out.
find_package(OpenMP COMPONENTS CXX)
find_package(PkgConfig)
if(PkgConfig_FOUND)
  pkg_check_modules(OPENBLAS IMPORTED_TARGET openblas)
endif()
if(TARGET PkgConfig::OPENBLAS AND TARGET OpenMP::OpenMP_CXX)
  add_executable(dot_bench ${CMAKE_CURRENT_LIST_DIR}/dot_bench.cc)
  target_link_libraries(dot_bench PRIVATE pjrtx::client pjrtx_ratio_benchmark
                        DNNL::dnnl PkgConfig::OPENBLAS OpenMP::OpenMP_CXX
                        absl::str_format pjrtx_warnings)
  add_dependencies(dot_bench pjrt_tpuemu)
  pjrtx_add_test(bench.dot_quick
    COMMAND dot_bench --plugin=$<TARGET_FILE:pjrt_tpuemu> --quick
    TIMEOUT 120 LABELS bench ISA_VARIANTS ISA_ANCHORS)
else()
  message(STATUS "dot_bench left out: needs OpenBLAS (apt-get install "
                 "libopenblas-dev) and OpenMP")
endif()
