// chlo ops the compiler lowers to elementwise instructions, checked
// against Python's math module (double precision): within 4 units in
// the last place for f32 and f64 (the GPU's f32 exp and log are
// approximations), 1 for f16 and bf16 (computed in f32, rounded once),
// and infinities and NaN where the functions have them. The expected
// values are the functions of the (rounded) inputs in double precision,
// rounded to the type. Every case must pass on every plugin (no skips).

func.func @asin_f32() {
  %x = stablehlo.constant dense<[-1.0, -0.9998999834060669, -0.5, -9.999999747378752e-06, 0.0, 9.999999747378752e-06, 0.30000001192092896, 0.75, 0.9998999834060669, 1.0]> : tensor<10xf32>
  %r = "chlo.asin"(%x) : (tensor<10xf32>) -> tensor<10xf32>
  %e = stablehlo.constant dense<[-1.5707963705062866, -1.5566529035568237, -0.5235987901687622, -9.999999747378752e-06, 0.0, 9.999999747378752e-06, 0.30469265580177307, 0.8480620980262756, 1.5566529035568237, 1.5707963705062866]> : tensor<10xf32>
  check.expect_close %r, %e, max_ulp_difference = 4 : tensor<10xf32>, tensor<10xf32>
  func.return
}

// -----

func.func @asin_f64() {
  %x = stablehlo.constant dense<[-1.0, -0.9999, -0.5, -1e-05, 0.0, 1e-05, 0.3, 0.75, 0.9999, 1.0]> : tensor<10xf64>
  %r = "chlo.asin"(%x) : (tensor<10xf64>) -> tensor<10xf64>
  %e = stablehlo.constant dense<[-1.5707963267948966, -1.5566540733173846, -0.5235987755982989, -1.0000000000166668e-05, 0.0, 1.0000000000166668e-05, 0.3046926540153975, 0.848062078981481, 1.5566540733173846, 1.5707963267948966]> : tensor<10xf64>
  check.expect_close %r, %e, max_ulp_difference = 4 : tensor<10xf64>, tensor<10xf64>
  func.return
}

// -----

func.func @asin_f32_limits() {
  %x = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %r = "chlo.asin"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  check.expect_almost_eq_const %r, dense<[0x7FC00000, 0x7FC00000]> : tensor<2xf32>
  func.return
}

// -----

func.func @asin_f64_limits() {
  %x = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf64>
  %r = "chlo.asin"(%x) : (tensor<2xf64>) -> tensor<2xf64>
  check.expect_almost_eq_const %r, dense<[0x7FF8000000000000, 0x7FF8000000000000]> : tensor<2xf64>
  func.return
}

// -----

func.func @acos_f32() {
  %x = stablehlo.constant dense<[-1.0, -0.9998999834060669, -0.5, -9.999999747378752e-06, 0.0, 9.999999747378752e-06, 0.30000001192092896, 0.75, 0.9998999834060669, 1.0]> : tensor<10xf32>
  %r = "chlo.acos"(%x) : (tensor<10xf32>) -> tensor<10xf32>
  %e = stablehlo.constant dense<[3.1415927410125732, 3.1274492740631104, 2.094395160675049, 1.5708063840866089, 1.5707963705062866, 1.5707863569259644, 1.2661036252975464, 0.722734272480011, 0.014143426902592182, 0.0]> : tensor<10xf32>
  check.expect_close %r, %e, max_ulp_difference = 4 : tensor<10xf32>, tensor<10xf32>
  func.return
}

// -----

func.func @acos_f64() {
  %x = stablehlo.constant dense<[-1.0, -0.9999, -0.5, -1e-05, 0.0, 1e-05, 0.3, 0.75, 0.9999, 1.0]> : tensor<10xf64>
  %r = "chlo.acos"(%x) : (tensor<10xf64>) -> tensor<10xf64>
  %e = stablehlo.constant dense<[3.141592653589793, 3.127450400112281, 2.0943951023931957, 1.5708063267948968, 1.5707963267948966, 1.5707863267948965, 1.2661036727794992, 0.7227342478134157, 0.014142253477512098, 0.0]> : tensor<10xf64>
  check.expect_close %r, %e, max_ulp_difference = 4 : tensor<10xf64>, tensor<10xf64>
  func.return
}

// -----

func.func @acos_f32_limits() {
  %x = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %r = "chlo.acos"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  check.expect_almost_eq_const %r, dense<[0x7FC00000, 0x7FC00000]> : tensor<2xf32>
  func.return
}

// -----

func.func @acos_f64_limits() {
  %x = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf64>
  %r = "chlo.acos"(%x) : (tensor<2xf64>) -> tensor<2xf64>
  check.expect_almost_eq_const %r, dense<[0x7FF8000000000000, 0x7FF8000000000000]> : tensor<2xf64>
  func.return
}

// -----

func.func @atan_f32() {
  %x = stablehlo.constant dense<[-1.0000000150474662e+30, -10.0, -1.0, -9.999999974752427e-07, 0.0, 0.5, 1.0, 3.0, 10000000000.0]> : tensor<9xf32>
  %r = "chlo.atan"(%x) : (tensor<9xf32>) -> tensor<9xf32>
  %e = stablehlo.constant dense<[-1.5707963705062866, -1.4711276292800903, -0.7853981852531433, -9.999999974752427e-07, 0.0, 0.46364760398864746, 0.7853981852531433, 1.249045729637146, 1.5707963705062866]> : tensor<9xf32>
  check.expect_close %r, %e, max_ulp_difference = 4 : tensor<9xf32>, tensor<9xf32>
  func.return
}

// -----

func.func @atan_f64() {
  %x = stablehlo.constant dense<[-1e+30, -10.0, -1.0, -1e-06, 0.0, 0.5, 1.0, 3.0, 10000000000.0]> : tensor<9xf64>
  %r = "chlo.atan"(%x) : (tensor<9xf64>) -> tensor<9xf64>
  %e = stablehlo.constant dense<[-1.5707963267948966, -1.4711276743037347, -0.7853981633974483, -9.999999999996666e-07, 0.0, 0.4636476090008061, 0.7853981633974483, 1.2490457723982544, 1.5707963266948965]> : tensor<9xf64>
  check.expect_close %r, %e, max_ulp_difference = 4 : tensor<9xf64>, tensor<9xf64>
  func.return
}

// -----

func.func @sinh_f32() {
  %x = stablehlo.constant dense<[-89.0, -20.0, -1.0, -0.9990000128746033, -9.999999747378752e-05, 0.0, 1.0000000116860974e-07, 0.5, 0.9900000095367432, 1.0, 1.0099999904632568, 5.0, 88.9000015258789]> : tensor<13xf32>
  %r = "chlo.sinh"(%x) : (tensor<13xf32>) -> tensor<13xf32>
  %e = stablehlo.constant dense<[-2.2448063889081578e+38, -242582592.0, -1.175201177597046, -1.1736587285995483, -9.999999747378752e-05, 0.0, 1.0000000116860974e-07, 0.5210952758789062, 1.1598289012908936, 1.175201177597046, 1.1906909942626953, 74.20320892333984, 2.0311879944805776e+38]> : tensor<13xf32>
  check.expect_close %r, %e, max_ulp_difference = 4 : tensor<13xf32>, tensor<13xf32>
  func.return
}

// -----

func.func @sinh_f64() {
  %x = stablehlo.constant dense<[-89.0, -20.0, -1.0, -0.999, -0.0001, 0.0, 1e-07, 0.5, 0.99, 1.0, 1.01, 5.0, 88.9]> : tensor<13xf64>
  %r = "chlo.sinh"(%x) : (tensor<13xf64>) -> tensor<13xf64>
  %e = stablehlo.constant dense<[-2.2448064095871728e+38, -242582597.70489514, -1.1752011936438014, -1.1736587003524517, -0.00010000000016666667, 0.0, 1.0000000000000015e-07, 0.5210953054937474, 1.1598288906636083, 1.1752011936438014, 1.1906910177226966, 74.20321057778875, 2.0311848356414415e+38]> : tensor<13xf64>
  check.expect_close %r, %e, max_ulp_difference = 4 : tensor<13xf64>, tensor<13xf64>
  func.return
}

// -----

func.func @sinh_f32_limits() {
  %x = stablehlo.constant dense<[100.0, -100.0]> : tensor<2xf32>
  %r = "chlo.sinh"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  check.expect_almost_eq_const %r, dense<[1.3440585709080678e+43, -1.3440585709080678e+43]> : tensor<2xf32>
  func.return
}

// -----

func.func @sinh_f64_limits() {
  %x = stablehlo.constant dense<[100.0, -100.0]> : tensor<2xf64>
  %r = "chlo.sinh"(%x) : (tensor<2xf64>) -> tensor<2xf64>
  check.expect_almost_eq_const %r, dense<[1.3440585709080678e+43, -1.3440585709080678e+43]> : tensor<2xf64>
  func.return
}

// -----

func.func @cosh_f32() {
  %x = stablehlo.constant dense<[-89.0, -20.0, -1.0, -9.999999747378752e-05, 0.0, 1.0000000116860974e-07, 0.5, 0.9900000095367432, 1.0, 1.0099999904632568, 5.0, 88.9000015258789]> : tensor<12xf32>
  %r = "chlo.cosh"(%x) : (tensor<12xf32>) -> tensor<12xf32>
  %e = stablehlo.constant dense<[2.2448063889081578e+38, 242582592.0, 1.5430806875228882, 1.0, 1.0, 1.0, 1.1276259422302246, 1.5314055681228638, 1.5430806875228882, 1.5549099445343018, 74.20994567871094, 2.0311879944805776e+38]> : tensor<12xf32>
  check.expect_close %r, %e, max_ulp_difference = 4 : tensor<12xf32>, tensor<12xf32>
  func.return
}

// -----

func.func @cosh_f64() {
  %x = stablehlo.constant dense<[-89.0, -20.0, -1.0, -0.0001, 0.0, 1e-07, 0.5, 0.99, 1.0, 1.01, 5.0, 88.9]> : tensor<12xf64>
  %r = "chlo.cosh"(%x) : (tensor<12xf64>) -> tensor<12xf64>
  %e = stablehlo.constant dense<[2.2448064095871728e+38, 242582597.70489514, 1.5430806348152437, 1.000000005, 1.0, 1.000000000000005, 1.1276259652063807, 1.5314055816856538, 1.5430806348152437, 1.5549099972942197, 74.20994852478785, 2.0311848356414415e+38]> : tensor<12xf64>
  check.expect_close %r, %e, max_ulp_difference = 4 : tensor<12xf64>, tensor<12xf64>
  func.return
}

// -----

func.func @cosh_f32_limits() {
  %x = stablehlo.constant dense<[100.0]> : tensor<1xf32>
  %r = "chlo.cosh"(%x) : (tensor<1xf32>) -> tensor<1xf32>
  check.expect_almost_eq_const %r, dense<[1.3440585709080678e+43]> : tensor<1xf32>
  func.return
}

// -----

func.func @cosh_f64_limits() {
  %x = stablehlo.constant dense<[100.0]> : tensor<1xf64>
  %r = "chlo.cosh"(%x) : (tensor<1xf64>) -> tensor<1xf64>
  check.expect_almost_eq_const %r, dense<[1.3440585709080678e+43]> : tensor<1xf64>
  func.return
}

// -----

func.func @asinh_f32() {
  %x = stablehlo.constant dense<[-1.0000000200408773e+20, -10000.0, -5000.0, -100.0, -1.0, -9.999999747378752e-06, 0.0, 9.99999993922529e-09, 0.5, 1.0, 10.0, 4095.0, 4097.0, 1.0000000150474662e+30]> : tensor<14xf32>
  %r = "chlo.asinh"(%x) : (tensor<14xf32>) -> tensor<14xf32>
  %e = stablehlo.constant dense<[-46.744850158691406, -9.903487205505371, -9.21034049987793, -5.298342227935791, -0.8813735842704773, -9.999999747378752e-06, 0.0, 9.99999993922529e-09, 0.4812118113040924, 0.8813735842704773, 2.998223066329956, 9.010668754577637, 9.011157035827637, 69.77069854736328]> : tensor<14xf32>
  check.expect_close %r, %e, max_ulp_difference = 4 : tensor<14xf32>, tensor<14xf32>
  func.return
}

// -----

func.func @asinh_f64() {
  %x = stablehlo.constant dense<[-1e+20, -10000.0, -5000.0, -100.0, -1.0, -1e-05, 0.0, 1e-08, 0.5, 1.0, 10.0, 4095.0, 4097.0, 1e+30]> : tensor<14xf64>
  %r = "chlo.asinh"(%x) : (tensor<14xf64>) -> tensor<14xf64>
  %e = stablehlo.constant dense<[-46.74484904044086, -9.903487555036127, -9.210340381976183, -5.298342365610589, -0.881373587019543, -9.999999999833334e-06, 0.0, 9.999999999999999e-09, 0.48121182505960347, 0.881373587019543, 2.99822295029797, 9.010669191755555, 9.011157473000704, 69.77069997038132]> : tensor<14xf64>
  check.expect_close %r, %e, max_ulp_difference = 4 : tensor<14xf64>, tensor<14xf64>
  func.return
}

// -----

func.func @acosh_f32() {
  %x = stablehlo.constant dense<[1.0, 1.000100016593933, 1.5, 2.0, 10.0, 4095.0, 5000.0, 1.0000000150474662e+30]> : tensor<8xf32>
  %r = "chlo.acosh"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %e = stablehlo.constant dense<[0.0, 0.014143191277980804, 0.9624236226081848, 1.316957950592041, 2.993222951889038, 9.010668754577637, 9.21034049987793, 69.77069854736328]> : tensor<8xf32>
  check.expect_close %r, %e, max_ulp_difference = 4 : tensor<8xf32>, tensor<8xf32>
  func.return
}

// -----

func.func @acosh_f64() {
  %x = stablehlo.constant dense<[1.0, 1.0001, 1.5, 2.0, 10.0, 4095.0, 5000.0, 1e+30]> : tensor<8xf64>
  %r = "chlo.acosh"(%x) : (tensor<8xf64>) -> tensor<8xf64>
  %e = stablehlo.constant dense<[0.0, 0.014142017775251547, 0.9624236501192069, 1.3169578969248166, 2.993222846126381, 9.010669161938676, 9.210340361976183, 69.77069997038132]> : tensor<8xf64>
  check.expect_close %r, %e, max_ulp_difference = 4 : tensor<8xf64>, tensor<8xf64>
  func.return
}

// -----

func.func @acosh_f32_limits() {
  %x = stablehlo.constant dense<[0.5, -1.0]> : tensor<2xf32>
  %r = "chlo.acosh"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  check.expect_almost_eq_const %r, dense<[0x7FC00000, 0x7FC00000]> : tensor<2xf32>
  func.return
}

// -----

func.func @acosh_f64_limits() {
  %x = stablehlo.constant dense<[0.5, -1.0]> : tensor<2xf64>
  %r = "chlo.acosh"(%x) : (tensor<2xf64>) -> tensor<2xf64>
  check.expect_almost_eq_const %r, dense<[0x7FF8000000000000, 0x7FF8000000000000]> : tensor<2xf64>
  func.return
}

// -----

func.func @atanh_f32() {
  %x = stablehlo.constant dense<[-0.9990000128746033, -0.5, -9.999999974752427e-07, 0.0, 9.999999974752427e-07, 0.25, 0.8999999761581421, 0.9999899864196777]> : tensor<8xf32>
  %r = "chlo.atanh"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %e = stablehlo.constant dense<[-3.8002076148986816, -0.5493061542510986, -9.999999974752427e-07, 0.0, 9.999999974752427e-07, 0.2554128170013428, 1.4722193479537964, 6.102355480194092]> : tensor<8xf32>
  check.expect_close %r, %e, max_ulp_difference = 4 : tensor<8xf32>, tensor<8xf32>
  func.return
}

// -----

func.func @atanh_f64() {
  %x = stablehlo.constant dense<[-0.999, -0.5, -1e-06, 0.0, 1e-06, 0.25, 0.9, 0.99999]> : tensor<8xf64>
  %r = "chlo.atanh"(%x) : (tensor<8xf64>) -> tensor<8xf64>
  %e = stablehlo.constant dense<[-3.8002011672501994, -0.5493061443340548, -1.0000000000003333e-06, 0.0, 1.0000000000003333e-06, 0.25541281188299536, 1.4722194895832204, 6.1030338227611125]> : tensor<8xf64>
  check.expect_close %r, %e, max_ulp_difference = 4 : tensor<8xf64>, tensor<8xf64>
  func.return
}

// -----

func.func @atanh_f32_limits() {
  %x = stablehlo.constant dense<[1.0, -1.0, 1.5]> : tensor<3xf32>
  %r = "chlo.atanh"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  check.expect_almost_eq_const %r, dense<[0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<3xf32>
  func.return
}

// -----

func.func @atanh_f64_limits() {
  %x = stablehlo.constant dense<[1.0, -1.0, 1.5]> : tensor<3xf64>
  %r = "chlo.atanh"(%x) : (tensor<3xf64>) -> tensor<3xf64>
  check.expect_almost_eq_const %r, dense<[0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<3xf64>
  func.return
}

// -----

func.func @tan_f32() {
  %x = stablehlo.constant dense<[-1.5, -1.0, -0.10000000149011612, 0.0, 0.20000000298023224, 1.0, 1.5]> : tensor<7xf32>
  %r = "chlo.tan"(%x) : (tensor<7xf32>) -> tensor<7xf32>
  %e = stablehlo.constant dense<[-14.101420402526855, -1.5574077367782593, -0.10033467411994934, 0.0, 0.20271003246307373, 1.5574077367782593, 14.101420402526855]> : tensor<7xf32>
  check.expect_close %r, %e, max_ulp_difference = 4 : tensor<7xf32>, tensor<7xf32>
  func.return
}

// -----

func.func @tan_f64() {
  %x = stablehlo.constant dense<[-1.5, -1.0, -0.1, 0.0, 0.2, 1.0, 1.5]> : tensor<7xf64>
  %r = "chlo.tan"(%x) : (tensor<7xf64>) -> tensor<7xf64>
  %e = stablehlo.constant dense<[-14.101419947171719, -1.5574077246549023, -0.10033467208545055, 0.0, 0.2027100355086725, 1.5574077246549023, 14.101419947171719]> : tensor<7xf64>
  check.expect_close %r, %e, max_ulp_difference = 4 : tensor<7xf64>, tensor<7xf64>
  func.return
}

// -----

func.func @asin_f16() {
  %x = stablehlo.constant dense<[-0.5, 0.25, 0.75]> : tensor<3xf16>
  %r = "chlo.asin"(%x) : (tensor<3xf16>) -> tensor<3xf16>
  %e = stablehlo.constant dense<[-0.5235987755982989, 0.25268025514207865, 0.848062078981481]> : tensor<3xf16>
  check.expect_close %r, %e, max_ulp_difference = 1 : tensor<3xf16>, tensor<3xf16>
  func.return
}

// -----

func.func @asin_bf16() {
  %x = stablehlo.constant dense<[-0.5, 0.25, 0.75]> : tensor<3xbf16>
  %r = "chlo.asin"(%x) : (tensor<3xbf16>) -> tensor<3xbf16>
  %e = stablehlo.constant dense<[-0.5235987755982989, 0.25268025514207865, 0.848062078981481]> : tensor<3xbf16>
  check.expect_close %r, %e, max_ulp_difference = 1 : tensor<3xbf16>, tensor<3xbf16>
  func.return
}

// -----

func.func @sinh_f16() {
  %x = stablehlo.constant dense<[-2.0, 0.5, 3.0]> : tensor<3xf16>
  %r = "chlo.sinh"(%x) : (tensor<3xf16>) -> tensor<3xf16>
  %e = stablehlo.constant dense<[-3.626860407847019, 0.5210953054937474, 10.017874927409903]> : tensor<3xf16>
  check.expect_close %r, %e, max_ulp_difference = 1 : tensor<3xf16>, tensor<3xf16>
  func.return
}

// -----

func.func @sinh_bf16() {
  %x = stablehlo.constant dense<[-2.0, 0.5, 3.0]> : tensor<3xbf16>
  %r = "chlo.sinh"(%x) : (tensor<3xbf16>) -> tensor<3xbf16>
  %e = stablehlo.constant dense<[-3.626860407847019, 0.5210953054937474, 10.017874927409903]> : tensor<3xbf16>
  check.expect_close %r, %e, max_ulp_difference = 1 : tensor<3xbf16>, tensor<3xbf16>
  func.return
}

// -----

func.func @acosh_f16() {
  %x = stablehlo.constant dense<[1.5, 2.0, 8.0]> : tensor<3xf16>
  %r = "chlo.acosh"(%x) : (tensor<3xf16>) -> tensor<3xf16>
  %e = stablehlo.constant dense<[0.9624236501192069, 1.3169578969248166, 2.7686593833135738]> : tensor<3xf16>
  check.expect_close %r, %e, max_ulp_difference = 1 : tensor<3xf16>, tensor<3xf16>
  func.return
}

// -----

func.func @acosh_bf16() {
  %x = stablehlo.constant dense<[1.5, 2.0, 8.0]> : tensor<3xbf16>
  %r = "chlo.acosh"(%x) : (tensor<3xbf16>) -> tensor<3xbf16>
  %e = stablehlo.constant dense<[0.9624236501192069, 1.3169578969248166, 2.7686593833135738]> : tensor<3xbf16>
  check.expect_close %r, %e, max_ulp_difference = 1 : tensor<3xbf16>, tensor<3xbf16>
  func.return
}

// -----

func.func @atanh_f16() {
  %x = stablehlo.constant dense<[-0.5, 0.25, 0.75]> : tensor<3xf16>
  %r = "chlo.atanh"(%x) : (tensor<3xf16>) -> tensor<3xf16>
  %e = stablehlo.constant dense<[-0.5493061443340548, 0.25541281188299536, 0.9729550745276566]> : tensor<3xf16>
  check.expect_close %r, %e, max_ulp_difference = 1 : tensor<3xf16>, tensor<3xf16>
  func.return
}

// -----

func.func @atanh_bf16() {
  %x = stablehlo.constant dense<[-0.5, 0.25, 0.75]> : tensor<3xbf16>
  %r = "chlo.atanh"(%x) : (tensor<3xbf16>) -> tensor<3xbf16>
  %e = stablehlo.constant dense<[-0.5493061443340548, 0.25541281188299536, 0.9729550745276566]> : tensor<3xbf16>
  check.expect_close %r, %e, max_ulp_difference = 1 : tensor<3xbf16>, tensor<3xbf16>
  func.return
}

// -----

func.func @cosh_f16() {
  %x = stablehlo.constant dense<[0.5, -3.0, 4.0]> : tensor<3xf16>
  %r = "chlo.cosh"(%x) : (tensor<3xf16>) -> tensor<3xf16>
  %e = stablehlo.constant dense<[1.1276259652063807, 10.067661995777765, 27.308232836016487]> : tensor<3xf16>
  check.expect_close %r, %e, max_ulp_difference = 1 : tensor<3xf16>, tensor<3xf16>
  func.return
}

// -----

func.func @cosh_bf16() {
  %x = stablehlo.constant dense<[0.5, -3.0, 4.0]> : tensor<3xbf16>
  %r = "chlo.cosh"(%x) : (tensor<3xbf16>) -> tensor<3xbf16>
  %e = stablehlo.constant dense<[1.1276259652063807, 10.067661995777765, 27.308232836016487]> : tensor<3xbf16>
  check.expect_close %r, %e, max_ulp_difference = 1 : tensor<3xbf16>, tensor<3xbf16>
  func.return
}

// -----

func.func @is_inf_f32() {
  %x = stablehlo.constant dense<[0x7F800000, 0xFF800000, 0x7FC00000, 0.0, -1.0, 3.4028234663852886e+38]> : tensor<6xf32>
  %r = "chlo.is_inf"(%x) : (tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %r, dense<[true, true, false, false, false, false]> : tensor<6xi1>
  func.return
}

// -----

func.func @is_pos_inf_f32() {
  %x = stablehlo.constant dense<[0x7F800000, 0xFF800000, 0x7FC00000, 0.0, -1.0, 3.4028234663852886e+38]> : tensor<6xf32>
  %r = "chlo.is_pos_inf"(%x) : (tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %r, dense<[true, false, false, false, false, false]> : tensor<6xi1>
  func.return
}

// -----

func.func @is_neg_inf_f32() {
  %x = stablehlo.constant dense<[0x7F800000, 0xFF800000, 0x7FC00000, 0.0, -1.0, 3.4028234663852886e+38]> : tensor<6xf32>
  %r = "chlo.is_neg_inf"(%x) : (tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %r, dense<[false, true, false, false, false, false]> : tensor<6xi1>
  func.return
}

// -----

func.func @is_inf_f64() {
  %x = stablehlo.constant dense<[0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0.0, -1.0, 1.7976931348623157e+308]> : tensor<6xf64>
  %r = "chlo.is_inf"(%x) : (tensor<6xf64>) -> tensor<6xi1>
  check.expect_eq_const %r, dense<[true, true, false, false, false, false]> : tensor<6xi1>
  func.return
}

// -----

func.func @is_pos_inf_f64() {
  %x = stablehlo.constant dense<[0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0.0, -1.0, 1.7976931348623157e+308]> : tensor<6xf64>
  %r = "chlo.is_pos_inf"(%x) : (tensor<6xf64>) -> tensor<6xi1>
  check.expect_eq_const %r, dense<[true, false, false, false, false, false]> : tensor<6xi1>
  func.return
}

// -----

func.func @is_neg_inf_f64() {
  %x = stablehlo.constant dense<[0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0.0, -1.0, 1.7976931348623157e+308]> : tensor<6xf64>
  %r = "chlo.is_neg_inf"(%x) : (tensor<6xf64>) -> tensor<6xi1>
  check.expect_eq_const %r, dense<[false, true, false, false, false, false]> : tensor<6xi1>
  func.return
}

// -----

func.func @is_inf_bf16() {
  %x = stablehlo.constant dense<[0x7F80, 0xFF80, 0x7FC0, 0.0, -1.0, 3.3895313892515355e+38]> : tensor<6xbf16>
  %r = "chlo.is_inf"(%x) : (tensor<6xbf16>) -> tensor<6xi1>
  check.expect_eq_const %r, dense<[true, true, false, false, false, false]> : tensor<6xi1>
  func.return
}

// -----

func.func @is_pos_inf_bf16() {
  %x = stablehlo.constant dense<[0x7F80, 0xFF80, 0x7FC0, 0.0, -1.0, 3.3895313892515355e+38]> : tensor<6xbf16>
  %r = "chlo.is_pos_inf"(%x) : (tensor<6xbf16>) -> tensor<6xi1>
  check.expect_eq_const %r, dense<[true, false, false, false, false, false]> : tensor<6xi1>
  func.return
}

// -----

func.func @is_neg_inf_bf16() {
  %x = stablehlo.constant dense<[0x7F80, 0xFF80, 0x7FC0, 0.0, -1.0, 3.3895313892515355e+38]> : tensor<6xbf16>
  %r = "chlo.is_neg_inf"(%x) : (tensor<6xbf16>) -> tensor<6xi1>
  check.expect_eq_const %r, dense<[false, true, false, false, false, false]> : tensor<6xi1>
  func.return
}

// -----

func.func @mulhi_i8() {
  %a = stablehlo.constant dense<[-128, 127, -128, -1, -1]> : tensor<5xi8>
  %b = stablehlo.constant dense<[-128, 127, 127, -1, 1]> : tensor<5xi8>
  %r = "chlo.mulhi"(%a, %b) : (tensor<5xi8>, tensor<5xi8>) -> tensor<5xi8>
  check.expect_eq_const %r, dense<[64, 63, -64, 0, -1]> : tensor<5xi8>
  func.return
}

// -----

func.func @mulhi_ui8() {
  %a = stablehlo.constant dense<[255, 128, 1]> : tensor<3xui8>
  %b = stablehlo.constant dense<[255, 2, 1]> : tensor<3xui8>
  %r = "chlo.mulhi"(%a, %b) : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  check.expect_eq_const %r, dense<[254, 1, 0]> : tensor<3xui8>
  func.return
}

// -----

func.func @mulhi_i32() {
  %a = stablehlo.constant dense<[-2147483648, 2147483647, -2147483648, -1, -7]> : tensor<5xi32>
  %b = stablehlo.constant dense<[-2147483648, 2147483647, 2147483647, -1, 3]> : tensor<5xi32>
  %r = "chlo.mulhi"(%a, %b) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  check.expect_eq_const %r, dense<[1073741824, 1073741823, -1073741824, 0, -1]> : tensor<5xi32>
  func.return
}

// -----

func.func @mulhi_i64() {
  %a = stablehlo.constant dense<[-9223372036854775808, 9223372036854775807, -9223372036854775808, -1, -1, -7, 12345678901234]> : tensor<7xi64>
  %b = stablehlo.constant dense<[-9223372036854775808, 9223372036854775807, 9223372036854775807, -1, 1, 3, -98765432109876]> : tensor<7xi64>
  %r = "chlo.mulhi"(%a, %b) : (tensor<7xi64>, tensor<7xi64>) -> tensor<7xi64>
  check.expect_eq_const %r, dense<[4611686018427387904, 4611686018427387903, -4611686018427387904, 0, -1, -1, -66099812]> : tensor<7xi64>
  func.return
}

// -----

func.func @mulhi_ui64() {
  %a = stablehlo.constant dense<[18446744073709551615, 9223372036854775808, 4294967297, 1]> : tensor<4xui64>
  %b = stablehlo.constant dense<[18446744073709551615, 2, 4294967297, 1]> : tensor<4xui64>
  %r = "chlo.mulhi"(%a, %b) : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xui64>
  check.expect_eq_const %r, dense<[18446744073709551614, 1, 1, 0]> : tensor<4xui64>
  func.return
}

// -----

func.func @top_k_f32() {
  %x = stablehlo.constant dense<[[3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0], [0x7FC00000, -1.0, 2.0, 2.0, 0xFF800000, 0x7F800000, 0.0, -0.5]]> : tensor<2x8xf32>
  %v, %i = chlo.top_k(%x, k = 4) : tensor<2x8xf32> -> (tensor<2x4xf32>, tensor<2x4xi32>)
  check.expect_almost_eq_const %v, dense<[[9.0, 6.0, 5.0, 4.0], [0x7FC00000, 0x7F800000, 2.0, 2.0]]> : tensor<2x4xf32>
  check.expect_eq_const %i, dense<[[5, 7, 4, 2], [0, 5, 2, 3]]> : tensor<2x4xi32>
  func.return
}

// -----

func.func @top_k_f16() {
  %x = stablehlo.constant dense<[[0.5, -2.0, 0.25, 8.0, 8.0, 1.0]]> : tensor<1x6xf16>
  %v, %i = chlo.top_k(%x, k = 3) : tensor<1x6xf16> -> (tensor<1x3xf16>, tensor<1x3xi32>)
  check.expect_almost_eq_const %v, dense<[[8.0, 8.0, 1.0]]> : tensor<1x3xf16>
  check.expect_eq_const %i, dense<[[3, 4, 5]]> : tensor<1x3xi32>
  func.return
}

// -----

func.func @top_k_i32() {
  %x = stablehlo.constant dense<[[7, -3, 7, 0, 12, -40, 12, 5], [1, 2, 3, 4, 5, 6, 7, 8], [8, 7, 6, 5, 4, 3, 2, 1]]> : tensor<3x8xi32>
  %v, %i = chlo.top_k(%x, k = 5) : tensor<3x8xi32> -> (tensor<3x5xi32>, tensor<3x5xi32>)
  check.expect_eq_const %v, dense<[[12, 12, 7, 7, 5], [8, 7, 6, 5, 4], [8, 7, 6, 5, 4]]> : tensor<3x5xi32>
  check.expect_eq_const %i, dense<[[4, 6, 0, 2, 7], [7, 6, 5, 4, 3], [0, 1, 2, 3, 4]]> : tensor<3x5xi32>
  func.return
}

// -----

func.func @top_k_ui8() {
  %x = stablehlo.constant dense<[[200, 3, 255, 0, 17]]> : tensor<1x5xui8>
  %v, %i = chlo.top_k(%x, k = 2) : tensor<1x5xui8> -> (tensor<1x2xui8>, tensor<1x2xi32>)
  check.expect_eq_const %v, dense<[[255, 200]]> : tensor<1x2xui8>
  check.expect_eq_const %i, dense<[[2, 0]]> : tensor<1x2xi32>
  func.return
}
