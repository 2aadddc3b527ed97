# Collectives on the CPU engine: process groups and start/finish overlap
# (included from the CMakeLists.txt beside this file).
add_executable(cpu_collective_tests
               ${CMAKE_CURRENT_LIST_DIR}/collective_ops_test.cc)
target_link_libraries(cpu_collective_tests PRIVATE pjrtx_cpu
                      pjrtx_compiler pjrtx::runtime_core
                      GTest::gtest_main GTest::gmock pjrtx_warnings)
pjrtx_add_test(cpu_collective_tests COMMAND cpu_collective_tests LABELS unit)
