// Backward pass of the MLP in forward.mlir: the gradients of
// loss = mean(r^2) with respect to W1, b1, W2, b2, from the residuals the
// forward pass kept on the device (h = tanh(x W1 + b1), r = p - y):
//   dp  = 2 r / B                    d loss / d p
//   dW2 = h^T dp,   db2 = sum_rows(dp)
//   dz  = (dp W2^T) * (1 - h^2)      tanh'(z) = 1 - tanh(z)^2
//   dW1 = x^T dz,   db1 = sum_rows(dz)
// Transposes are folded into dot_general's contracting dimensions. The batch
// size B appears only as the leading 128 of the tensor<128x...> types, as in
// forward.mlir.
func.func @main(%x: tensor<128x16xf32>, %h: tensor<128x64xf32>,
                %r: tensor<128x1xf32>, %w2: tensor<64x1xf32>)
    -> (tensor<16x64xf32>, tensor<64xf32>, tensor<64x1xf32>, tensor<1xf32>) {
  %n_i32 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<128x16xf32>) -> tensor<i32>
  %n = stablehlo.convert %n_i32 : (tensor<i32>) -> tensor<f32>
  %two = stablehlo.constant dense<2.000000e+00> : tensor<f32>
  %scale = stablehlo.divide %two, %n : tensor<f32>
  %scale_rows = stablehlo.broadcast_in_dim %scale, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
  %dp = stablehlo.multiply %r, %scale_rows : tensor<128x1xf32>
  %dw2 = stablehlo.dot_general %h, %dp, contracting_dims = [0] x [0] : (tensor<128x64xf32>, tensor<128x1xf32>) -> tensor<64x1xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %db2 = stablehlo.reduce(%dp init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<128x1xf32>, tensor<f32>) -> tensor<1xf32>
  %dh = stablehlo.dot_general %dp, %w2, contracting_dims = [1] x [1] : (tensor<128x1xf32>, tensor<64x1xf32>) -> tensor<128x64xf32>
  %h2 = stablehlo.multiply %h, %h : tensor<128x64xf32>
  %one = stablehlo.constant dense<1.000000e+00> : tensor<128x64xf32>
  %dtanh = stablehlo.subtract %one, %h2 : tensor<128x64xf32>
  %dz = stablehlo.multiply %dh, %dtanh : tensor<128x64xf32>
  %dw1 = stablehlo.dot_general %x, %dz, contracting_dims = [0] x [0] : (tensor<128x16xf32>, tensor<128x64xf32>) -> tensor<16x64xf32>
  %db1 = stablehlo.reduce(%dz init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<128x64xf32>, tensor<f32>) -> tensor<64xf32>
  func.return %dw1, %db1, %dw2, %db2 : tensor<16x64xf32>, tensor<64xf32>, tensor<64x1xf32>, tensor<1xf32>
}
