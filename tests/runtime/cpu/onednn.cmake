# Tests of the oneDNN matrix unit of the CPU engine: OneDnnDot against the
# reference dot_general, and the interpreter's plan cache (included from the
# CMakeLists.txt beside this file).
add_executable(cpu_onednn_tests ${CMAKE_CURRENT_LIST_DIR}/onednn_dot_test.cc)
target_link_libraries(cpu_onednn_tests PRIVATE pjrtx_cpu pjrtx_compiler
                      GTest::gtest_main GTest::gmock pjrtx_warnings)
pjrtx_add_test(cpu_onednn_tests COMMAND cpu_onednn_tests LABELS unit ISA_VARIANTS)
