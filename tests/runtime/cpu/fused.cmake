# Tests of fused elementwise execution: the register-resident f32 path
# against a per-element reference (included from the CMakeLists.txt beside
# this file).
add_executable(cpu_fused_tests ${CMAKE_CURRENT_LIST_DIR}/fused_f32_test.cc)
target_link_libraries(cpu_fused_tests PRIVATE pjrtx_cpu
                      GTest::gtest_main GTest::gmock pjrtx_warnings)
pjrtx_add_test(cpu_fused_tests COMMAND cpu_fused_tests LABELS unit ISA_VARIANTS)
