# exp2_log2: saved by scripts/save_jax_artifacts.py with JAX 0.12.1 (jaxlib 0.12.1); do not edit.
import numpy as np
array, float32, uint32, int32 = np.array, np.float32, np.uint32, np.int32
inf, nan = np.inf, np.nan

data = dict(
    custom_call_targets=[],
    nr_devices=1,
    jax_version='0.12.1',
    stablehlo_version='1.25.3',
    inputs=(array([-150. , -149. , -126. ,   -1.5,   -0. ,    0. ,    0.5,    1. ,
         10. ,  127. ,  128. ,    inf,   -inf,    nan], dtype=float32), ),
    expected_outputs=(array([0.0000000e+00, 0.0000000e+00, 1.1754944e-38, 3.5355338e-01,
       1.0000000e+00, 1.0000000e+00, 1.4142135e+00, 2.0000000e+00,
       1.0240000e+03, 1.7014118e+38,           inf,           inf,
       0.0000000e+00,           nan], dtype=float32), array([ 7.228819 ,  7.2191687,  6.97728  ,  0.5849625,       -inf,
             -inf, -1.       ,  0.       ,  3.321928 ,  6.9886847,
        7.       ,        inf,        inf,        nan], dtype=float32), array([       nan,        nan,        nan,        nan,       -inf,
             -inf, -1.       ,  0.       ,  3.321928 ,  6.9886847,
        7.       ,        inf,        nan,        nan], dtype=float32), ),
    mlir_module_text=r'''module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<14xf32>) -> (tensor<14xf32> {jax.result_info = "result[0]"}, tensor<14xf32> {jax.result_info = "result[1]"}, tensor<14xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.exp2 %arg0 : tensor<14xf32>
    %1 = stablehlo.abs %arg0 : tensor<14xf32>
    %2 = stablehlo.log2 %1 : tensor<14xf32>
    %3 = stablehlo.log2 %arg0 : tensor<14xf32>
    return %0, %2, %3 : tensor<14xf32>, tensor<14xf32>, tensor<14xf32>
  }
}
''',
    mlir_module_serialized=b"ML\xefR\rStableHLO_v1.25.3\x00\x01\x1d\x05\x01\x05\r\x01\x03\x0b\x03\x0b\x0f\x13\x17\x1b\x1f\x03U9\t\x01\x1d\x0b\x0f\x1b\x0b\x0b\x0b\x13\x13\x13\x13\x13\x13\x13\x13\x03\x1d\x0b\x17\x0b\x0b\x17\x13\x0b\x13\x0b\x13\x0b\x0b\x0b\x0b\x01\x03\x0f\x03\x07\x13\x1f\x07\x02\xd1\x05\x11\x11\x01\x05\x03\x05\x07\x03\t\x03\x05\x13\x05\x15\x05\x17\x17\x01\x03\x03\x17\x01\x05\x07\x17\x01\x055\x17\x01\x07\x15\x17\x01\t\x15\x17\x01\x0b\x15\x17\x01\r\x15\x17\x01\x0f\x0b\x1d\x19)\x01\x01\x017\x03\x01#\x05\x03\x07'+/\r\x03\x1d)\x1d\x1b\r\x03\x1d-\x1d\x1d\r\x03\x1d1\x1d\x1f\x1d!\x1d#'\x01\x01\x02\x02)\x039\x07\x11\x03\x03\x07\x03\x03\x03\t\x04\x81\x05\x01Q\r\x05\x01\x07\x04o\x03\x01\x05\x05P\x0f\x03\x07\x04[\x03\x0b\x17\x03\x07\x11\x00\x07F\x13\x05\x03\x03\x03\x01\t\x06\x15\x03\x03\x03\x01\x03F\x17\x05\x03\x03\x03\x05\x03F\x19\x05\x03\x03\x03\x01\x0b\x04\x1b\x07\x03\x07\t\x06\x03\x01\x05\x01\x00\xfa\x02%\x0f\x0b\x15\x15\x15!\x19%)\x05\x15\x0f\x11\x11\x11\x0f\x0b\x11builtin\x00vhlo\x00module\x00log2_v1\x00func_v1\x00exp2_v1\x00abs_v1\x00return_v1\x00-\x00mhlo.num_partitions\x00mhlo.num_replicas\x00jit__lambda\x00jax.result_info\x00result[0]\x00result[1]\x00result[2]\x00main\x00public\x00\x08\x19\x07\x05\x17\x01\x0b!#%35\x03\x1f",
)
