// A StableHLO program of two nested while loops, shared by the tests of
// region captures (the compiler stub) and of loops on the CUDA plugin.
#ifndef PJRTX_TESTS_COMPILER_STUB_NESTED_LOOP_PROGRAM_H_
#define PJRTX_TESTS_COMPILER_STUB_NESTED_LOOP_PROGRAM_H_

namespace pjrtx::test_programs {

// Adds 1 for each j < i for each i < n: n (n - 1) / 2. The inner loop's
// regions read %one and %i from two and one levels up, and each loop's
// condition is read back once per iteration.
inline constexpr char kNestedWhileTriangle[] = R"(
func.func @main(%n: tensor<i32>) -> tensor<i32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %i_end, %total = stablehlo.while(%i = %zero, %t = %zero) : tensor<i32>, tensor<i32>
  cond {
    %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %j_end, %t_end = stablehlo.while(%j = %zero, %u = %t) : tensor<i32>, tensor<i32>
    cond {
      %jlt = stablehlo.compare LT, %j, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %jlt : tensor<i1>
    } do {
      %j1 = stablehlo.add %j, %one : tensor<i32>
      %u1 = stablehlo.add %u, %one : tensor<i32>
      stablehlo.return %j1, %u1 : tensor<i32>, tensor<i32>
    }
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %t_end : tensor<i32>, tensor<i32>
  }
  func.return %total : tensor<i32>
}
)";

}  // namespace pjrtx::test_programs

#endif  // PJRTX_TESTS_COMPILER_STUB_NESTED_LOOP_PROGRAM_H_
