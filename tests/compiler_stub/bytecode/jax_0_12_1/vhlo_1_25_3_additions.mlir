// Saved by scripts/save_jax_artifacts.py beside its artifact (jaxlib 0.12.1, StableHLO 1.25.3); do not edit.
func.func @compare_weakorder(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %0 = stablehlo.compare LT, %a, %b, WEAKORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
func.func @exp2(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.exp2 %x : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
func.func @exp2_complex(%x: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = stablehlo.exp2 %x : tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}
func.func @log2(%x: tensor<2x2xbf16>) -> tensor<2x2xbf16> {
  %0 = stablehlo.log2 %x : tensor<2x2xbf16>
  return %0 : tensor<2x2xbf16>
}
func.func @fma(%a: tensor<3xf32>, %b: tensor<3xf32>, %c: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.fma %a, %b, %c : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @fma_f64(%a: tensor<f64>, %b: tensor<f64>, %c: tensor<f64>) -> tensor<f64> {
  %0 = stablehlo.fma %a, %b, %c : tensor<f64>
  return %0 : tensor<f64>
}
func.func @type_f8E5M3FNU(%x: tensor<3xf8E5M3FNU>) -> tensor<3xf8E5M3FNU> {
  %0 = stablehlo.constant dense<"0x7882FE"> : tensor<3xf8E5M3FNU>
  %1 = stablehlo.add %x, %0 : tensor<3xf8E5M3FNU>
  return %1 : tensor<3xf8E5M3FNU>
}
