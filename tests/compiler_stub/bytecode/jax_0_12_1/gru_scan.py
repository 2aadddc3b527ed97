# gru_scan: saved by scripts/save_jax_artifacts.py with JAX 0.12.1 (jaxlib 0.12.1); do not edit.
import numpy as np
array, float32, uint32, int32 = np.array, np.float32, np.uint32, np.int32
inf, nan = np.inf, np.nan

data = dict(
    custom_call_targets=[],
    nr_devices=1,
    jax_version='0.12.1',
    stablehlo_version='1.25.3',
    inputs=(array([[[-1.1420923 , -1.0693365 , -0.7572575 ,  0.7686581 ],
        [-1.0379355 , -1.0260364 , -0.39261925,  1.3877289 ],
        [-0.91745096, -0.69673103,  0.1933089 ,  0.14465216]],

       [[ 0.38609377, -0.5705885 , -0.93558365, -1.3355174 ],
        [ 0.3295198 , -0.20754123,  0.42677116,  0.04500966],
        [ 1.3904741 ,  0.58316   ,  0.16520463,  0.04400742]],

       [[-0.5101937 , -0.38733238, -0.32001817,  1.5219252 ],
        [-0.18918018, -0.5966429 ,  0.24150018,  0.72225475],
        [-1.1281838 , -2.331201  , -0.27063492,  1.0249432 ]],

       [[-0.6921021 ,  0.62939334,  0.3285837 ,  0.69073415],
        [-0.6392099 , -0.35181287,  1.6082942 ,  0.69057244],
        [-2.50296   ,  1.2589998 ,  2.0117476 , -0.26759037]],

       [[ 0.81855124, -0.85196334,  0.05125836,  0.08534441],
        [-0.62477356,  0.9080077 ,  0.54587334,  0.64104   ],
        [ 0.90362895, -2.17732   ,  0.34777066, -1.5982221 ]]],
      dtype=float32), array([[0., 0., 0., 0., 0., 0.],
       [0., 0., 0., 0., 0., 0.],
       [0., 0., 0., 0., 0., 0.]], dtype=float32), array([[-0.3694995 ,  0.08013568, -0.00207784,  0.15046059, -0.39801848,
         0.33233044],
       [ 0.02812647, -0.35124543, -0.4074721 , -0.3919692 , -0.21528459,
         0.3556864 ],
       [ 0.26836014, -0.16321434, -0.16397637,  0.5788763 ,  0.2708366 ,
        -0.24101718],
       [-0.04491359, -0.12908748,  0.04546244,  0.26374495, -0.08246744,
         0.11078431],
       [ 0.17047964,  0.2350523 , -0.18913023, -0.06653894,  0.59170604,
        -0.05579042],
       [ 0.00897393,  0.13228448, -0.17317817, -0.11692428,  0.5034684 ,
         0.3889368 ],
       [-0.33103123,  0.01954974, -0.3868289 , -0.45952424,  0.00082094,
         0.45736626],
       [-0.02454784,  0.4410603 , -0.31705514,  0.04088049,  0.02428378,
         0.02585879],
       [ 0.29802004,  0.17201363, -0.16470617, -0.4053831 , -0.16614309,
        -0.00617564],
       [-0.16520122, -0.45752415, -0.52908957,  0.24338454,  0.07692935,
        -0.17566745]], dtype=float32), array([[ 0.09141512, -0.31199524,  0.22513536,  0.2821694 , -0.5853106 ,
        -0.39065385],
       [ 0.03835212, -0.09487278, -0.00504035, -0.25591317,  0.2638194 ,
         0.23333758],
       [ 0.01980921,  0.33817238,  0.1402528 , -0.25778773,  0.11062524,
        -0.28766477],
       [ 0.26353508, -0.01497777, -0.05545871, -0.20427886,  0.3667624 ,
        -0.04635885],
       [-0.12849835, -0.10564007,  0.15969275,  0.10963322,  0.12381978,
         0.1292463 ],
       [ 0.64249426, -0.1219245 , -0.15367281, -0.24413182,  0.18479383,
         0.33869168],
       [-0.03418424, -0.25204694, -0.24734436,  0.19517784,  0.22297625,
         0.16294628],
       [-0.19965291,  0.0696484 ,  0.03500574,  0.06560658,  0.26142862,
         0.06707866],
       [ 0.20367406,  0.02027372,  0.08673582,  0.18938647, -0.43714675,
        -0.09590136],
       [-0.14111179, -0.19166335, -0.08254267,  0.4484824 , -0.25974932,
         0.2904835 ]], dtype=float32), array([[ 0.07326885,  0.2034535 , -0.1756588 , -0.27260193, -0.59755147,
         0.2914869 ],
       [ 0.00499719,  0.0617194 , -0.23507847,  0.3679494 ,  0.28296018,
        -0.03654717],
       [-0.16675904, -0.10700741, -0.23958766,  0.00796924, -0.18485032,
         0.17566276],
       [-0.10784058, -0.10618712,  0.4611759 , -0.21771586, -0.47037476,
         0.10986456],
       [-0.6233606 ,  0.07931359,  0.29451606,  0.02103451,  0.00278252,
        -0.6151828 ],
       [ 0.16659111,  0.11888777, -0.35159934,  0.57395124, -0.36720487,
        -0.5037871 ],
       [-0.5433173 ,  0.00779127,  0.10136137,  0.13229217, -0.10120799,
        -0.2438025 ],
       [ 0.25282937, -0.2692756 , -0.36295205,  0.4203947 ,  0.05327145,
         0.14138697],
       [ 0.18775222, -0.17153913, -0.15985878,  0.19217451, -0.18514536,
         0.10080621],
       [-0.02683787, -0.35828146,  0.28991723, -0.38680857,  0.06988903,
         0.0200954 ]], dtype=float32), ),
    expected_outputs=(array([[-0.1168307 ,  0.03879551,  0.17708144, -0.22532372,  0.02784772,
        -0.18833509],
       [ 0.46537226, -0.3737268 , -0.11038925, -0.0349517 , -0.01242889,
         0.19125871],
       [ 0.14019132,  0.24648036,  0.21752505,  0.0072872 , -0.22554123,
        -0.23996489]], dtype=float32), array([[[ 0.09498667,  0.03633779,  0.34128273, -0.5658573 ,
          0.13340682,  0.02227797],
        [ 0.09666386, -0.03780412,  0.32116562, -0.5938688 ,
          0.11619433,  0.0309522 ],
        [ 0.20015125,  0.03916119,  0.10406633, -0.23927039,
          0.01473351,  0.05654639]],

       [[-0.192549  ,  0.3944606 ,  0.03205567, -0.20864797,
          0.08273264, -0.17330714],
        [-0.04196917, -0.01816949,  0.12180057, -0.3012552 ,
          0.03662447, -0.03218039],
        [-0.07417881, -0.07295959,  0.01533323, -0.00835501,
         -0.06177157, -0.13871047]],

       [[-0.07696769,  0.19787262,  0.19555658, -0.50213206,
          0.23777236, -0.08713894],
        [-0.03364957, -0.06106321,  0.1937242 , -0.3773982 ,
          0.05925005, -0.02419772],
        [-0.06623042, -0.01423684,  0.54764223, -0.64554054,
          0.04465872, -0.10550883]],

       [[ 0.24827573, -0.11605625,  0.0188179 , -0.18637228,
          0.2536193 ,  0.03343703],
        [ 0.31381655, -0.2180141 ,  0.06464157, -0.2736767 ,
         -0.01987499,  0.07959438],
        [ 0.7986179 , -0.40765053, -0.2565527 ,  0.14071086,
          0.03626226,  0.07479399]],

       [[-0.1168307 ,  0.03879551,  0.17708144, -0.22532372,
          0.02784772, -0.18833509],
        [ 0.46537226, -0.3737268 , -0.11038925, -0.0349517 ,
         -0.01242889,  0.19125871],
        [ 0.14019132,  0.24648036,  0.21752505,  0.0072872 ,
         -0.22554123, -0.23996489]]], dtype=float32), ),
    mlir_module_text=r'''module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x3x4xf32>, %arg1: tensor<3x6xf32>, %arg2: tensor<10x6xf32>, %arg3: tensor<10x6xf32>, %arg4: tensor<10x6xf32>) -> (tensor<3x6xf32> {jax.result_info = "result[0]"}, tensor<5x3x6xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5x3x6xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:7 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg2, %iterArg_1 = %arg3, %iterArg_2 = %arg4, %iterArg_3 = %c, %iterArg_4 = %arg1, %iterArg_5 = %0) : tensor<5x3x4xf32>, tensor<10x6xf32>, tensor<10x6xf32>, tensor<10x6xf32>, tensor<i32>, tensor<3x6xf32>, tensor<5x3x6xf32>
    cond {
      %c_6 = stablehlo.constant dense<5> : tensor<i32>
      %2 = stablehlo.compare LT, %iterArg_3, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_3) : (tensor<5x3x4xf32>, tensor<i32>) -> tensor<3x4xf32>
      %3 = stablehlo.concatenate %iterArg_4, %2, dim = 1 : (tensor<3x6xf32>, tensor<3x4xf32>) -> tensor<3x10xf32>
      %4 = stablehlo.dot_general %3, %iterArg_0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x10xf32>, tensor<10x6xf32>) -> tensor<3x6xf32>
      %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %5 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<3x6xf32>
      %6 = stablehlo.negate %4 : tensor<3x6xf32>
      %7 = stablehlo.exponential %6 : tensor<3x6xf32>
      %8 = stablehlo.add %5, %7 : tensor<3x6xf32>
      %9 = stablehlo.divide %5, %8 : tensor<3x6xf32>
      %10 = stablehlo.dot_general %3, %iterArg_1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x10xf32>, tensor<10x6xf32>) -> tensor<3x6xf32>
      %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %11 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<3x6xf32>
      %12 = stablehlo.negate %10 : tensor<3x6xf32>
      %13 = stablehlo.exponential %12 : tensor<3x6xf32>
      %14 = stablehlo.add %11, %13 : tensor<3x6xf32>
      %15 = stablehlo.divide %11, %14 : tensor<3x6xf32>
      %16 = stablehlo.multiply %15, %iterArg_4 : tensor<3x6xf32>
      %17 = stablehlo.concatenate %16, %2, dim = 1 : (tensor<3x6xf32>, tensor<3x4xf32>) -> tensor<3x10xf32>
      %18 = stablehlo.dot_general %17, %iterArg_2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x10xf32>, tensor<10x6xf32>) -> tensor<3x6xf32>
      %19 = stablehlo.tanh %18 : tensor<3x6xf32>
      %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %20 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<3x6xf32>
      %21 = stablehlo.subtract %20, %9 : tensor<3x6xf32>
      %22 = stablehlo.multiply %21, %iterArg_4 : tensor<3x6xf32>
      %23 = stablehlo.multiply %9, %19 : tensor<3x6xf32>
      %24 = stablehlo.add %22, %23 : tensor<3x6xf32>
      %25 = func.call @dynamic_update_index_in_dim(%iterArg_5, %24, %iterArg_3) : (tensor<5x3x6xf32>, tensor<3x6xf32>, tensor<i32>) -> tensor<5x3x6xf32>
      %c_9 = stablehlo.constant dense<1> : tensor<i32>
      %26 = stablehlo.add %iterArg_3, %c_9 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_0, %iterArg_1, %iterArg_2, %26, %24, %25 : tensor<5x3x4xf32>, tensor<10x6xf32>, tensor<10x6xf32>, tensor<10x6xf32>, tensor<i32>, tensor<3x6xf32>, tensor<5x3x6xf32>
    }
    return %1#5, %1#6 : tensor<3x6xf32>, tensor<5x3x6xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<5x3x4xf32>, %arg1: tensor<i32>) -> tensor<3x4xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 3, 4] : (tensor<5x3x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x3x4xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x3x4xf32>) -> tensor<3x4xf32>
    return %1 : tensor<3x4xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<5x3x6xf32>, %arg1: tensor<3x6xf32>, %arg2: tensor<i32>) -> tensor<5x3x6xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<3x6xf32>) -> tensor<1x3x6xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<5x3x6xf32>, tensor<1x3x6xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<5x3x6xf32>
    return %1 : tensor<5x3x6xf32>
  }
}
''',
    mlir_module_serialized=b"ML\xefR\rStableHLO_v1.25.3\x00\x019\x05\x01\x05)\x01\x03\x0b\x03'\x0f\x13\x17\x1b\x1f#'+/37;?CGKOSW\x03:\x02\xd91\x01\x97\x0b\x0f\x13\x13\x13\x13\x13\x13\x17\x1b\x0b\x0b\x0b\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x03C\x0b\x0f\x0b\x1f/\x13/\x1f\x17\x0b\x0b\x0b\x0b\x0f\x0b\x0b\x13\x13\x0b\x13\x0b\x0b\x0b\x0b\x0bOo\x1f\x0b\x1f\x1f\x0b\x0b\x01\x03\x0f\x03/\x17\x0f\x17\x1b\x07\x1b\x0f\x07\x17\x17\x13+\x1b\x07\x1f\x1b\x13\x1b\x13\x13\x07\x0f\x07\x02\xba\x08\x05-\x11\x01\x05\x17\x01\r9\x17\x01\r]\x17\x01\r\x85\x17\x01\r\xad\x17\x01\r\xd5\x17\x01\r\xf7\x17\x01\r>\x02\x03\x05\x15\x03\x17\x03\x05/\x051\x053\x17\x01\x03\x03\x17\x01\x05\x07\x17\x01[\x07\x17\x01i\x07\x17\x01ie\x17\x01i\x99\x17\x01i\xc9\x17\x01k\x15\x17\x01m\x15\x17\x01o\x19\x17\x01q\x15\x17\x01s\x0b\x17\x01[W\x17\x01[\x8b\x17\x01]\x15\x17\x01_\x19\x17\x01a\x15\x17\x01c\x15\x17\x01e\x0b\x17\x01\x055\x17\x01\x05i\x17\x01\x05\x99\x17\x01\x05\xcb\x17\x01\x05\xfd\x17\x01\x07\x19\x17\x01\t\x15\x17\x01\x0b\x15\x17\x01\r\x19\x17\x01W\x0b\x17\x01\x19\x19\x17\x01\x1b\x19\x17\x01\x1d\x19\x17\x01\x1f!\x17\x01!\x19\x17\x01#\x19\x17\x01%\x19\x17\x01'\x19\x17\x01)\x19\x17\x01+\x1b\x17\x01-!\x17\x01/\x1b\x17\x011\x1b\x17\x013\x1b\x17\x015\x1b\x17\x017\x1b\x17\x019\x1b\x17\x01;\x1b\x17\x01=\x1b\x17\x01?\x1b\x17\x01A!\x17\x01C\x1b\x17\x01E\x1b\x17\x01G\x1b\x17\x01I\x1b\x17\x01K\x1b\x17\x01M\x1b\x17\x01O\x1d\x17\x01Q\x1b\x17\x01S\x0f\x17\x01\x11\x1d\x17\x01\x13\x19\x17\x01\x15\x0f#+\x1f)\x01\x03\x01\x1f\x05\t\x00\x00\x00\x00\x1f\x17\x11\x01\x00\x00\x00\x00\x00\x00\x00\x03\x05\xb3\xb3\x1f\x17\x11\x00\x00\x00\x00\x00\x00\x00\x00\x1f\x0f\t\x00\x00\x80?)\x01\x01\x01\xcf\x1d5\x1d7\x1d9\x1d;\x13\x11\x05\x17\x01#\x19\x03\x05\xb9\xbd\r\x03\xa9\xbb\x1d=\r\x03\xa9\xbf\x1d?\x1dA\x1dC#\x1b#\x1f\x1f#!\x01\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x1f'1\x01\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00\x1f\x0f\t\x00\x00\x00\x00'\x01\x1f\x05\t\x01\x00\x00\x00\x1f\x05\t\x05\x00\x00\x00\t\x07\x07\x0b\x01\x02\x02)\x05\r\x19\x0b)\x01\x1d)\x05)\x19\x0b)\x07\x15\r\x19\x0b\t)\x07\x15\r\x11\x0b)\x01\x0b\x1d)\x05\r\x11\x0b)\x05\r)\x0b)\x03\x05\x11\x11\x0b\r\x03\x07\x07\x07\x05\x03\t\x11\x05\r\x05\x03\x13\x1b\x11\x07\t\x03\x05\x03\t)\x07\x05\r\x19\x0b)\x03\t\x11)\x07\x05\r\x11\x0b)\x03\r\x11)\x03\x01\x11C)\x01/\x01\x04\xa6\x07\x05\x01Q\x1b\x13\x01\x07\x04~\x07\x03\x01\r\x0bP\x1d\x03\x07\x04\xae\x05\x03\x1f\x17\x0b\x1bA\x07C\x0fE\x0fG\x0fI\x00\x03BK\x05\x03\x0f\x05FM\x07\x03\t\x03\x0b\x03BO\t\x03\x05!\x16Q\x0f\r\x07\x07\x07\x05\x03\t\x0f\x01\x05\x07\t\x0f\x03\r\x0b\x04\xae\x04\x03\x13\x0f\x0f\x1b\x05\x0f\x07\x0f\t\x0f\x0b\x0b\r\x07\x0f\x13\x11\x00\x03B\x91\x0b\x03\x05'F\x93\r\x03-\x05\t\x0f\x07\x04\x95\x03\x11\x03I{\x0f\x1b\x05\x0f\x07\x0f\t\x0f\x0b\x0b\r\x07\x0f\x13\x11\x00\x11FU\x0f\x03\x13\x05\x01\t\x13FW\x11\x03\x15\x05\x0b\x0f\rFY\x13\x03\x03\x05\x11\x03\x03B[\x15\x03\x0f\x05F]\x07\x03\x03\x03\x15\x15\x06_\x03\x03\x03\x13\x17Fa\x17\x03\x03\x03\x19\t\x06c\x03\x03\x05\x17\x1b\x19\x06e\x03\x03\x05\x17\x1d\rFg\x13\x03\x03\x05\x11\x05\x03Bi\x15\x03\x0f\x05Fk\x07\x03\x03\x03#\x15\x06m\x03\x03\x03!\x17Fo\x17\x03\x03\x03'\t\x06q\x03\x03\x05%)\x19\x06s\x03\x03\x05%+\x0f\x06u\x03\x03\x05-\x0b\x13Fw\x11\x03\x15\x05/\x0f\rFy\x13\x03\x03\x051\x07#F{\x17\x03\x03\x033\x03B}\x15\x03\x0f\x05F\x7f\x07\x03\x03\x037%\x06\x81\x03\x03\x059\x1f\x0f\x06\x83\x03\x03\x05;\x0b\x0f\x06\x85\x03\x03\x05\x1f5\t\x06\x87\x03\x03\x05=?\x11F\x89\x19\x03\t\x07\rA\t\x03B\x8b\x1b\x03\x05\t\x06\x8d\x03\x05\x05\tE\x07\x04\x8f\x0f\x01\x03\x05\x07GAC\x07\x04S\x05\x1b\x1d\x0bP\x1f\x1d\x07\x04Y\x03\r\x17\x05\x1b3\x0b5\x00\x03B7\t\x03\x05\x03B9\t\x03\x05\x1dF;\x1f\x03%\t\x01\x03\x05\x07\x1f\x06=\x03\x13\x03\t\x07\x04?\x03\x0b\x0bP!!\x07\x04_\x03\x0f\x17\x07\x13#\x07%\x0b'\x00\x05F)#\x03!\x03\x03\x03B+\t\x03\x05\x03B-\t\x03\x05\x1b\x06/\x03\t\x0b\x01\x07\x05\t\x0b\x07\x041\x03\r\x06\x03\x01\x05\x01\x00\xe2\x06E\x0f\x0b\x15\x159\x11+!\r%)\x05\x17\x19\x11\x13\x17#1\x15\x1f\x15\x1f\x11\x19\x1f\x11\x0f\x15)\x19\x0f\x0b\x11builtin\x00vhlo\x00module\x00constant_v1\x00broadcast_in_dim_v1\x00return_v1\x00add_v1\x00func_v1\x00dot_general_v2\x00multiply_v1\x00call_v1\x00concatenate_v1\x00negate_v1\x00exponential_v2\x00divide_v1\x00dynamic_update_slice_v1\x00dynamic_slice_v1\x00reshape_v1\x00while_v1\x00tanh_v2\x00subtract_v1\x00compare_v1\x00-\x00mhlo.num_partitions\x00mhlo.num_replicas\x00jit_f\x00jax.result_info\x00dynamic_index_in_dim\x00private\x00dynamic_update_index_in_dim\x00result[0]\x00result[1]\x00main\x00public\x00\x08}%\x053\x01\x0b\x9b\xb5\xb7\xc1\xc3\x03\xcd\x03\x99\x03\x9d\x03\xd3\x05\xd5\xd7\x03\xab\x03\xb1\x19\x97\x97\x99\x97\x9f\x97\x97\xa1\x99\x97\xa3\x97\x03\xa5\x03\xa7\x03\xaf\x03\xd1\x0b\x9b\xc5\x9b\xab\xad\x03\xcb\x0b\x9b\xc7\x9b\xaf\xad\x03\xc9",
)
