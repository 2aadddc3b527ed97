// Plain SGD: param <- param - lr * grad for each of W1, b1, W2, b2.
// mlp_train donates the parameters and gradients, so each new parameter may
// take over the memory of the old one and nothing leaves the device. The
// learning rate is a device-resident scalar uploaded once.
func.func @main(%w1: tensor<16x64xf32>, %b1: tensor<64xf32>,
                %w2: tensor<64x1xf32>, %b2: tensor<1xf32>,
                %dw1: tensor<16x64xf32>, %db1: tensor<64xf32>,
                %dw2: tensor<64x1xf32>, %db2: tensor<1xf32>,
                %lr: tensor<f32>)
    -> (tensor<16x64xf32>, tensor<64xf32>, tensor<64x1xf32>, tensor<1xf32>) {
  %lr_w1 = stablehlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
  %step_w1 = stablehlo.multiply %lr_w1, %dw1 : tensor<16x64xf32>
  %new_w1 = stablehlo.subtract %w1, %step_w1 : tensor<16x64xf32>
  %lr_b1 = stablehlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<64xf32>
  %step_b1 = stablehlo.multiply %lr_b1, %db1 : tensor<64xf32>
  %new_b1 = stablehlo.subtract %b1, %step_b1 : tensor<64xf32>
  %lr_w2 = stablehlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<64x1xf32>
  %step_w2 = stablehlo.multiply %lr_w2, %dw2 : tensor<64x1xf32>
  %new_w2 = stablehlo.subtract %w2, %step_w2 : tensor<64x1xf32>
  %lr_b2 = stablehlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<1xf32>
  %step_b2 = stablehlo.multiply %lr_b2, %db2 : tensor<1xf32>
  %new_b2 = stablehlo.subtract %b2, %step_b2 : tensor<1xf32>
  func.return %new_w1, %new_b1, %new_w2, %new_b2 : tensor<16x64xf32>, tensor<64xf32>, tensor<64x1xf32>, tensor<1xf32>
}
