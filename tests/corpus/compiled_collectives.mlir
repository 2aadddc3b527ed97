// Compiled collectives in the corpus runner's format (interpreter.run_parallel
// launches), for what the StableHLO corpus does not cover: programs of
// different functions meeting on a channel (MPMD), collectives in a loop,
// partitions, bodies other than one binary op, and complex values.

module @mpmd_send_recv {
  func.func @producer(%x : tensor<2x2xi64>) -> tensor<2x2xi64> {
    %token = stablehlo.after_all : !stablehlo.token
    %doubled = stablehlo.add %x, %x : tensor<2x2xi64>
    %sent = "stablehlo.send"(%doubled, %token) {
      channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>
    } : (tensor<2x2xi64>, !stablehlo.token) -> !stablehlo.token
    return %x : tensor<2x2xi64>
  }
  func.func @consumer(%y : tensor<2x2xi64>) -> tensor<2x2xi64> {
    %token = stablehlo.after_all : !stablehlo.token
    %got, %done = "stablehlo.recv"(%token) {
      channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>
    } : (!stablehlo.token) -> (tensor<2x2xi64>, !stablehlo.token)
    %sum = stablehlo.add %got, %y : tensor<2x2xi64>
    return %sum : tensor<2x2xi64>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
    %b = stablehlo.constant dense<[[10, 20], [30, 40]]> : tensor<2x2xi64>
    %results:2 = "interpreter.run_parallel"(%a, %b) {
      programs=[[@producer], [@consumer]]
    } : (tensor<2x2xi64>, tensor<2x2xi64>) -> (tensor<2x2xi64>, tensor<2x2xi64>)
    check.expect_eq_const %results#0, dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
    check.expect_eq_const %results#1, dense<[[12, 24], [36, 48]]> : tensor<2x2xi64>
    func.return
  }
}

// -----

module @all_reduce_in_a_loop {
  // Three rounds of x = all_reduce(x) + 1 over 3 replicas: the n-th
  // all_reduce of each replica meets the n-th of the others.
  func.func @rounds(%x : tensor<2xi64>) -> tensor<2xi64> {
    %zero = stablehlo.constant dense<0> : tensor<i64>
    %one = stablehlo.constant dense<1> : tensor<2xi64>
    %result:2 = stablehlo.while(%i = %zero, %v = %x) : tensor<i64>, tensor<2xi64>
      cond {
        %three = stablehlo.constant dense<3> : tensor<i64>
        %more = stablehlo.compare LT, %i, %three : (tensor<i64>, tensor<i64>) -> tensor<i1>
        stablehlo.return %more : tensor<i1>
      } do {
        %sum = "stablehlo.all_reduce"(%v) ({
          ^bb0(%a: tensor<i64>, %b: tensor<i64>):
            %s = stablehlo.add %a, %b : tensor<i64>
            stablehlo.return %s : tensor<i64>
        }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<2xi64>) -> tensor<2xi64>
        %next = stablehlo.add %sum, %one : tensor<2xi64>
        %step = stablehlo.constant dense<1> : tensor<i64>
        %j = stablehlo.add %i, %step : tensor<i64>
        stablehlo.return %j, %next : tensor<i64>, tensor<2xi64>
      }
    return %result#1 : tensor<2xi64>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1, 0]> : tensor<2xi64>
    %b = stablehlo.constant dense<[2, 0]> : tensor<2xi64>
    %c = stablehlo.constant dense<[3, 1]> : tensor<2xi64>
    %results:3 = "interpreter.run_parallel"(%a, %b, %c) {
      programs=[[@rounds], [@rounds], [@rounds]]
    } : (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>)
    // Column 0: 6+1 = 7, 21+1 = 22, 66+1 = 67; column 1: 2, 7, 22.
    check.expect_eq_const %results#0, dense<[67, 22]> : tensor<2xi64>
    check.expect_eq_const %results#1, dense<[67, 22]> : tensor<2xi64>
    check.expect_eq_const %results#2, dense<[67, 22]> : tensor<2xi64>
    func.return
  }
}

// -----

module @replica_and_partition_ids {
  // 2 replicas x 3 partitions; reduce_scatter across the partitions of a
  // replica (channel set: cross-replica-and-partition would mix replicas,
  // so the groups name partitions through global ids).
  func.func @ids(%x : tensor<3xui32>) -> (tensor<ui32>, tensor<ui32>, tensor<1xui32>) {
    %r = stablehlo.replica_id : tensor<ui32>
    %p = stablehlo.partition_id : tensor<ui32>
    %scattered = "stablehlo.reduce_scatter"(%x) ({
      ^bb0(%a: tensor<ui32>, %b: tensor<ui32>):
        %m = stablehlo.maximum %a, %b : tensor<ui32>
        stablehlo.return %m : tensor<ui32>
    }) {
      scatter_dimension = 0 : i64,
      replica_groups = dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
      use_global_device_ids
    } : (tensor<3xui32>) -> tensor<1xui32>
    return %r, %p, %scattered : tensor<ui32>, tensor<ui32>, tensor<1xui32>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1, 9, 2]> : tensor<3xui32>
    %b = stablehlo.constant dense<[5, 0, 7]> : tensor<3xui32>
    %results:18 = "interpreter.run_parallel"(%a, %b, %a, %b, %b, %b) {
      programs=[[@ids, @ids, @ids], [@ids, @ids, @ids]]
    } : (tensor<3xui32>, tensor<3xui32>, tensor<3xui32>, tensor<3xui32>, tensor<3xui32>, tensor<3xui32>) ->
        (tensor<ui32>, tensor<ui32>, tensor<1xui32>, tensor<ui32>, tensor<ui32>, tensor<1xui32>,
         tensor<ui32>, tensor<ui32>, tensor<1xui32>, tensor<ui32>, tensor<ui32>, tensor<1xui32>,
         tensor<ui32>, tensor<ui32>, tensor<1xui32>, tensor<ui32>, tensor<ui32>, tensor<1xui32>)
    check.expect_eq_const %results#0, dense<0> : tensor<ui32>
    check.expect_eq_const %results#1, dense<0> : tensor<ui32>
    check.expect_eq_const %results#4, dense<1> : tensor<ui32>
    check.expect_eq_const %results#9, dense<1> : tensor<ui32>
    check.expect_eq_const %results#10, dense<0> : tensor<ui32>
    check.expect_eq_const %results#16, dense<2> : tensor<ui32>
    // Replica 0 (a, b, a): max = [5, 9, 7], split over partitions 0..2.
    check.expect_eq_const %results#2, dense<[5]> : tensor<1xui32>
    check.expect_eq_const %results#5, dense<[9]> : tensor<1xui32>
    check.expect_eq_const %results#8, dense<[7]> : tensor<1xui32>
    // Replica 1 (b, b, b): [5, 0, 7].
    check.expect_eq_const %results#11, dense<[5]> : tensor<1xui32>
    check.expect_eq_const %results#14, dense<[0]> : tensor<1xui32>
    check.expect_eq_const %results#17, dense<[7]> : tensor<1xui32>
    func.return
  }
}

// -----

module @overlapped_all_gather {
  // The all_gather is started, the dot runs while it is in flight, and the
  // result is read only at the end.
  func.func @step(%x : tensor<2xf32>, %w : tensor<2x2xf32>) -> (tensor<4xf32>, tensor<2x2xf32>) {
    %gathered = "stablehlo.all_gather"(%x) {
      all_gather_dim = 0 : i64,
      replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>
    } : (tensor<2xf32>) -> tensor<4xf32>
    %square = stablehlo.dot_general %w, %w, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    return %gathered, %square : tensor<4xf32>, tensor<2x2xf32>
  }
  func.func @main() {
    %x0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %x1 = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
    %w = stablehlo.constant dense<[[1.0, 1.0], [0.0, 2.0]]> : tensor<2x2xf32>
    %results:4 = "interpreter.run_parallel"(%x0, %w, %x1, %w) {
      programs=[[@step], [@step]]
    } : (tensor<2xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<2x2xf32>) -> (tensor<4xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<2x2xf32>)
    check.expect_eq_const %results#0, dense<[3.0, 4.0, 1.0, 2.0]> : tensor<4xf32>
    check.expect_eq_const %results#2, dense<[3.0, 4.0, 1.0, 2.0]> : tensor<4xf32>
    check.expect_eq_const %results#1, dense<[[1.0, 3.0], [0.0, 4.0]]> : tensor<2x2xf32>
    func.return
  }
}

// -----

module @complex_all_reduce {
  // Complex sums across 2 replicas, one operand and two: the compiler
  // runs each as one all_reduce of the operands' parts.
  func.func @sums(%re : tensor<2xf32>, %im : tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
    %z = stablehlo.complex %re, %im : tensor<2xcomplex<f32>>
    %sum = "stablehlo.all_reduce"(%z) ({
      ^bb0(%a: tensor<complex<f32>>, %b: tensor<complex<f32>>):
        %s = stablehlo.add %a, %b : tensor<complex<f32>>
        stablehlo.return %s : tensor<complex<f32>>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
    %w = stablehlo.multiply %z, %z : tensor<2xcomplex<f32>>
    %both:2 = "stablehlo.all_reduce"(%z, %w) ({
      ^bb0(%a: tensor<complex<f32>>, %b: tensor<complex<f32>>):
        %s = stablehlo.add %b, %a : tensor<complex<f32>>
        stablehlo.return %s : tensor<complex<f32>>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>)
    %sum_re = stablehlo.real %sum : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %sum_im = stablehlo.imag %sum : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %squares_im = stablehlo.imag %both#1 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    return %sum_re, %sum_im, %squares_im : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  }
  func.func @main() {
    %re0 = stablehlo.constant dense<[1.0, -2.0]> : tensor<2xf32>
    %im0 = stablehlo.constant dense<[2.0, 0.5]> : tensor<2xf32>
    %re1 = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
    %im1 = stablehlo.constant dense<[-1.0, 2.0]> : tensor<2xf32>
    %results:6 = "interpreter.run_parallel"(%re0, %im0, %re1, %im1) {
      programs=[[@sums], [@sums]]
    } : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
    // (1+2i) + (3-i) = 4+i, (-2+0.5i) + (4+2i) = 2+2.5i; the squares'
    // imaginary parts: 2*1*2 + 2*3*(-1) = -2, 2*(-2)*0.5 + 2*4*2 = 14.
    check.expect_almost_eq_const %results#0, dense<[4.0, 2.0]> : tensor<2xf32>
    check.expect_almost_eq_const %results#1, dense<[1.0, 2.5]> : tensor<2xf32>
    check.expect_almost_eq_const %results#2, dense<[-2.0, 14.0]> : tensor<2xf32>
    check.expect_almost_eq_const %results#3, dense<[4.0, 2.0]> : tensor<2xf32>
    check.expect_almost_eq_const %results#4, dense<[1.0, 2.5]> : tensor<2xf32>
    check.expect_almost_eq_const %results#5, dense<[-2.0, 14.0]> : tensor<2xf32>
    func.return
  }
}

// -----

module @complex_data_movement {
  // all_gather, all_to_all, collective_permute and reduce_scatter (a sum)
  // of complex values across 2 replicas, each part of each result laid
  // end to end in one real output.
  func.func @moves(%re : tensor<2xf32>, %im : tensor<2xf32>) -> tensor<18xf32> {
    %z = stablehlo.complex %re, %im : tensor<2xcomplex<f32>>
    %g = "stablehlo.all_gather"(%z) {
      all_gather_dim = 0 : i64,
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
    } : (tensor<2xcomplex<f32>>) -> tensor<4xcomplex<f32>>
    %t = "stablehlo.all_to_all"(%z) {
      split_dimension = 0 : i64,
      concat_dimension = 0 : i64,
      split_count = 2 : i64,
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
    } : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
    %p = "stablehlo.collective_permute"(%z) {
      source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>
    } : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
    %s = "stablehlo.reduce_scatter"(%z) ({
      ^bb0(%a: tensor<complex<f32>>, %b: tensor<complex<f32>>):
        %sum = stablehlo.add %a, %b : tensor<complex<f32>>
        stablehlo.return %sum : tensor<complex<f32>>
    }) {
      scatter_dimension = 0 : i64,
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
    } : (tensor<2xcomplex<f32>>) -> tensor<1xcomplex<f32>>
    %g_re = stablehlo.real %g : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %g_im = stablehlo.imag %g : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %t_re = stablehlo.real %t : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %t_im = stablehlo.imag %t : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %p_re = stablehlo.real %p : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %p_im = stablehlo.imag %p : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %s_re = stablehlo.real %s : (tensor<1xcomplex<f32>>) -> tensor<1xf32>
    %s_im = stablehlo.imag %s : (tensor<1xcomplex<f32>>) -> tensor<1xf32>
    %all = stablehlo.concatenate %g_re, %g_im, %t_re, %t_im, %p_re, %p_im, %s_re, %s_im, dim = 0 : (tensor<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<18xf32>
    return %all : tensor<18xf32>
  }
  func.func @main() {
    %re0 = stablehlo.constant dense<[1.0, -2.0]> : tensor<2xf32>
    %im0 = stablehlo.constant dense<[2.0, 0.5]> : tensor<2xf32>
    %re1 = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
    %im1 = stablehlo.constant dense<[-1.0, 2.0]> : tensor<2xf32>
    %results:2 = "interpreter.run_parallel"(%re0, %im0, %re1, %im1) {
      programs=[[@moves], [@moves]]
    } : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<18xf32>, tensor<18xf32>)
    // Replica 0 holds (1+2i, -2+0.5i), replica 1 (3-i, 4+2i).
    check.expect_almost_eq_const %results#0, dense<[1.0, -2.0, 3.0, 4.0, 2.0, 0.5, -1.0, 2.0, 1.0, 3.0, 2.0, -1.0, 3.0, 4.0, -1.0, 2.0, 4.0, 1.0]> : tensor<18xf32>
    check.expect_almost_eq_const %results#1, dense<[1.0, -2.0, 3.0, 4.0, 2.0, 0.5, -1.0, 2.0, -2.0, 4.0, 0.5, 2.0, 1.0, -2.0, 2.0, 0.5, 2.0, 2.5]> : tensor<18xf32>
    func.return
  }
}
