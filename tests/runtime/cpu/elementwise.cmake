# Tests of the narrow float formats, Literal and the elementwise kernels of
# the CPU engine (included from the CMakeLists.txt beside this file).
add_executable(cpu_elementwise_tests
  ${CMAKE_CURRENT_LIST_DIR}/float_formats_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/literal_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/elementwise_kernels_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/vector_math_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/cpu_features_test.cc)
target_link_libraries(cpu_elementwise_tests PRIVATE pjrtx_cpu DNNL::dnnl
                      GTest::gtest_main GTest::gmock pjrtx_warnings)
pjrtx_add_test(cpu_elementwise_tests COMMAND cpu_elementwise_tests LABELS unit
               ISA_VARIANTS)

# No CPU-feature query outside runtime/cpu/cpu_features.cc.
pjrtx_add_test(cpu_feature_queries
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/feature_queries_test.sh
          ${PROJECT_SOURCE_DIR}
  LABELS unit)
