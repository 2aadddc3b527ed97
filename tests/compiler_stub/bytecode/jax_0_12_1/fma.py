# fma: saved by scripts/save_jax_artifacts.py with JAX 0.12.1 (jaxlib 0.12.1); do not edit.
import numpy as np
array, float32, uint32, int32 = np.array, np.float32, np.uint32, np.int32
inf, nan = np.inf, np.nan

data = dict(
    custom_call_targets=[],
    nr_devices=1,
    jax_version='0.12.1',
    stablehlo_version='1.25.3',
    inputs=(array([ 1.0000001e+00,  3.0000000e+00,            inf,  3.4000000e+38,
       -0.0000000e+00,  1.5000000e+00], dtype=float32), array([ 0.99999994,  0.1       ,  0.        ,  2.        ,  0.        ,
       -2.        ], dtype=float32), array([-1.0e+00,  7.0e-01,  1.0e+00, -3.4e+38,  0.0e+00,  3.0e+00],
      dtype=float32), ),
    expected_outputs=(array([5.9604638e-08, 1.0000000e+00,           nan, 3.4000000e+38,
       0.0000000e+00, 0.0000000e+00], dtype=float32), ),
    mlir_module_text=r'''module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>, %arg1: tensor<6xf32>, %arg2: tensor<6xf32>) -> (tensor<6xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.fma %arg0, %arg1, %arg2 : tensor<6xf32>
    return %0 : tensor<6xf32>
  }
}
''',
    mlir_module_serialized=b"ML\xefR\rStableHLO_v1.25.3\x00\x01\x19\x05\x01\x05\t\x01\x03\x0b\x03\x07\x0f\x13\x17\x03G+\t\x01\x1b\x0b\x0f\x1b\x0b\x0b\x0b\x13\x13\x13\x13\x13\x13\x13\x03\x11\x0b\x0b\x0f\x13\x0b\x0b\x0b\x0b\x01\x03\x0f\x03\x07\x13\x1f\x07\x02\x9f\x05\r\x11\x01\x05\x03\x05\x07\x03\t\x03\x05\x0f\x05\x11\x05\x13\x17\x01\x03\x03\x17\x01\x05\x07\x17\x01\x055\x17\x01\x05a\x17\x01\x05\x8d\x17\x01\x07\x15\x17\x01\t\x0b\x03\x01#\x05\x03\x03!\r\x03#%\x1d\x15\x1d\x17\x1d\x19\x1d\x1b\x01\x02\x02)\x03\x19\x07\x11\x07\x03\x03\x03\x03\x03\t\x04Y\x05\x01Q\r\x05\x01\x07\x04G\x03\x01\x05\x03P\x0f\x03\x07\x043\x03\t\x0b\x07\x07\x11\x07\x13\x07\x15\x00\x05\x06\x17\x03\x03\x07\x01\x03\x05\x07\x04\x19\x03\x07\x06\x03\x01\x05\x01\x00N\x02\x1d\x0f\x0b\x0f!\x19%)\x05\x15\x0f\x11\x0f\x0b\x11builtin\x00vhlo\x00module\x00func_v1\x00fma_v1\x00return_v1\x00-\x00mhlo.num_partitions\x00mhlo.num_replicas\x00jit__lambda\x00jax.result_info\x00result\x00main\x00public\x00\x08\x15\x05\x05\x17\x01\x0b\x1b\x1d\x1f')",
)
