# Tests of the structural and reduction kernels of the CPU engine (included
# from the CMakeLists.txt beside this file).
add_executable(cpu_structural_tests
  ${CMAKE_CURRENT_LIST_DIR}/shape_kernels_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/dot_convolution_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/reduce_sort_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/cascade_sum_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/gather_scatter_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/program_cost_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/triangular_solve_test.cc)
target_link_libraries(cpu_structural_tests PRIVATE pjrtx_cpu
                      GTest::gtest_main GTest::gmock pjrtx_warnings)
pjrtx_add_test(cpu_structural_tests COMMAND cpu_structural_tests LABELS unit
               ISA_VARIANTS)
