// Forward pass of the 2-layer MLP trained by mlp_train.cc:
//   z = x W1 + b1,  h = tanh(z),  p = h W2 + b2,  r = p - y,
//   loss = mean(r^2) over the batch.
// Besides the loss it returns the residuals the backward pass needs (h and
// r), so they stay on the device instead of being recomputed or copied out.
//
// Shapes: x 128x16 (batch 128, 16 features), W1 16x64, b1 64, W2 64x1,
// b2 1. The batch size appears only as the leading 128 of the
// tensor<128x...> types (mlp_train --batch=N rewrites exactly those); the
// mean divides by get_dimension_size so no constant depends on it.
func.func @main(%x: tensor<128x16xf32>, %y: tensor<128x1xf32>,
                %w1: tensor<16x64xf32>, %b1: tensor<64xf32>,
                %w2: tensor<64x1xf32>, %b2: tensor<1xf32>)
    -> (tensor<f32>, tensor<128x64xf32>, tensor<128x1xf32>) {
  %xw1 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<128x16xf32>, tensor<16x64xf32>) -> tensor<128x64xf32>
  %b1_rows = stablehlo.broadcast_in_dim %b1, dims = [1] : (tensor<64xf32>) -> tensor<128x64xf32>
  %z = stablehlo.add %xw1, %b1_rows : tensor<128x64xf32>
  %h = stablehlo.tanh %z : tensor<128x64xf32>
  %hw2 = stablehlo.dot_general %h, %w2, contracting_dims = [1] x [0] : (tensor<128x64xf32>, tensor<64x1xf32>) -> tensor<128x1xf32>
  %b2_rows = stablehlo.broadcast_in_dim %b2, dims = [1] : (tensor<1xf32>) -> tensor<128x1xf32>
  %p = stablehlo.add %hw2, %b2_rows : tensor<128x1xf32>
  %r = stablehlo.subtract %p, %y : tensor<128x1xf32>
  %r2 = stablehlo.multiply %r, %r : tensor<128x1xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %sum = stablehlo.reduce(%r2 init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<128x1xf32>, tensor<f32>) -> tensor<f32>
  %n_i32 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<128x16xf32>) -> tensor<i32>
  %n = stablehlo.convert %n_i32 : (tensor<i32>) -> tensor<f32>
  %loss = stablehlo.divide %sum, %n : tensor<f32>
  func.return %loss, %h, %r : tensor<f32>, tensor<128x64xf32>, tensor<128x1xf32>
}
