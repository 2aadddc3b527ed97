# mlp_adam_step: saved by scripts/save_jax_artifacts.py with JAX 0.12.1 (jaxlib 0.12.1); do not edit.
import numpy as np
array, float32, uint32, int32 = np.array, np.float32, np.uint32, np.int32
inf, nan = np.inf, np.nan

data = dict(
    custom_call_targets=[],
    nr_devices=1,
    jax_version='0.12.1',
    stablehlo_version='1.25.3',
    inputs=(array([[ 0.03771907, -0.03963146,  0.1921268 ,  0.03147003, -0.16070081,
         0.10847852,  0.3912    ,  0.28412428, -0.21112058, -0.37962645,
        -0.18698233,  0.01239779, -0.6975092 , -0.0656375 , -0.37377328,
        -0.2196802 ],
       [-0.1632777 , -0.09489005,  0.12348916,  0.312754  , -0.0385604 ,
         0.40993905, -0.1995584 ,  0.10545302,  0.27104107,  0.02820369,
        -0.22304977, -0.2765176 , -0.13731775,  0.06605854, -0.30288544,
        -0.06275267],
       [-0.0477675 ,  0.16225368,  0.06439774,  0.10661181, -0.19614859,
        -0.03888409,  0.23519264,  0.44802934, -0.37771967,  0.45417714,
         0.40376264,  0.23439342,  0.07933669, -0.09417684,  0.4374062 ,
         0.5880775 ],
       [ 0.54049045,  0.39453113,  0.10721412, -0.3624956 , -0.00133624,
         0.19694248, -0.38650844,  0.11853662,  0.1289591 ,  0.20881282,
        -0.3552354 , -0.19851077, -0.13093057, -0.3509406 ,  0.52181035,
        -0.14877322],
       [ 0.09869089, -0.07757176,  0.47504187,  0.3961083 ,  0.1900058 ,
        -0.66105294,  0.01560869,  0.20510586,  0.30118847, -0.18537211,
         0.5466034 , -0.39612928, -0.1984584 ,  0.280515  ,  0.01471638,
         0.6007178 ],
       [ 0.05655576, -0.18995823, -0.11326905, -0.32734382, -0.38330406,
         0.18912345,  0.17434974,  0.38836765, -0.22638173,  0.5067322 ,
        -0.08621632,  0.4723225 , -0.12983575, -0.22064498,  0.07493562,
         0.30943593],
       [ 0.04830287, -0.17565864, -0.40236592, -0.42045605,  0.15080486,
         0.29691392, -0.04928838, -0.32230946,  0.26191264, -0.38411817,
        -0.21392043,  0.18630536, -0.67504233,  0.11591088, -0.17449225,
         0.03278391],
       [-0.02271046,  0.06063432,  0.20825158, -0.22751093,  0.4262946 ,
         0.21782814,  0.2531198 ,  0.3494592 ,  0.23627646,  0.2532236 ,
         0.02267808, -0.42803216, -0.04051353, -0.23085439, -0.42682254,
         0.07753584]], dtype=float32), array([0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      dtype=float32), array([[ 0.10367526,  0.24648544,  0.09913112, -0.39094716],
       [ 0.27160677,  0.13391237, -0.16108596,  0.17433544],
       [ 0.10937172,  0.08823975,  0.00852667,  0.16401389],
       [-0.22093622, -0.04887298, -0.1446358 ,  0.17965387],
       [ 0.01191663, -0.08773702, -0.23457254, -0.07715767],
       [ 0.00244265, -0.08268087,  0.38821915,  0.3020173 ],
       [-0.81334877, -0.566704  , -0.05243163, -0.12665713],
       [ 0.0640929 ,  0.06519658,  0.6353516 , -0.33360624],
       [-0.1132815 ,  0.6128315 ,  0.1940109 ,  0.19891901],
       [-0.15420191, -0.49442255,  0.05023942,  0.03270423],
       [-0.3682056 , -0.204968  , -0.0216131 , -0.28342548],
       [-0.02948099,  0.02864491,  0.01067587, -0.15188749],
       [ 0.17812443,  0.26735008,  0.09625449, -0.24546906],
       [ 0.21949568, -0.150432  ,  0.2637482 , -0.3215362 ],
       [ 0.27434015, -0.00601904, -0.37462467, -0.09416984],
       [ 0.01623068,  0.0818374 , -0.29465643, -0.3322119 ]],
      dtype=float32), array([0., 0., 0., 0.], dtype=float32), array(0, dtype=int32), array([[0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
       [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
       [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
       [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
       [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
       [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
       [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
       [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.]],
      dtype=float32), array([0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      dtype=float32), array([[0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.]], dtype=float32), array([0., 0., 0., 0.], dtype=float32), array([[0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
       [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
       [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
       [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
       [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
       [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
       [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
       [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.]],
      dtype=float32), array([0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      dtype=float32), array([[0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.],
       [0., 0., 0., 0.]], dtype=float32), array([0., 0., 0., 0.], dtype=float32), array([[-1.1033385 , -0.72502464, -0.7818053 ,  0.26697585, -0.24858072,
         0.12648305,  0.84304255,  0.85793656],
       [ 0.47518364, -0.4507686 , -0.7549323 , -0.8148141 , -0.34385484,
        -0.05138009, -0.97227365, -1.1344875 ],
       [ 0.30570522, -1.851685  , -0.17705351,  0.42582566, -0.9853556 ,
        -1.1129541 , -0.760626  ,  0.6480246 ],
       [-0.12983136, -1.8695972 , -0.4233491 ,  1.0138968 ,  0.98371536,
         0.63004196, -0.2380588 , -1.8449398 ],
       [ 0.16957773, -0.17597777,  0.07679986,  1.5423042 ,  0.18368354,
         0.2763338 ,  0.6050975 , -0.2565689 ]], dtype=float32), array([[ 0.03419277,  1.3597475 ,  1.2247211 , -0.5103071 ],
       [-0.29796952, -0.5273842 ,  0.56972635, -0.05606444],
       [ 0.7468856 , -1.8473248 ,  1.5665488 , -0.09643216],
       [ 0.68037844, -0.13656634, -0.37909856,  0.46311015],
       [ 0.82451355, -0.20252988, -0.15278618,  0.6856986 ]],
      dtype=float32), ),
    expected_outputs=(array([[ 0.02771914, -0.04963136,  0.18212691,  0.02147012, -0.15070088,
         0.09847862,  0.40119994,  0.2941242 , -0.2211205 , -0.36962652,
        -0.17698242,  0.00239788, -0.70750916, -0.0756374 , -0.36377335,
        -0.20968029],
       [-0.15327777, -0.08489012,  0.11348925,  0.30275407, -0.02856047,
         0.39993912, -0.20955834,  0.09545309,  0.26104113,  0.01820376,
        -0.21304984, -0.26651767, -0.12731782,  0.05605862, -0.2928855 ,
        -0.05275274],
       [-0.05776742,  0.17225361,  0.0543982 ,  0.09661191, -0.18614866,
        -0.04888402,  0.22519271,  0.4380294 , -0.3877196 ,  0.46417707,
         0.41376254,  0.24439333,  0.06933677, -0.10417677,  0.44740614,
         0.5980774 ],
       [ 0.5304905 ,  0.40453106,  0.11721405, -0.35249567, -0.01133617,
         0.20694241, -0.39650834,  0.10853669,  0.11895919,  0.21881275,
        -0.36523533, -0.2085107 , -0.1409305 , -0.36094052,  0.5118104 ,
        -0.15877315],
       [ 0.08869096, -0.06757183,  0.4850418 ,  0.40610823,  0.20000573,
        -0.6710529 ,  0.00560876,  0.19510593,  0.29118854, -0.19537205,
         0.53660345, -0.4061292 , -0.20845826,  0.27051505,  0.02471631,
         0.59071785],
       [ 0.04655583, -0.1799583 , -0.10326913, -0.3173439 , -0.37330413,
         0.17912352,  0.16434981,  0.37836772, -0.2163818 ,  0.4967323 ,
        -0.09621625,  0.46232256, -0.11983582, -0.23064491,  0.08493555,
         0.299436  ],
       [ 0.0583028 , -0.16565871, -0.392366  , -0.41045615,  0.14080495,
         0.30691382, -0.05928831, -0.3323094 ,  0.27191257, -0.3941181 ,
        -0.22392035,  0.19630527, -0.6650424 ,  0.10591096, -0.16449232,
         0.022784  ],
       [-0.01271053,  0.05063439,  0.19825165, -0.23751085,  0.41629466,
         0.22782807,  0.24311988,  0.35945913,  0.2462764 ,  0.24322367,
         0.03267801, -0.41803223, -0.0305136 , -0.22085446, -0.4168226 ,
         0.08753577]], dtype=float32), array([-0.00999993, -0.00999993,  0.00999992,  0.00999991, -0.00999993,
        0.00999993,  0.00999993,  0.00999993,  0.00999993,  0.00999993,
       -0.00999992, -0.00999993, -0.00999993,  0.00999993, -0.00999993,
       -0.00999993], dtype=float32), array([[ 0.11367519,  0.23648551,  0.10913105, -0.38094723],
       [ 0.2816067 ,  0.12391244, -0.15108603,  0.18433537],
       [ 0.11937139,  0.07823984, -0.00147326,  0.17401381],
       [-0.23093615, -0.03887306, -0.15463573,  0.16965394],
       [ 0.02191656, -0.0777371 , -0.22457261, -0.0871576 ],
       [ 0.01244255, -0.07268094,  0.37821922,  0.29201737],
       [-0.8033489 , -0.5767039 , -0.0424317 , -0.13665706],
       [ 0.07409272,  0.0751965 ,  0.62535167, -0.34360614],
       [-0.12328141,  0.6228314 ,  0.20401083,  0.18891908],
       [-0.14420201, -0.48442262,  0.04023949,  0.0227043 ],
       [-0.37820554, -0.21496789, -0.03161303, -0.27342555],
       [-0.03948091,  0.01864498,  0.0206758 , -0.14188756],
       [ 0.18812436,  0.25735015,  0.10625442, -0.255469  ],
       [ 0.20949575, -0.14043207,  0.25374827, -0.31153643],
       [ 0.28434008, -0.01601897, -0.36462474, -0.08416991],
       [ 0.00623077,  0.09183733, -0.30465636, -0.32221198]],
      dtype=float32), array([ 0.00999993, -0.00999993,  0.00999993,  0.00999993], dtype=float32), array(1, dtype=int32), array([[ 5.4461379e-03,  3.6375973e-04,  2.3886918e-04,  6.1444694e-04,
        -2.8557386e-03,  2.3148440e-04, -3.5911337e-03, -4.3620364e-04,
         8.2450565e-03, -4.3496420e-03, -8.3588233e-04,  6.1830407e-04,
         4.8268070e-03,  3.0524132e-04, -6.4803904e-04, -7.4353826e-04],
       [-1.2880081e-02, -7.4200029e-03,  5.4461631e-04,  7.7309617e-04,
        -6.5032649e-03,  4.8976755e-03,  8.7642688e-03,  4.7231759e-03,
         3.0505916e-03,  8.1444401e-03, -2.5395025e-03, -3.9841039e-03,
        -7.4342005e-03,  5.6777784e-04, -1.5075058e-02, -7.5095817e-03],
       [ 6.4556999e-04, -1.7929415e-03,  2.5460715e-05,  3.3217503e-04,
        -2.9967702e-03,  1.2891192e-03,  1.8657622e-03,  1.0669997e-03,
         5.3478903e-03, -7.6541019e-04, -2.7318657e-04, -4.2262897e-04,
         5.0056679e-04,  1.6368357e-03, -4.2766309e-03, -1.8185700e-03],
       [ 1.2776362e-02, -1.2067546e-03, -1.5857508e-03, -6.4446975e-04,
         1.7411059e-03, -3.6581436e-03,  3.3799309e-04,  2.3006040e-03,
         7.0606678e-04, -4.0711188e-03,  2.8497034e-03,  3.2243584e-03,
         1.8369493e-03,  2.1713388e-03,  3.7516772e-03,  6.5069064e-03],
       [ 5.8396361e-03, -5.5992347e-03, -1.3900452e-03, -6.9396972e-04,
        -2.9637658e-03,  3.2570865e-03,  4.8803515e-03,  3.7789873e-03,
         9.1050286e-04,  2.5890740e-03,  3.1162377e-03,  2.1090226e-03,
         1.2976893e-04,  3.1880350e-03, -2.2781123e-03,  5.2125198e-03],
       [ 2.2923162e-03, -5.4943464e-03, -1.1634473e-03, -6.1242795e-04,
        -2.0181537e-03,  2.5484865e-03,  5.1605697e-03,  3.9406456e-03,
        -1.6352835e-03,  4.1856589e-03,  2.2557962e-03,  1.2162076e-03,
        -2.0786070e-03,  1.9205541e-03, -2.8686172e-03,  3.9382987e-03],
       [-4.0334021e-03, -3.6866819e-03, -7.0495368e-04, -4.8996852e-04,
         9.5289649e-04, -3.9961096e-04,  6.6359709e-03,  3.3544265e-03,
        -5.7550627e-03,  4.9770544e-03,  8.6443732e-04, -7.2081131e-04,
        -6.5333755e-03,  7.7533611e-04, -3.6821358e-03,  4.7005666e-04],
       [-1.4995538e-02,  4.5605577e-03,  1.6169060e-03,  5.9606048e-04,
         4.0295436e-03, -3.3500809e-03,  8.7250955e-04, -2.8660838e-03,
        -5.5980678e-03,  1.6182505e-03, -3.7056399e-03, -4.4641192e-03,
        -6.6325734e-03, -2.8301317e-03, -2.1162811e-03, -8.8164005e-03]],
      dtype=float32), array([ 0.00855357,  0.00380859, -0.00060996, -0.00046887,  0.00553743,
       -0.00551575, -0.00588493, -0.00136954, -0.00449198, -0.00435044,
        0.00102949,  0.00253606,  0.00259748, -0.00199239,  0.00971365,
        0.00545602], dtype=float32), array([[-3.5640670e-03,  1.0036085e-02, -8.0140745e-03, -1.6296355e-02],
       [-4.0541491e-03,  1.3549539e-02, -1.0726761e-02, -4.4864709e-03],
       [-3.7643775e-05,  7.6127006e-04,  2.7535595e-03, -4.3504676e-04],
       [ 2.1404589e-03, -1.0510365e-03,  2.2461063e-03,  1.7586378e-03],
       [-1.2397097e-03, -1.4021717e-03, -1.1284483e-02,  6.3874498e-03],
       [-2.9938249e-04, -3.9953087e-03,  1.3035815e-03,  8.9314563e-04],
       [-2.4582882e-04,  3.5204873e-03, -1.5531074e-03,  2.2547469e-03],
       [-9.5446514e-05, -1.6010593e-03,  5.7444526e-03,  2.9883589e-04],
       [ 4.4940246e-04, -9.0688746e-03, -1.6578155e-03,  4.6688109e-03],
       [-2.7650312e-04, -2.1722515e-03,  1.4511218e-03,  1.1623633e-03],
       [ 7.8665715e-04,  2.4334845e-04,  1.5957028e-03, -2.8103970e-03],
       [ 1.1164689e-03,  3.7908179e-03, -3.0483955e-03, -9.3950573e-03],
       [-1.6213851e-03,  1.2486340e-02, -1.5995003e-02,  8.3724380e-04],
       [ 1.6643325e-03, -1.8692730e-03,  2.2419412e-03, -6.7612877e-05],
       [-3.1383031e-03,  1.5678974e-02, -9.6342601e-03, -2.8410524e-02],
       [ 4.3828940e-04, -1.9865830e-03,  4.1839201e-03, -3.5479546e-03]],
      dtype=float32), array([-0.00530179,  0.02435995, -0.04033716, -0.01485752], dtype=float32), array([[2.96604185e-06, 1.32321141e-08, 5.70584868e-09, 3.77545035e-08,
        8.15524345e-07, 5.35850253e-09, 1.28962415e-06, 1.90273628e-08,
        6.79809546e-06, 1.89193850e-06, 6.98699267e-08, 3.82299952e-08,
        2.32980642e-06, 9.31722699e-09, 4.19954596e-08, 5.52849144e-08],
       [1.65896490e-05, 5.50564391e-06, 2.96606935e-08, 5.97677712e-08,
        4.22924541e-06, 2.39872247e-06, 7.68124028e-06, 2.23083930e-06,
        9.30610838e-07, 6.63319042e-06, 6.44907345e-07, 1.58730836e-06,
        5.52673373e-06, 3.22371676e-08, 2.27257369e-05, 5.63938192e-06],
       [4.16760635e-08, 3.21463887e-07, 6.48248052e-11, 1.10340235e-08,
        8.98063149e-07, 1.66182829e-07, 3.48106823e-07, 1.13848841e-07,
        2.85999272e-06, 5.85852824e-08, 7.46308970e-09, 1.78615256e-08,
        2.50567123e-08, 2.67923156e-07, 1.82895712e-06, 3.30719672e-07],
       [1.63235418e-05, 1.45625648e-07, 2.51460563e-07, 4.15341255e-08,
        3.03144986e-07, 1.33820140e-06, 1.14239329e-08, 5.29277884e-07,
        4.98530355e-08, 1.65740084e-06, 8.12080884e-07, 1.03964874e-06,
        3.37438280e-07, 4.71471225e-07, 1.40750831e-06, 4.23398342e-06],
       [3.41013492e-06, 3.13514306e-06, 1.93222547e-07, 4.81594000e-08,
        8.78390779e-07, 1.06086134e-06, 2.38178336e-06, 1.42807460e-06,
        8.29015505e-08, 6.70330451e-07, 9.71093755e-07, 4.44797593e-07,
        1.68399750e-09, 1.01635669e-06, 5.18979562e-07, 2.71703630e-06],
       [5.25471307e-07, 3.01878413e-06, 1.35360963e-07, 3.75067977e-08,
        4.07294436e-07, 6.49478295e-07, 2.66314782e-06, 1.55286887e-06,
        2.67415203e-07, 1.75197397e-06, 5.08861717e-07, 1.47916111e-07,
        4.32060716e-07, 3.68852795e-07, 8.22896482e-07, 1.55101964e-06],
       [1.62683318e-06, 1.35916230e-06, 4.96959700e-08, 2.40069120e-08,
        9.08011728e-08, 1.59688920e-08, 4.40361100e-06, 1.12521775e-06,
        3.31207457e-06, 2.47710705e-06, 7.47251931e-08, 5.19568957e-08,
        4.26849965e-06, 6.01146084e-08, 1.35581251e-06, 2.20953265e-08],
       [2.24866162e-05, 2.07986864e-06, 2.61438515e-07, 3.55288066e-08,
        1.62372203e-06, 1.12230430e-06, 7.61272929e-08, 8.21443678e-07,
        3.13383612e-06, 2.61873453e-07, 1.37317670e-06, 1.99283591e-06,
        4.39910264e-06, 8.00964585e-07, 4.47864551e-07, 7.77289188e-06]],
      dtype=float32), array([7.3163583e-06, 1.4505354e-06, 3.7204988e-08, 2.1984089e-08,
       3.0663180e-06, 3.0423489e-06, 3.4632440e-06, 1.8756400e-07,
       2.0177865e-06, 1.8926319e-06, 1.0598400e-07, 6.4315810e-07,
       6.7469227e-07, 3.9696053e-07, 9.4355082e-06, 2.9768114e-06],
      dtype=float32), array([[1.27025726e-06, 1.00723009e-05, 6.42253963e-06, 2.65571216e-05],
       [1.64361268e-06, 1.83590018e-05, 1.15063413e-05, 2.01284251e-06],
       [1.41705384e-10, 5.79532120e-08, 7.58209012e-07, 1.89265688e-08],
       [4.58156421e-07, 1.10467774e-07, 5.04499326e-07, 3.09280722e-07],
       [1.53688006e-07, 1.96608568e-07, 1.27339554e-05, 4.07995185e-06],
       [8.96298769e-09, 1.59624926e-06, 1.69932491e-07, 7.97709134e-08],
       [6.04318062e-09, 1.23938310e-06, 2.41214281e-07, 5.08388382e-07],
       [9.11003717e-10, 2.56339121e-07, 3.29987347e-06, 8.93028762e-09],
       [2.01962571e-08, 8.22444872e-06, 2.74835230e-07, 2.17977936e-06],
       [7.64539720e-09, 4.71867651e-07, 2.10575436e-07, 1.35108849e-07],
       [6.18829503e-08, 5.92184657e-09, 2.54626741e-07, 7.89833166e-07],
       [1.24650271e-07, 1.43702994e-06, 9.29271607e-07, 8.82670975e-06],
       [2.62888989e-07, 1.55908674e-05, 2.55840132e-05, 7.00977196e-08],
       [2.77000282e-07, 3.49418173e-07, 5.02630030e-07, 4.57150151e-10],
       [9.84894655e-07, 2.45830215e-05, 9.28189729e-06, 8.07157921e-05],
       [1.92097609e-08, 3.94651181e-07, 1.75051878e-06, 1.25879819e-06]],
      dtype=float32), array([2.8108971e-06, 5.9340713e-05, 1.6270866e-04, 2.2074577e-05],
      dtype=float32), array(0.70708025, dtype=float32), ),
    mlir_module_text=r'''module @jit_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16x4xf32>, %arg3: tensor<4xf32>, %arg4: tensor<i32>, %arg5: tensor<8x16xf32>, %arg6: tensor<16xf32>, %arg7: tensor<16x4xf32>, %arg8: tensor<4xf32>, %arg9: tensor<8x16xf32>, %arg10: tensor<16xf32>, %arg11: tensor<16x4xf32>, %arg12: tensor<4xf32>, %arg13: tensor<5x8xf32>, %arg14: tensor<5x4xf32>) -> (tensor<8x16xf32> {jax.result_info = "result[0][0][0]"}, tensor<16xf32> {jax.result_info = "result[0][0][1]"}, tensor<16x4xf32> {jax.result_info = "result[0][1][0]"}, tensor<4xf32> {jax.result_info = "result[0][1][1]"}, tensor<i32> {jax.result_info = "result[1][0].count"}, tensor<8x16xf32> {jax.result_info = "result[1][0].mu[0][0]"}, tensor<16xf32> {jax.result_info = "result[1][0].mu[0][1]"}, tensor<16x4xf32> {jax.result_info = "result[1][0].mu[1][0]"}, tensor<4xf32> {jax.result_info = "result[1][0].mu[1][1]"}, tensor<8x16xf32> {jax.result_info = "result[1][0].nu[0][0]"}, tensor<16xf32> {jax.result_info = "result[1][0].nu[0][1]"}, tensor<16x4xf32> {jax.result_info = "result[1][0].nu[1][0]"}, tensor<4xf32> {jax.result_info = "result[1][0].nu[1][1]"}, tensor<f32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.dot_general %arg13, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x8xf32>, tensor<8x16xf32>) -> tensor<5x16xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<5x16xf32>
    %3 = stablehlo.add %0, %2 : tensor<5x16xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %5 = stablehlo.multiply %4, %3 : tensor<5x16xf32>
    %6 = stablehlo.negate %3 : tensor<5x16xf32>
    %cst_0 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %8 = stablehlo.multiply %6, %7 : tensor<5x16xf32>
    %9 = stablehlo.abs %8 : tensor<5x16xf32>
    %cst_1 = stablehlo.constant dense<1.050000e+01> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %11 = stablehlo.minimum %9, %10 : tensor<5x16xf32>
    %cst_2 = stablehlo.constant dense<4.915200e+04> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %13 = stablehlo.add %11, %12 : tensor<5x16xf32>
    %cst_3 = stablehlo.constant dense<4.915200e+04> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %15 = stablehlo.subtract %13, %14 : tensor<5x16xf32>
    %16 = stablehlo.subtract %11, %15 : tensor<5x16xf32>
    %17 = stablehlo.multiply %15, %15 : tensor<5x16xf32>
    %18 = stablehlo.add %11, %15 : tensor<5x16xf32>
    %19 = stablehlo.multiply %16, %18 : tensor<5x16xf32>
    %20 = stablehlo.negate %17 : tensor<5x16xf32>
    %21 = stablehlo.exponential %20 : tensor<5x16xf32>
    %22 = stablehlo.negate %19 : tensor<5x16xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_5 = stablehlo.constant dense<0.50005281> : tensor<f32>
    %cst_6 = stablehlo.constant dense<0.166673735> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %24 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %25 = stablehlo.fma %23, %22, %24 : tensor<5x16xf32>
    %26 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %27 = stablehlo.fma %25, %22, %26 : tensor<5x16xf32>
    %28 = stablehlo.multiply %22, %27 : tensor<5x16xf32>
    %cst_7 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %30 = stablehlo.add %11, %29 : tensor<5x16xf32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %32 = stablehlo.divide %31, %30 : tensor<5x16xf32>
    %cst_9 = stablehlo.constant dense<0.564175904> : tensor<f32>
    %cst_10 = stablehlo.constant dense<1.12936091> : tensor<f32>
    %cst_11 = stablehlo.constant dense<1.94741154> : tensor<f32>
    %cst_12 = stablehlo.constant dense<3.21784306> : tensor<f32>
    %cst_13 = stablehlo.constant dense<-0.709048152> : tensor<f32>
    %cst_14 = stablehlo.constant dense<17.3069077> : tensor<f32>
    %cst_15 = stablehlo.constant dense<-61.3700523> : tensor<f32>
    %cst_16 = stablehlo.constant dense<71.7574615> : tensor<f32>
    %cst_17 = stablehlo.constant dense<-29.7377338> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %34 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %35 = stablehlo.fma %33, %32, %34 : tensor<5x16xf32>
    %36 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %37 = stablehlo.fma %35, %32, %36 : tensor<5x16xf32>
    %38 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %39 = stablehlo.fma %37, %32, %38 : tensor<5x16xf32>
    %40 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %41 = stablehlo.fma %39, %32, %40 : tensor<5x16xf32>
    %42 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %43 = stablehlo.fma %41, %32, %42 : tensor<5x16xf32>
    %44 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %45 = stablehlo.fma %43, %32, %44 : tensor<5x16xf32>
    %46 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %47 = stablehlo.fma %45, %32, %46 : tensor<5x16xf32>
    %48 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %49 = stablehlo.fma %47, %32, %48 : tensor<5x16xf32>
    %50 = stablehlo.multiply %32, %49 : tensor<5x16xf32>
    %51 = stablehlo.multiply %50, %28 : tensor<5x16xf32>
    %52 = stablehlo.add %50, %51 : tensor<5x16xf32>
    %53 = stablehlo.multiply %21, %52 : tensor<5x16xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %54 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %55 = stablehlo.compare LT, %8, %54, FLOAT : (tensor<5x16xf32>, tensor<5x16xf32>) -> tensor<5x16xi1>
    %cst_19 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %57 = stablehlo.subtract %56, %53 : tensor<5x16xf32>
    %58 = stablehlo.select %55, %57, %53 : tensor<5x16xi1>, tensor<5x16xf32>
    %59 = stablehlo.abs %8 : tensor<5x16xf32>
    %cst_20 = stablehlo.constant dense<1.100000e+01> : tensor<f32>
    %60 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %61 = stablehlo.minimum %59, %60 : tensor<5x16xf32>
    %62 = stablehlo.bitcast_convert %61 : (tensor<5x16xf32>) -> tensor<5x16xi32>
    %c = stablehlo.constant dense<-4096> : tensor<i32>
    %63 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x16xi32>
    %64 = stablehlo.and %62, %63 : tensor<5x16xi32>
    %65 = stablehlo.bitcast_convert %64 : (tensor<5x16xi32>) -> tensor<5x16xf32>
    %66 = stablehlo.subtract %61, %65 : tensor<5x16xf32>
    %67 = stablehlo.multiply %65, %65 : tensor<5x16xf32>
    %68 = stablehlo.add %61, %65 : tensor<5x16xf32>
    %69 = stablehlo.multiply %66, %68 : tensor<5x16xf32>
    %70 = stablehlo.negate %67 : tensor<5x16xf32>
    %71 = stablehlo.exponential %70 : tensor<5x16xf32>
    %72 = stablehlo.exponential %70 {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>} : tensor<5x16xf32>
    %73 = stablehlo.negate %69 : tensor<5x16xf32>
    %cst_21 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_22 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %cst_23 = stablehlo.constant dense<0.166666672> : tensor<f32>
    %cst_24 = stablehlo.constant dense<0.0416666679> : tensor<f32>
    %cst_25 = stablehlo.constant dense<0.00833333377> : tensor<f32>
    %74 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %75 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %76 = stablehlo.fma %74, %73, %75 : tensor<5x16xf32>
    %77 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %78 = stablehlo.fma %76, %73, %77 : tensor<5x16xf32>
    %79 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %80 = stablehlo.fma %78, %73, %79 : tensor<5x16xf32>
    %81 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %82 = stablehlo.fma %80, %73, %81 : tensor<5x16xf32>
    %83 = stablehlo.multiply %73, %82 : tensor<5x16xf32>
    %84 = stablehlo.multiply %72, %83 : tensor<5x16xf32>
    %85 = stablehlo.add %72, %84 : tensor<5x16xf32>
    %86 = stablehlo.multiply %5, %58 : tensor<5x16xf32>
    %87 = stablehlo.dot_general %86, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x16xf32>, tensor<16x4xf32>) -> tensor<5x4xf32>
    %88 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %89 = stablehlo.broadcast_in_dim %88, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<5x4xf32>
    %90 = stablehlo.add %87, %89 : tensor<5x4xf32>
    %91 = stablehlo.subtract %90, %arg14 : tensor<5x4xf32>
    %92 = stablehlo.multiply %91, %91 : tensor<5x4xf32>
    %cst_26 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %94 = stablehlo.multiply %93, %91 : tensor<5x4xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %95 = stablehlo.reduce(%92 init: %cst_27) applies stablehlo.add across dimensions = [0, 1] : (tensor<5x4xf32>, tensor<f32>) -> tensor<f32>
    %cst_28 = stablehlo.constant dense<2.000000e+01> : tensor<f32>
    %96 = stablehlo.divide %95, %cst_28 : tensor<f32>
    %cst_29 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_30 = stablehlo.constant dense<2.000000e+01> : tensor<f32>
    %97 = stablehlo.divide %cst_29, %cst_30 : tensor<f32>
    %98 = stablehlo.broadcast_in_dim %97, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %99 = stablehlo.multiply %98, %94 : tensor<5x4xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %100 = stablehlo.reduce(%99 init: %cst_31) applies stablehlo.add across dimensions = [0] : (tensor<5x4xf32>, tensor<f32>) -> tensor<4xf32>
    %101 = stablehlo.reshape %100 : (tensor<4xf32>) -> tensor<1x4xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %102 = stablehlo.reduce(%101 init: %cst_32) applies stablehlo.add across dimensions = [0] : (tensor<1x4xf32>, tensor<f32>) -> tensor<4xf32>
    %103 = stablehlo.dot_general %99, %86, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x4xf32>, tensor<5x16xf32>) -> tensor<4x16xf32>
    %104 = stablehlo.transpose %103, dims = [1, 0] : (tensor<4x16xf32>) -> tensor<16x4xf32>
    %105 = stablehlo.dot_general %99, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<5x4xf32>, tensor<16x4xf32>) -> tensor<5x16xf32>
    %106 = stablehlo.multiply %5, %105 : tensor<5x16xf32>
    %107 = stablehlo.multiply %105, %58 : tensor<5x16xf32>
    %cst_33 = stablehlo.constant dense<-1.12837923> : tensor<f32>
    %108 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %109 = stablehlo.multiply %108, %106 : tensor<5x16xf32>
    %110 = stablehlo.multiply %109, %85 : tensor<5x16xf32>
    %cst_34 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %111 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %112 = stablehlo.multiply %110, %111 : tensor<5x16xf32>
    %113 = stablehlo.negate %112 : tensor<5x16xf32>
    %cst_35 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %114 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %115 = stablehlo.multiply %114, %107 : tensor<5x16xf32>
    %116 = stablehlo.add %113, %115 : tensor<5x16xf32>
    %cst_36 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %117 = stablehlo.reduce(%116 init: %cst_36) applies stablehlo.add across dimensions = [0] : (tensor<5x16xf32>, tensor<f32>) -> tensor<16xf32>
    %118 = stablehlo.reshape %117 : (tensor<16xf32>) -> tensor<1x16xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %119 = stablehlo.reduce(%118 init: %cst_37) applies stablehlo.add across dimensions = [0] : (tensor<1x16xf32>, tensor<f32>) -> tensor<16xf32>
    %120 = stablehlo.dot_general %116, %arg13, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x16xf32>, tensor<5x8xf32>) -> tensor<16x8xf32>
    %121 = stablehlo.transpose %120, dims = [1, 0] : (tensor<16x8xf32>) -> tensor<8x16xf32>
    %cst_38 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %122 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %123 = stablehlo.multiply %122, %121 : tensor<8x16xf32>
    %cst_39 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %124 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %125 = stablehlo.multiply %124, %arg5 : tensor<8x16xf32>
    %126 = stablehlo.add %123, %125 : tensor<8x16xf32>
    %cst_40 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %127 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %128 = stablehlo.multiply %127, %119 : tensor<16xf32>
    %cst_41 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %129 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %130 = stablehlo.multiply %129, %arg6 : tensor<16xf32>
    %131 = stablehlo.add %128, %130 : tensor<16xf32>
    %cst_42 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %132 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %133 = stablehlo.multiply %132, %104 : tensor<16x4xf32>
    %cst_43 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %134 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %135 = stablehlo.multiply %134, %arg7 : tensor<16x4xf32>
    %136 = stablehlo.add %133, %135 : tensor<16x4xf32>
    %cst_44 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %137 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %138 = stablehlo.multiply %137, %102 : tensor<4xf32>
    %cst_45 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %139 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %140 = stablehlo.multiply %139, %arg8 : tensor<4xf32>
    %141 = stablehlo.add %138, %140 : tensor<4xf32>
    %142 = stablehlo.multiply %121, %121 : tensor<8x16xf32>
    %cst_46 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %143 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %144 = stablehlo.multiply %143, %142 : tensor<8x16xf32>
    %cst_47 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %145 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %146 = stablehlo.multiply %145, %arg9 : tensor<8x16xf32>
    %147 = stablehlo.add %144, %146 : tensor<8x16xf32>
    %148 = stablehlo.multiply %119, %119 : tensor<16xf32>
    %cst_48 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %149 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %150 = stablehlo.multiply %149, %148 : tensor<16xf32>
    %cst_49 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %151 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %152 = stablehlo.multiply %151, %arg10 : tensor<16xf32>
    %153 = stablehlo.add %150, %152 : tensor<16xf32>
    %154 = stablehlo.multiply %104, %104 : tensor<16x4xf32>
    %cst_50 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %155 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %156 = stablehlo.multiply %155, %154 : tensor<16x4xf32>
    %cst_51 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %157 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %158 = stablehlo.multiply %157, %arg11 : tensor<16x4xf32>
    %159 = stablehlo.add %156, %158 : tensor<16x4xf32>
    %160 = stablehlo.multiply %102, %102 : tensor<4xf32>
    %cst_52 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %161 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %162 = stablehlo.multiply %161, %160 : tensor<4xf32>
    %cst_53 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %163 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %164 = stablehlo.multiply %163, %arg12 : tensor<4xf32>
    %165 = stablehlo.add %162, %164 : tensor<4xf32>
    %c_54 = stablehlo.constant dense<2147483647> : tensor<i32>
    %166 = stablehlo.compare LT, %arg4, %c_54, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_55 = stablehlo.constant dense<1> : tensor<i32>
    %167 = stablehlo.add %arg4, %c_55 : tensor<i32>
    %c_56 = stablehlo.constant dense<2147483647> : tensor<i32>
    %168 = call @_where(%166, %167, %c_56) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %cst_57 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %169 = stablehlo.convert %168 : (tensor<i32>) -> tensor<f32>
    %170 = stablehlo.power %cst_57, %169 : tensor<f32>
    %cst_58 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %171 = stablehlo.subtract %cst_58, %170 : tensor<f32>
    %172 = stablehlo.broadcast_in_dim %171, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %173 = stablehlo.divide %126, %172 : tensor<8x16xf32>
    %174 = stablehlo.broadcast_in_dim %171, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %175 = stablehlo.divide %131, %174 : tensor<16xf32>
    %176 = stablehlo.broadcast_in_dim %171, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %177 = stablehlo.divide %136, %176 : tensor<16x4xf32>
    %178 = stablehlo.broadcast_in_dim %171, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %179 = stablehlo.divide %141, %178 : tensor<4xf32>
    %cst_59 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %180 = stablehlo.convert %168 : (tensor<i32>) -> tensor<f32>
    %181 = stablehlo.power %cst_59, %180 : tensor<f32>
    %cst_60 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %182 = stablehlo.subtract %cst_60, %181 : tensor<f32>
    %183 = stablehlo.broadcast_in_dim %182, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %184 = stablehlo.divide %147, %183 : tensor<8x16xf32>
    %185 = stablehlo.broadcast_in_dim %182, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %186 = stablehlo.divide %153, %185 : tensor<16xf32>
    %187 = stablehlo.broadcast_in_dim %182, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %188 = stablehlo.divide %159, %187 : tensor<16x4xf32>
    %189 = stablehlo.broadcast_in_dim %182, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %190 = stablehlo.divide %165, %189 : tensor<4xf32>
    %cst_61 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %191 = stablehlo.broadcast_in_dim %cst_61, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %192 = stablehlo.add %184, %191 : tensor<8x16xf32>
    %193 = stablehlo.sqrt %192 : tensor<8x16xf32>
    %cst_62 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %194 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %195 = stablehlo.add %193, %194 : tensor<8x16xf32>
    %196 = stablehlo.divide %173, %195 : tensor<8x16xf32>
    %cst_63 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %197 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %198 = stablehlo.add %186, %197 : tensor<16xf32>
    %199 = stablehlo.sqrt %198 : tensor<16xf32>
    %cst_64 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %200 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %201 = stablehlo.add %199, %200 : tensor<16xf32>
    %202 = stablehlo.divide %175, %201 : tensor<16xf32>
    %cst_65 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %203 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %204 = stablehlo.add %188, %203 : tensor<16x4xf32>
    %205 = stablehlo.sqrt %204 : tensor<16x4xf32>
    %cst_66 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %206 = stablehlo.broadcast_in_dim %cst_66, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %207 = stablehlo.add %205, %206 : tensor<16x4xf32>
    %208 = stablehlo.divide %177, %207 : tensor<16x4xf32>
    %cst_67 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %209 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %210 = stablehlo.add %190, %209 : tensor<4xf32>
    %211 = stablehlo.sqrt %210 : tensor<4xf32>
    %cst_68 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %212 = stablehlo.broadcast_in_dim %cst_68, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %213 = stablehlo.add %211, %212 : tensor<4xf32>
    %214 = stablehlo.divide %179, %213 : tensor<4xf32>
    %cst_69 = stablehlo.constant dense<-0.00999999977> : tensor<f32>
    %215 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %216 = stablehlo.multiply %215, %196 : tensor<8x16xf32>
    %cst_70 = stablehlo.constant dense<-0.00999999977> : tensor<f32>
    %217 = stablehlo.broadcast_in_dim %cst_70, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %218 = stablehlo.multiply %217, %202 : tensor<16xf32>
    %cst_71 = stablehlo.constant dense<-0.00999999977> : tensor<f32>
    %219 = stablehlo.broadcast_in_dim %cst_71, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %220 = stablehlo.multiply %219, %208 : tensor<16x4xf32>
    %cst_72 = stablehlo.constant dense<-0.00999999977> : tensor<f32>
    %221 = stablehlo.broadcast_in_dim %cst_72, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %222 = stablehlo.multiply %221, %214 : tensor<4xf32>
    %223 = stablehlo.add %arg0, %216 : tensor<8x16xf32>
    %224 = stablehlo.add %arg1, %218 : tensor<16xf32>
    %225 = stablehlo.add %arg2, %220 : tensor<16x4xf32>
    %226 = stablehlo.add %arg3, %222 : tensor<4xf32>
    return %223, %224, %225, %226, %168, %126, %131, %136, %141, %147, %153, %159, %165, %96 : tensor<8x16xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>, tensor<i32>, tensor<8x16xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>, tensor<8x16xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>, tensor<f32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
''',
    mlir_module_serialized=b'ML\xefR\rStableHLO_v1.25.3\x00\x01E\x05\x01\x055\x01\x03\x0b\x033\x0f\x13\x17\x1b\x1f#\'+/37;?CGKOSW[_cgko\x03*\x07\x86\x067\x01\x81\x0b\x17\x17\x17\x17\x17\x0f\x1b\x0b\x0b\x0b\x13\x13\x17\x17\x17\x17\x17\x17\x13\x13\x13\x13\x13\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x03\xab\x0f\x0b\x0b/\x1f/\x17\x1f\x13\x1f\x1f\x1f\x1f\x1f\x1f\x0bO\x1f\x1f\x0b\x0b\x1f\x1f\x0b\x1fO\x1f\x0bC\x13\x0b\x13\x0b\x13\x0b\x13\x0b\x13\x0b\x13\x0b\x13\x0b\x13\x0b\x13\x0b\x13\x0b\x13\x0b\x13\x0b\x13\x0b\x13\x0b\x0b\x0b\x0b\x0b\x1f\x0b\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x0b\x1f\x1f\x1b\x0b\x1f\x1f\x1f\x1f\x0b\x1f\x012\x04\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x13\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x17\x01\x03\x0f\x035\x0f\x17\x13\x13\x17\x17\x0f\x07\x17\x0f\x07\x17\x07\x17\x07\x13\x17\x13\x17\x83\x1f\x07\x13\x17\x17\x17\x02\x96 \x059\x17\x01\x02\x027\x17\x01&\x029\x17\x012\x029\x17\x01~\x029\x17\x01\x8a\x029\x11\x01\x05\x03\x05\x11\r\x13\r\x05;\x05=\x05?\x17\x01\x03\x03\x17\x01\x05\x07\x17\x01\xce\x04\x07\x17\x01\xce\x04;\x17\x01\xce\x04a\x17\x01\xce\x04\x89\x17\x01\xd2\x04\x15\x17\x01\xd6\x04\x0b\x17\x01\x055\x17\x01\x05g\x17\x01\x05\x95\x17\x01\x05\xc7\x17\x01\x05\xf3\x17\x01\x056\x02\x17\x01\x05\x9a\x02\x17\x01\x05\xf6\x02\x17\x01\x05Z\x03\x17\x01\x05\xb2\x03\x17\x01\x05\x16\x04\x17\x01\x05v\x04\x17\x01\x05\xde\x04\x17\x01\x05:\x05\x17\x01\x05\x9e\x05\x17\x01\x07\x15\x17\x01\t\x15\x17\x01\x0b\x15\x17\x01\r\x15\x17\x01\x0f\x19\x17\x01\x11\x15\x17\x01\x13\x15\x17\x01\x15\x15\x17\x01\x17\x1d\x17\x01\x19\x15\x17\x01\x1b\x15\x17\x01\x1d\x15\x17\x01\x1f\x1d\x17\x01!\x17\x17\x01#\x17\x17\x01%\x1d\x17\x01\'\x17\x17\x01)\x17\x17\x01+\x1d\x17\x01-\x17\x17\x01/\x17\x17\x011\x17\x17\x013\x17\x17\x015\x17\x17\x017\x17\x17\x019\x17\x17\x01;\x17\x17\x01=\x17\x17\x01?\x1d\x17\x01A\x1d\x1f/\x01#-\x1dA\x1f!\x11\x00\x00\x00\x00\x00\x00\x00\x00\x1f\x03\t\x00\x00\x00\x00\x1f!\x11\x01\x00\x00\x00\x00\x00\x00\x00)\x01\x01\x01\xfd\x1f\x03\t\x00\x00\x80?\x03\x05\xa9\xa9\x1f\x03\tfff?\x1f\x03\tw\xbe\x7f?\x1f\x03\t\xcd\xcc\xcc=\x1f\x03\to\x12\x83:\x1f\x03\tw\xcc+2\x1f\x03\t\n\xd7#\xbc\x03\x01\x1f%!\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x1f\x03\t\x00\x00\x00?\x1f\x03\t\x00\x00\x00@\x1dC\x17\x01\x1f\x03\t\xf3\x045?\x1f\x03\t\x00\x00@G\x07\x0b\x1f\x03\t\x00\x00\xa0A\x1f%!\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x1f\x0f\t\xff\xff\xff\x7f#)\x03\x1d\xbb\xbf\xc3\xc7\xcb\xcf\xd3\xd7\xdb\xdf\xe3\xe7\xeb\xef\r\x03\x85\xbd\x1dE\r\x03\x85\xc1\x1dG\r\x03\x85\xc5\x1dI\r\x03\x85\xc9\x1dK\r\x03\x85\xcd\x1dM\r\x03\x85\xd1\x1dO\r\x03\x85\xd5\x1dQ\r\x03\x85\xd9\x1dS\r\x03\x85\xdd\x1dU\r\x03\x85\xe1\x1dW\r\x03\x85\xe5\x1dY\r\x03\x85\xe9\x1d[\r\x03\x85\xed\x1d]\r\x03\x85\xf1\x1d_\x1da\x1dc#+\x1de\x1f\x03\t\x00\x00(A\'\x01\x1f\x03\tv\x03\x00?\x1f\x03\t\x85\xac*>\x1f\x03\t\xd5m\x10?\x1f\x03\t\xe6\x8e\x90?\x1f\x03\t\xc8D\xf9?\x1f\x03\t$\xf1M@\x1f\x03\t.\x845\xbf\x1f\x03\t\x8ct\x8aA\x1f\x03\t\xefzu\xc2\x1f\x03\t\xd2\x83\x8fB\x1f\x03\t\xe1\xe6\xed\xc1\t\x03\x1f\x03\t\x00\x000A\x1f\x0f\t\x00\xf0\xff\xff)\x01\x01\x01:\x02\'\x03\x1f\x03\t\xab\xaa*>\x1f\x03\t\xab\xaa*=\x1f\x03\t\x89\x88\x08<\x1f\x03\t\xbbn\x90\xbf\t\x07\x1f\x0f\t\x01\x00\x00\x00\x17\x01C\x1d\x17\x01E\x17\x17\x01G\x17\x17\x01I\x17\x17\x01K\x17\x17\x01M\x17\x17\x01O\x17\x17\x01Q\x1d\x17\x01S\x17\x17\x01U\x17\x17\x01W\x1d\x17\x01Y\x17\x17\x01[\x17\x17\x01]\x1d\x17\x01_\x1f\x17\x01a\x1f\x17\x01c\x1f\x17\x01e\x1f\x17\x01g\x1f\x17\x01i\x1f\x17\x01k\x1f\x17\x01m\x1f\x17\x01o\x17\x17\x01q\x17\x17\x01s\x17\x17\x01u\x17\x17\x01w\x17\x17\x01y\x17\x17\x01{\x17\x17\x01}\x17\x17\x01\x7f\x17\x17\x01\x81\x17\x17\x01\x83\x17\x17\x01\x85\x17\x17\x01\x87\x17\x17\x01\x89\x17\x17\x01\x8b\x17\x17\x01\x8d\x17\x17\x01\x8f\x17\x17\x01\x91\x17\x17\x01\x93\x17\x17\x01\x95\x17\x17\x01\x97\x17\x17\x01\x99\x1f\x17\x01\x9b\x17\x17\x01\x9d\x17\x17\x01\x9f\x1f\x17\x01\xa1\x17\x17\x01\xa3\x17\x17\x01\xa5\x17\x17\x01\xa7\x17\x17\x01\xa9\x1f\x17\x01\xab\x17\x17\x01\xad\x17\x17\x01\xaf\x17\x17\x01\xb1\x15\x17\x01\xb3\x17\x17\x01\xb5\x17\x17\x01\xb7\x17\x17\x01\xb9\x17\x17\x01\xbb\x17\x17\x01\xbd\x17\x17\x01\xbf\x17\x17\x01\xc1\x17\x17\x01\xc3\x17\x17\x01\xc5\x17\x17\x01\xc7\x17\x17\x01\xc9\x1f\x17\x01\xcb\x1f\x17\x01\xcd\x1f\x17\x01\xcf\x1f\x17\x01\xd1\x1f\x17\x01\xd3\x17\x17\x01\xd5\x17\x17\x01\xd7\x17\x17\x01\xd9\x17\x17\x01\xdb\x17\x17\x01\xdd\x17\x17\x01\xdf\x17\x17\x01\xe1\x17\x17\x01\xe3\x17\x17\x01\xe5\x17\x17\x01\xe7\x17\x17\x01\xe9\x17\x17\x01\xeb\x17\x17\x01\xed\x17\x17\x01\xef\x17\x17\x01\xf1\x17\x17\x01\xf3\x17\x17\x01\xf5\x17\x17\x01\xf7\x17\x17\x01\xf9\x1f\x17\x01\xfb\x17\x17\x01\xfd\x17\x17\x01\xff\x1f\x17\x01\x06\x02\x1f\x17\x01\n\x02\x17\x17\x01\x0e\x02\x1f\x17\x01\x12\x02\x1f\x17\x01\x16\x02\x17\x17\x01\x1a\x02\x17\x17\x01\x1e\x02\x17\x17\x01"\x02\x1f\x17\x01*\x02\x19\x17\x01.\x02\x1f\x17\x016\x02\x19\x17\x01:\x02\x19\x17\x01>\x02\x19\x17\x01B\x02\x19\x17\x01F\x02\x19\x17\x01J\x02\x1f\x17\x01N\x02\x19\x17\x01R\x02\x19\x17\x01V\x02\x19\x17\x01Z\x02\x1f\x17\x01^\x02\x19\x17\x01b\x02\x19\x17\x01f\x02\x19\x17\x01j\x02\x1f\x17\x01n\x02\x19\x17\x01r\x02\x19\x17\x01v\x02\x19\x17\x01z\x02\x1f\x17\x01\x82\x02\x19\x17\x01\x86\x02\x1f\x17\x01\x8e\x02\x19\x17\x01\x92\x02\x19\x17\x01\x96\x02\x1f\x17\x01\x9a\x02\x19\x17\x01\x9e\x02\x19\x17\x01\xa2\x02\x1f\x17\x01\xa6\x02\x19\x17\x01\xaa\x02\x19\x17\x01\xae\x02\x19\x17\x01\xb2\x02\x1f\x17\x01\xb6\x02\x19\x17\x01\xba\x02\x19\x17\x01\xbe\x02\x1f\x17\x01\xc2\x02\x19\x17\x01\xc6\x02\x19\x17\x01\xca\x02\x19\x17\x01\xce\x02\x1f\x17\x01\xd2\x02\x19\x17\x01\xd6\x02\x19\x17\x01\xda\x02\x1f\x17\x01\xde\x02\x19\x17\x01\xe2\x02\x19\x17\x01\xe6\x02\x19\x17\x01\xea\x02\x1f\x17\x01\xee\x02\x19\x17\x01\xf2\x02\x19\x17\x01\xf6\x02\x1f\x17\x01\xfa\x02\x19\x17\x01\xfe\x02\x19\x17\x01\x02\x03\x19\x17\x01\x06\x03\x19\x17\x01\n\x03\x1f\x17\x01\x0e\x03\x19\x17\x01\x12\x03\x19\x17\x01\x16\x03\x1f\x17\x01\x1a\x03\x19\x17\x01\x1e\x03\x19\x17\x01"\x03\x19\x17\x01&\x03\x19\x17\x01*\x03\x1f\x17\x01.\x03\x19\x17\x012\x03\x19\x17\x016\x03\x1f\x17\x01:\x03\x19\x17\x01>\x03\x19\x17\x01B\x03\x19\x17\x01F\x03\x19\x17\x01J\x03\x1f\x17\x01N\x03\x19\x17\x01R\x03\x19\x17\x01V\x03\x1f\x17\x01Z\x03\x19\x17\x01^\x03\x19\x17\x01b\x03\x19\x17\x01f\x03\x19\x17\x01j\x03\x1f\x17\x01n\x03\x19\x17\x01r\x03\x19\x17\x01v\x03\x1f\x17\x01z\x03\x19\x17\x01~\x03\x19\x17\x01\x82\x03\x19\x17\x01\x86\x03\x1b\x17\x01\x8a\x03\x19\x17\x01\x8e\x03\x1b\x17\x01\x92\x03\x19\x17\x01\x96\x03\x1b\x17\x01\x9a\x03\x19\x17\x01\x9e\x03\x1f\x17\x01\xa2\x03\x19\x17\x01\xa6\x03\x19\x17\x01\xaa\x03\x1f\x17\x01\xae\x03\x19\x17\x01\xb2\x03\x19\x17\x01\xb6\x03\x19\x17\x01\xba\x03\x19\x17\x01\xbe\x03\x19\x17\x01\xc2\x03\x19\x17\x01\xc6\x03\x19\x17\x01\xca\x03\x19\x17\x01\xce\x03\x19\x17\x01\xd2\x03\x1f\x17\x01\xd6\x03\x19\x17\x01\xda\x03\x19\x17\x01\xde\x03\x1f\x17\x01\xe2\x03\x19\x17\x01\xe6\x03\x19\x17\x01\xea\x03\x19\x17\x01\xee\x03\x19\x17\x01\xf2\x03\x19\x17\x01\xf6\x03\x19\x17\x01\xfa\x03\x19\x17\x01\xfe\x03\x19\x17\x01\x02\x04\x19\x17\x01\x06\x04\x1f\x17\x01\n\x04\x19\x17\x01\x0e\x04\x19\x17\x01\x12\x04\x19\x17\x01\x16\x04\x1f\x17\x01\x1a\x04\x19\x17\x01\x1e\x04\x19\x17\x01"\x04\x19\x17\x01&\x04\x1f\x17\x01*\x04\x19\x17\x01.\x04\x19\x17\x012\x04\x19\x17\x016\x04\x1f\x17\x01:\x04\x19\x17\x01>\x04\x19\x17\x01B\x04\x19\x17\x01F\x04\x1f\x17\x01J\x04\x19\x17\x01N\x04\x19\x17\x01R\x04\x19\x17\x01V\x04\x1f\x17\x01Z\x04\x19\x17\x01^\x04\x19\x17\x01b\x04\x19\x17\x01f\x04\x1f\x17\x01j\x04\x19\x17\x01n\x04\x19\x17\x01r\x04\x19\x17\x01v\x04\x1f\x17\x01z\x04\x19\x17\x01~\x04\x19\x17\x01\x82\x04\x19\x17\x01\x86\x04\x1f\x17\x01\x8a\x04\x19\x17\x01\x8e\x04\x19\x17\x01\x92\x04\x1f\x17\x01\x96\x04\x19\x17\x01\x9a\x04\x19\x17\x01\x9e\x04\x1f\x17\x01\xa2\x04\x19\x17\x01\xa6\x04\x19\x17\x01\xaa\x04\x1f\x17\x01\xae\x04\x19\x17\x01\xb2\x04\x19\x17\x01\xb6\x04\x19\x17\x01\xba\x04\x19\x17\x01\xbe\x04\x19\x17\x01\xc2\x04\x19\x17\x01\xc6\x04\x0b\x01\x02\x02)\x01\x11)\x05\x15A\x11)\x03A\x11)\x03\x11\x11)\x05!A\x11)\x05A\x11\x11)\x01\x1b\t)\x05\x15\x11\x11)\x01\x1f\x1d)\x05\x15A\x1b\x1b)\x05\x15!\x11\x01)\x03\x05\x17)\x05\x05A\x11)\x03\t\x17)\x05\x05\x11\x11\x11\x1f\x0b\x07\r\t\x0f\x0b\x07\r\t\x0b\x07\r\t\x1d\x13\x1d\x0b\x07\r\t\x0f\x0b\x07\r\t\x0b\x07\r\t\x03\x11\x07\x15\x0f\x0f\x03\x0fC)\x03\x01\x17)\x05\x15A\x1f)\x05\x11A\x11)\x05A!\x11\x04\xea.\x05\x01Q\x17\x0f\x01\x07\x04\xc2.\x03\x01\t\x1dP\x19\x03\x07\x04\x16.\x03\xf6\x04~\t\x1f\x17\'\x0f)\x1b+\x13-\x1f/\x171\x0f3\x1b5\x137\x179\x0f;\x1b=\x13?;A\'C\x00\x15FE\x05\x03\x05\x05\x1b\x01\x05FG\x07\x03#\x03\x03\x05FI\t\x03\x05\x03!\t\x06K\x03\x05\x05\x1f#\x03BM\x0b\x03\x03\x05FO\r\x03\x05\x03\'\x07\x06Q\x03\x05\x05)%\x13\x06S\x03\x05\x03%\x03BU\x0f\x03\x03\x05FW\r\x03\x05\x03/\x07\x06Y\x03\x05\x05-1!\x06[\x03\x05\x033\x03B]\x11\x03\x03\x05F_\r\x03\x05\x037#\x06a\x03\x05\x0559\x03Bc\x13\x03\x03\x05Fe\r\x03\x05\x03=\t\x06g\x03\x05\x05;?\x03Bi\x13\x03\x03\x05Fk\r\x03\x05\x03C\x11\x06m\x03\x05\x05AE\x11\x06o\x03\x05\x05;G\x07\x06q\x03\x05\x05GG\t\x06s\x03\x05\x05;G\x07\x06u\x03\x05\x05IM\x13\x06w\x03\x05\x03K\x1bFy\x15\x03\x05\x03Q\x13\x06{\x03\x05\x03O\x03B}\x17\x03\x03\x03B\x7f\x19\x03\x03\x03BV\x02\x1b\x03\x03\x05FZ\x02\r\x03\x05\x03[\x05F^\x02\r\x03\x05\x03Y\r\x06b\x02\x03\x05\x07]U_\x05Ff\x02\r\x03\x05\x03W\r\x06j\x02\x03\x05\x07aUc\x07\x06n\x02\x03\x05\x05Ue\x03Br\x02\x1d\x03\x03\x05Fv\x02\r\x03\x05\x03i\t\x06z\x02\x03\x05\x05;k\x03B~\x02\x17\x03\x03\x05F\x82\x02\r\x03\x05\x03o\x0b\x06\x86\x02\x03\x05\x05qm\x03B\x8a\x02\x1f\x03\x03\x03B\x8e\x02!\x03\x03\x03B\x92\x02#\x03\x03\x03B\x96\x02%\x03\x03\x03B\x9a\x02\'\x03\x03\x03B\x9e\x02)\x03\x03\x03B\xa2\x02+\x03\x03\x03B\xa6\x02-\x03\x03\x03B\xaa\x02/\x03\x03\x05F\xae\x02\r\x03\x05\x03\x85\x05F\xb2\x02\r\x03\x05\x03\x83\r\x06\xb6\x02\x03\x05\x07\x87s\x89\x05F\xba\x02\r\x03\x05\x03\x81\r\x06\xbe\x02\x03\x05\x07\x8bs\x8d\x05F\xc2\x02\r\x03\x05\x03\x7f\r\x06\xc6\x02\x03\x05\x07\x8fs\x91\x05F\xca\x02\r\x03\x05\x03}\r\x06\xce\x02\x03\x05\x07\x93s\x95\x05F\xd2\x02\r\x03\x05\x03{\r\x06\xd6\x02\x03\x05\x07\x97s\x99\x05F\xda\x02\r\x03\x05\x03y\r\x06\xde\x02\x03\x05\x07\x9bs\x9d\x05F\xe2\x02\r\x03\x05\x03w\r\x06\xe6\x02\x03\x05\x07\x9fs\xa1\x05F\xea\x02\r\x03\x05\x03u\r\x06\xee\x02\x03\x05\x07\xa3s\xa5\x07\x06\xf2\x02\x03\x05\x05s\xa7\x07\x06\xf6\x02\x03\x05\x05\xa9g\t\x06\xfa\x02\x03\x05\x05\xa9\xab\x07\x06\xfe\x02\x03\x05\x05S\xad\x03B\x02\x031\x03\x03\x05F\x06\x03\r\x03\x05\x03\xb1%F\n\x033\x031\x053\xb3\x03B\x0e\x03\x1d\x03\x03\x05F\x12\x03\r\x03\x05\x03\xb7\x11\x06\x16\x03\x03\x05\x05\xb9\xaf\x1f\x06\x1a\x03\x03\x05\x07\xb5\xbb\xaf!\x06\x1e\x03\x03\x05\x033\x03B"\x035\x03\x03\x05F&\x03\r\x03\x05\x03\xc1#\x06*\x03\x03\x05\x05\xbf\xc3\'\x06.\x03\x03\x19\x03\xc5\x03B2\x037\x03\x0f\x05F6\x03\r\x03\x19\x03\xc91\x06:\x03\x03\x19\x05\xc7\xcb\'\x06>\x03\x03\x05\x03\xcd\x11\x06B\x03\x03\x05\x05\xc5\xcf\x07\x06F\x03\x03\x05\x05\xcf\xcf\t\x06J\x03\x03\x05\x05\xc5\xcf\x07\x06N\x03\x03\x05\x05\xd1\xd5\x13\x06R\x03\x03\x05\x03\xd3\x1bFV\x03\x15\x03\x05\x03\xd9\x1bFZ\x039\x03\x05\x03\xd9\x13\x06^\x03\x03\x05\x03\xd7\x03Bb\x03\x17\x03\x03\x03Bf\x03\x0b\x03\x03\x03Bj\x03;\x03\x03\x03Bn\x03=\x03\x03\x03Br\x03?\x03\x03\x05Fv\x03\r\x03\x05\x03\xe9\x05Fz\x03\r\x03\x05\x03\xe7\r\x06~\x03\x03\x05\x07\xeb\xdf\xed\x05F\x82\x03\r\x03\x05\x03\xe5\r\x06\x86\x03\x03\x05\x07\xef\xdf\xf1\x05F\x8a\x03\r\x03\x05\x03\xe3\r\x06\x8e\x03\x03\x05\x07\xf3\xdf\xf5\x05F\x92\x03\r\x03\x05\x03\xe1\r\x06\x96\x03\x03\x05\x07\xf7\xdf\xf9\x07\x06\x9a\x03\x03\x05\x05\xdf\xfb\x07\x06\x9e\x03\x03\x05\x05\xdd\xfd\t\x06\xa2\x03\x03\x05\x05\xdd\xff\x07\x06\xa6\x03\x03\x05\x05+\xbd\x15F\xaa\x03\x05\x03\x13\x05\x06\x02\x05\x05F\xae\x03\x07\x03\'\x03\x07\x05F\xb2\x03\t\x03\x13\x03\x0e\x02\t\x06\xb6\x03\x03\x13\x05\n\x02\x12\x02\x11\x06\xba\x03\x03\x13\x05\x16\x02\x1d\x07\x06\xbe\x03\x03\x13\x05\x1a\x02\x1a\x02\x03B\xc2\x03\x1d\x03\x03\x05F\xc6\x03\r\x03\x13\x03"\x02\x07\x06\xca\x03\x03\x13\x05&\x02\x1a\x02\x03B\xce\x031\x03\x03\x17V\x03\t\x03\x03\x05\x1e\x02.\x02\x07\x04-\x03\x07\x0b\x05\x07\x03\x07\x03\x00\t\x06\x03\x03\x03\x05\x01\x03\x0f\x04\x03\x03\x05\x03B\xd2\x03A\x03\x03\x0b\x06\xd6\x03\x03\x03\x052\x026\x02\x03B\xda\x03\x17\x03\x03\x03B\xde\x03A\x03\x03\x0b\x06\xe2\x03\x03\x03\x05>\x02B\x02\x05F\xe6\x03\r\x03\x13\x03F\x02\x07\x06\xea\x03\x03\x13\x05J\x02*\x02\x03B\xee\x031\x03\x03\x17V\x05C\x03\t\x05N\x02R\x02\x07\x04-\x03\x07\x0b\x05\x07\x05\x07\x05\x00\t\x06\x05\x03\x03\x05\x01\x03\x0f\x04\x05\x03\x05)\x06\xf2\x03\x03\'\x03V\x02\x03B\xf6\x031\x03\x03\x17V\x07C\x03\t\x05Z\x02^\x02\x07\x04-\x03\x07\x0b\x05\x07\x07\x07\x07\x00\t\x06\x07\x03\x03\x05\x01\x03\x0f\x04\x07\x03\x05\x15F\xfa\x03E\x033\x05N\x02\x06\x02+F\xfe\x03G\x03\r\x03f\x02\x15F\x02\x04I\x03\x05\x05N\x02\x05\x07\x06\x06\x04\x03\x05\x05+n\x02\x07\x06\n\x04\x03\x05\x05n\x02\xbd\x03B\x0e\x04K\x03\x03\x05F\x12\x04\r\x03\x05\x03z\x02\x07\x06\x16\x04\x03\x05\x05~\x02r\x02\x07\x06\x1a\x04\x03\x05\x05\x82\x02\x02\x02\x03B\x1e\x04\x0f\x03\x03\x05F"\x04\r\x03\x05\x03\x8a\x02\x07\x06&\x04\x03\x05\x05\x86\x02\x8e\x02\x13\x06*\x04\x03\x05\x03\x92\x02\x03B.\x04\x0b\x03\x03\x05F2\x04\r\x03\x05\x03\x9a\x02\x07\x066\x04\x03\x05\x05\x9e\x02v\x02\t\x06:\x04\x03\x05\x05\x96\x02\xa2\x02\x03B>\x041\x03\x03\x17V\tC\x03\x07\x05\xa6\x02\xaa\x02\x07\x04-\x03\x07\x0b\x05\x07\t\x07\t\x00\t\x06\t\x03\x03\x05\x01\x03\x0f\x04\t\x03\x05)\x06B\x04\x03#\x03\xae\x02\x03BF\x041\x03\x03\x17V\x0bC\x03\x07\x05\xb2\x02\xb6\x02\x07\x04-\x03\x07\x0b\x05\x07\x0b\x07\x0b\x00\t\x06\x0b\x03\x03\x05\x01\x03\x0f\x04\x0b\x03\x05\x15FJ\x04E\x035\x05\xa6\x02\x1b+FN\x04G\x03\x0b\x03\xbe\x02\x03BR\x04M\x03\x03\x05FV\x04\r\x03\x0b\x03\xc6\x02\x07\x06Z\x04\x03\x0b\x05\xca\x02\xc2\x02\x03B^\x04O\x03\x03\x05Fb\x04\r\x03\x0b\x03\xd2\x02\x07\x06f\x04\x03\x0b\x05\xd6\x02\x0b\t\x06j\x04\x03\x0b\x05\xce\x02\xda\x02\x03Bn\x04M\x03\x03\x05Fr\x04\r\x03\x07\x03\xe2\x02\x07\x06v\x04\x03\x07\x05\xe6\x02\xba\x02\x03Bz\x04O\x03\x03\x05F~\x04\r\x03\x07\x03\xee\x02\x07\x06\x82\x04\x03\x07\x05\xf2\x02\r\t\x06\x86\x04\x03\x07\x05\xea\x02\xf6\x02\x03B\x8a\x04M\x03\x03\x05F\x8e\x04\r\x03\r\x03\xfe\x02\x07\x06\x92\x04\x03\r\x05\x02\x03j\x02\x03B\x96\x04O\x03\x03\x05F\x9a\x04\r\x03\r\x03\n\x03\x07\x06\x9e\x04\x03\r\x05\x0e\x03\x0f\t\x06\xa2\x04\x03\r\x05\x06\x03\x12\x03\x03B\xa6\x04M\x03\x03\x05F\xaa\x04\r\x03\t\x03\x1a\x03\x07\x06\xae\x04\x03\t\x05\x1e\x03b\x02\x03B\xb2\x04O\x03\x03\x05F\xb6\x04\r\x03\t\x03&\x03\x07\x06\xba\x04\x03\t\x05*\x03\x11\t\x06\xbe\x04\x03\t\x05"\x03.\x03\x07\x06\xc2\x04\x03\x0b\x05\xc2\x02\xc2\x02\x03B\xc6\x04Q\x03\x03\x05F\xca\x04\r\x03\x0b\x03:\x03\x07\x06\xce\x04\x03\x0b\x05>\x036\x03\x03B\xd2\x04S\x03\x03\x05F\xd6\x04\r\x03\x0b\x03F\x03\x07\x06\xda\x04\x03\x0b\x05J\x03\x13\t\x06\xde\x04\x03\x0b\x05B\x03N\x03\x07\x06\xe2\x04\x03\x07\x05\xba\x02\xba\x02\x03B\xe6\x04Q\x03\x03\x05F\xea\x04\r\x03\x07\x03Z\x03\x07\x06\xee\x04\x03\x07\x05^\x03V\x03\x03B\xf2\x04S\x03\x03\x05F\xf6\x04\r\x03\x07\x03f\x03\x07\x06\xfa\x04\x03\x07\x05j\x03\x15\t\x06\xfe\x04\x03\x07\x05b\x03n\x03\x07\x06\x02\x05\x03\r\x05j\x02j\x02\x03B\x06\x05Q\x03\x03\x05F\n\x05\r\x03\r\x03z\x03\x07\x06\x0e\x05\x03\r\x05~\x03v\x03\x03B\x12\x05S\x03\x03\x05F\x16\x05\r\x03\r\x03\x86\x03\x07\x06\x1a\x05\x03\r\x05\x8a\x03\x17\t\x06\x1e\x05\x03\r\x05\x82\x03\x8e\x03\x07\x06"\x05\x03\t\x05b\x02b\x02\x03B&\x05Q\x03\x03\x05F*\x05\r\x03\t\x03\x9a\x03\x07\x06.\x05\x03\t\x05\x9e\x03\x96\x03\x03B2\x05S\x03\x03\x05F6\x05\r\x03\t\x03\xa6\x03\x07\x06:\x05\x03\t\x05\xaa\x03\x19\t\x06>\x05\x03\t\x05\xa2\x03\xae\x03\x03BB\x05U\x03\x0f%FF\x05W\x03\x15\x05\t\xb6\x03\x03BJ\x05Y\x03\x0f\t\x06N\x05\x03\x0f\x05\t\xbe\x03\x03BR\x05U\x03\x0f3FV\x05[\x03\x0f\x07\xba\x03\xc2\x03\xc6\x03\x03BZ\x05O\x03\x03-\x06^\x05\x03\x03\x03\xca\x03/\x06b\x05\x03\x03\x05\xce\x03\xd2\x03\x03Bf\x05\x17\x03\x03\x11\x06j\x05\x03\x03\x05\xda\x03\xd6\x03\x05Fn\x05\r\x03\x0b\x03\xde\x03\x0b\x06r\x05\x03\x0b\x05\xde\x02\xe2\x03\x05Fv\x05\r\x03\x07\x03\xde\x03\x0b\x06z\x05\x03\x07\x05\xfa\x02\xea\x03\x05F~\x05\r\x03\r\x03\xde\x03\x0b\x06\x82\x05\x03\r\x05\x16\x03\xf2\x03\x05F\x86\x05\r\x03\t\x03\xde\x03\x0b\x06\x8a\x05\x03\t\x052\x03\xfa\x03\x03B\x8e\x05S\x03\x03-\x06\x92\x05\x03\x03\x03\xca\x03/\x06\x96\x05\x03\x03\x05\x02\x04\x06\x04\x03B\x9a\x05\x17\x03\x03\x11\x06\x9e\x05\x03\x03\x05\x0e\x04\n\x04\x05F\xa2\x05\r\x03\x0b\x03\x12\x04\x0b\x06\xa6\x05\x03\x0b\x05R\x03\x16\x04\x05F\xaa\x05\r\x03\x07\x03\x12\x04\x0b\x06\xae\x05\x03\x07\x05r\x03\x1e\x04\x05F\xb2\x05\r\x03\r\x03\x12\x04\x0b\x06\xb6\x05\x03\r\x05\x92\x03&\x04\x05F\xba\x05\r\x03\t\x03\x12\x04\x0b\x06\xbe\x05\x03\t\x05\xb2\x03.\x04\x03B\xc2\x051\x03\x03\x05F\xc6\x05\r\x03\x0b\x036\x04\t\x06\xca\x05\x03\x0b\x05\x1a\x04:\x04\x19F\xce\x05\x15\x03\x0b\x03>\x04\x03B\xd2\x05]\x03\x03\x05F\xd6\x05\r\x03\x0b\x03F\x04\t\x06\xda\x05\x03\x0b\x05B\x04J\x04\x0b\x06\xde\x05\x03\x0b\x05\xe6\x03N\x04\x03B\xe2\x051\x03\x03\x05F\xe6\x05\r\x03\x07\x03V\x04\t\x06\xea\x05\x03\x07\x05"\x04Z\x04\x19F\xee\x05\x15\x03\x07\x03^\x04\x03B\xf2\x05]\x03\x03\x05F\xf6\x05\r\x03\x07\x03f\x04\t\x06\xfa\x05\x03\x07\x05b\x04j\x04\x0b\x06\xfe\x05\x03\x07\x05\xee\x03n\x04\x03B\x02\x061\x03\x03\x05F\x06\x06\r\x03\r\x03v\x04\t\x06\n\x06\x03\r\x05*\x04z\x04\x19F\x0e\x06\x15\x03\r\x03~\x04\x03B\x12\x06]\x03\x03\x05F\x16\x06\r\x03\r\x03\x86\x04\t\x06\x1a\x06\x03\r\x05\x82\x04\x8a\x04\x0b\x06\x1e\x06\x03\r\x05\xf6\x03\x8e\x04\x03B"\x061\x03\x03\x05F&\x06\r\x03\t\x03\x96\x04\t\x06*\x06\x03\t\x052\x04\x9a\x04\x19F.\x06\x15\x03\t\x03\x9e\x04\x03B2\x06]\x03\x03\x05F6\x06\r\x03\t\x03\xa6\x04\t\x06:\x06\x03\t\x05\xa2\x04\xaa\x04\x0b\x06>\x06\x03\t\x05\xfe\x03\xae\x04\x03BB\x06_\x03\x03\x05FF\x06\r\x03\x0b\x03\xb6\x04\x07\x06J\x06\x03\x0b\x05\xba\x04R\x04\x03BN\x06_\x03\x03\x05FR\x06\r\x03\x07\x03\xc2\x04\x07\x06V\x06\x03\x07\x05\xc6\x04r\x04\x03BZ\x06_\x03\x03\x05F^\x06\r\x03\r\x03\xce\x04\x07\x06b\x06\x03\r\x05\xd2\x04\x92\x04\x03Bf\x06_\x03\x03\x05Fj\x06\r\x03\t\x03\xda\x04\x07\x06n\x06\x03\t\x05\xde\x04\xb2\x04\t\x06r\x06\x03\x0b\x05\x01\xbe\x04\t\x06v\x06\x03\x07\x05\x03\xca\x04\t\x06z\x06\x03\r\x05\x05\xd6\x04\t\x06~\x06\x03\t\x05\x07\xe2\x04\x0f\x04\x82\x06\x1d\xe6\x04\xea\x04\xee\x04\xf2\x04\xca\x03\xde\x02\xfa\x02\x16\x032\x03R\x03r\x03\x92\x03\xb2\x03:\x02\x1dP\x1ba\x07\x043\x03\t\x0b\x07+\x1d\x1f\x1f\x1f!\x00\x1f\x06#\x03\x0f\x07\x01\x03\x05\x0f\x04%\x03\x07\x06\x03\x01\x05\x01\x00\n\x0bg\x11\x0f\x0b\x15--------\'!!!!\x0f!\x13%)\x05\x11\x0f\x13\x17\x1b\x17\'\x17\x17\x0f\x15\x11\x1f\x11\x15\x1f\x15\x19\x15\x0f\x15\x0f\x19)\x19\x0f\x0b\x11builtin\x00vhlo\x00module\x00constant_v1\x00broadcast_in_dim_v1\x00multiply_v1\x00add_v1\x00divide_v1\x00fma_v1\x00return_v1\x00subtract_v1\x00negate_v1\x00dot_general_v2\x00reduce_v1\x00sqrt_v2\x00exponential_v2\x00func_v1\x00select_v1\x00abs_v1\x00minimum_v1\x00compare_v1\x00bitcast_convert_v1\x00reshape_v1\x00transpose_v1\x00convert_v1\x00power_v1\x00and_v1\x00call_v1\x00-\x00mhlo.num_partitions\x00mhlo.num_replicas\x00jit_step\x00jax.result_info\x00_where\x00result[0][0][0]\x00result[0][0][1]\x00result[0][1][0]\x00result[0][1][1]\x00result[1][0].count\x00result[1][0].mu[0][0]\x00result[1][0].mu[0][1]\x00result[1][0].mu[1][0]\x00result[1][0].mu[1][1]\x00result[1][0].nu[0][0]\x00result[1][0].nu[0][1]\x00result[1][0].nu[1][0]\x00result[1][0].nu[1][1]\x00result[2]\x00main\x00public\x00private\x00\x08\x8e\x02c\x05+\x01\x0b\x9f\xb7\xb9\xf3\xf5\x19\x83\x83\x81\x83\x8b\x83\x83\x91\x81\x83\x87\x83\x03\x8b\x03\xa1\x03\xa3\x03\x81\x03\xab\x03\xfb\x03\xad\x03\x8d\x03\x8f\x03\xff\x05\x02\x02\x03\xa5\x05\x06\x02\x05\n\x02\x05\x0e\x02\x05\x12\x02\x05\x16\x02\x05\x1a\x02\x05\x1e\x02\x05"\x02\x05&\x02\x03\x89\x07*\x02\xaf\x05.\x02\x052\x02\x056\x02\x05>\x02\x05B\x02\x05F\x02\x03\xb1\x03\x87\x19\x83\x83\x81\x83\x87\x83\x83\x91\x81\x83\x87\x83\x03\xb3\x19\x83\x83\x81\x83\x8b\x83\x83\x91\x81\x83\x8b\x83\x05J\x02\x03\x97\x03\x93\x03\x99\x03\x95\x03\xb5\x07N\x02\xaf\x05R\x02\x03\xa7\x03\x9b\x03\x9d\x0b\x9f\xf7\x9f\xa7\xf9',
)
