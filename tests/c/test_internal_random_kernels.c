/* Random kernels: Philox results equal values recorded from TensorFlow
 * 2.21 (stateless V2 ops per dtype, key/counter derivation, the first call
 * of seeded stateful ops), reproducibility, independence from the thread
 * count, per-kernel generator state, distribution moments, and errors. */
#include <math.h>
#include <stdlib.h>

#include "kernel_test_util.h"

static TF_Status* S;
static tfe_attrs A;
static TF_Tensor* OUT[KT_MAX_IO];

static void begin(void) {
  if (S == NULL) S = TF_NewStatus();
  tfe_attrs_destroy(&A);
  tfe_attrs_init(&A);
}

static void free_outs(int n) {
  int i;
  for (i = 0; i < n; i++) {
    TF_DeleteTensor(OUT[i]);
    OUT[i] = NULL;
  }
}

static TF_Tensor* u64vec(int n, const uint64_t* v) {
  int64_t d = n;
  TF_Tensor* t = TF_AllocateTensor(TF_UINT64, &d, 1, (size_t)n * 8);
  memcpy(TF_TensorData(t), v, (size_t)n * 8);
  return t;
}

static int stateless(const char* op, TF_DataType dt, int64_t n, uint64_t key,
                     uint64_t c0, uint64_t c1, int alg) {
  TF_Tensor* in[4];
  uint64_t ctr[2] = {c0, c1};
  double nd = (double)n;
  in[0] = kt_vec(TF_INT32, 1, &nd);
  in[1] = u64vec(1, &key);
  in[2] = u64vec(2, ctr);
  in[3] = kt_scalar(TF_INT32, alg);
  kt_attr_type(&A, "dtype", dt);
  return kt_run(op, &A, in, 4, OUT, S);
}

TEST(stateless_v2_matches_tensorflow) {
  /* key [12345], counter [7, 9], alg 1, shape [7] */
  struct {
    TF_DataType dt;
    double tol;
    double u[7], n[7];
  } cases[] = {
      {TF_FLOAT, 1e-7,
       {0.8590912818908691, 0.940301775932312, 0.5494134426116943,
        0.958128809928894, 0.8936493396759033, 0.17506277561187744,
        0.2940185070037842},
       {-0.2019178867340088, 0.5128248333930969, -0.2846210300922394,
        1.0567870140075684, 0.4226170778274536, 0.2151242345571518,
        -0.9167478680610657}},
      {TF_DOUBLE, 1e-15,
       {0.872731160261299, 0.3953081182355598, 0.14919537524704407,
        0.3521487891667143, 0.5652353988364438, 0.5851964042496227,
        0.9879054591336771},
       {0.31900449836248806, -0.41290624815005633, 1.562477761586262,
        -1.1677587173477337, -0.5448862346161486, -0.9187627497435571,
        0.14746940049823135}},
      {TF_HALF, 0,
       {0.67578125, 0.9521484375, 0.794921875, 0.9912109375, 0.775390625,
        0.1142578125, 0.599609375},
       {-0.201904296875, 0.5126953125, -0.28466796875, 1.056640625,
        0.422607421875, 0.215087890625, -0.91650390625}},
      {TF_BFLOAT16, 0,
       {0.40625, 0.6171875, 0.359375, 0.9296875, 0.203125, 0.9140625,
        0.796875},
       {-0.2021484375, 0.51171875, -0.28515625, 1.0546875, 0.421875,
        0.21484375, -0.91796875}},
  };
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int alg;
    for (alg = 1; alg <= 3; alg += 2) { /* Philox and auto-select */
      begin();
      CHECK_EQ_INT(stateless("StatelessRandomUniformV2", cases[i].dt, 7, 12345, 7, 9, alg), 1);
      KT_CHECK_TOL(OUT[0], cases[i].dt, KT_DIMS(7), cases[i].u, cases[i].tol);
      free_outs(1);
      begin();
      CHECK_EQ_INT(stateless("StatelessRandomNormalV2", cases[i].dt, 7, 12345, 7, 9, alg), 1);
      KT_CHECK_TOL(OUT[0], cases[i].dt, KT_DIMS(7), cases[i].n,
                   cases[i].tol ? cases[i].tol * 8 : 0);
      free_outs(1);
    }
  }
}

TEST(key_counter_from_seed_matches_tensorflow) {
  TF_Tensor* in[1];
  begin();
  in[0] = kt_vec(TF_INT64, 2, KT_V(1, 2));
  CHECK_EQ_INT(kt_run("StatelessRandomGetKeyCounter", &A, in, 1, OUT, S), 2);
  CHECK(((uint64_t*)TF_TensorData(OUT[0]))[0] == 10413732777507651514ull);
  CHECK(((uint64_t*)TF_TensorData(OUT[1]))[0] == 0);
  CHECK(((uint64_t*)TF_TensorData(OUT[1]))[1] == 17830669156045600267ull);
  free_outs(2);
  begin();
  in[0] = kt_vec(TF_INT32, 2, KT_V(1, 2));
  CHECK_EQ_INT(kt_run("StatelessRandomGetKeyCounterAlg", &A, in, 1, OUT, S), 3);
  CHECK(((uint64_t*)TF_TensorData(OUT[0]))[0] == 10413732777507651514ull);
  CHECK_EQ_INT(*(int32_t*)TF_TensorData(OUT[2]), 1);
  free_outs(3);
  begin();
  CHECK_EQ_INT(kt_run("StatelessRandomGetAlg", &A, NULL, 0, OUT, S), 1);
  CHECK_EQ_INT(*(int32_t*)TF_TensorData(OUT[0]), 1);
  free_outs(1);
  /* tf.random.stateless_uniform([4], seed=[1, 2]) */
  begin();
  CHECK_EQ_INT(stateless("StatelessRandomUniformV2", TF_FLOAT, 4,
                         10413732777507651514ull, 0, 17830669156045600267ull, 1),
               1);
  KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(4),
               KT_V(0.8440604209899902, 0.19204533100128174,
                    0.9962232112884521, 0.16038739681243896),
               1e-7);
  free_outs(1);
  begin();
  in[0] = kt_vec(TF_INT64, 3, KT_V(1, 2, 3));
  CHECK_EQ_INT(kt_run("StatelessRandomGetKeyCounter", &A, in, 1, OUT, S), -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "seed must have shape [2], not [3]");
}

/* Runs a stateful op twice on one kernel instance (as the eager kernel
 * cache does) and returns both outputs. */
static void stateful_twice(const char* op, TF_DataType dt, int64_t n,
                           int64_t seed, int64_t seed2, TF_Tensor** first,
                           TF_Tensor** second) {
  const tfe_op_def* def;
  const tfe_kernel_reg* reg;
  void* state;
  int r;
  kt_setup();
  begin();
  kt_attr_type(&A, "dtype", dt);
  kt_attr_type(&A, "T", TF_INT32);
  kt_attr_int(&A, "seed", seed);
  kt_attr_int(&A, "seed2", seed2);
  def = tfe_op_lookup(op);
  CHECK(def != NULL);
  CHECK(tfe_op_def_complete_attrs(def, &A, S));
  reg = tfe_kernel_find(def, "CPU", &A, S);
  CHECK(reg != NULL && reg->create != NULL);
  state = reg->create(def, &A, reg->user_data, S);
  CHECK_CODE(S, TF_OK);
  for (r = 0; r < 2; r++) {
    tfe_kernel_context k;
    double nd = (double)n;
    TF_Tensor* shape = kt_vec(TF_INT32, 1, &nd);
    TF_Tensor* out[1] = {NULL};
    TF_DataType ot = dt;
    memset(&k, 0, sizeof k);
    k.op_def = def;
    k.attrs = &A;
    k.inputs = &shape;
    k.num_inputs = 1;
    k.outputs = out;
    k.num_outputs = 1;
    k.output_types = &ot;
    k.status = S;
    k.state = state;
    reg->compute(&k);
    CHECK_CODE(S, TF_OK);
    TF_DeleteTensor(shape);
    if (r == 0) {
      *first = out[0];
    } else {
      *second = out[0];
    }
  }
  reg->destroy(state, reg->user_data);
}

TEST(stateful_ops_match_tensorflow_first_call) {
  struct {
    const char* op;
    TF_DataType dt;
    double tol;
    double v[6];
  } cases[] = {
      {"RandomUniform", TF_FLOAT, 1e-7,
       {0.406396746635437, 0.8575996160507202, 0.05539584159851074,
        0.08587229251861572, 0.41215360164642334, 0.036630868911743164}},
      {"RandomStandardNormal", TF_FLOAT, 1e-6,
       {-1.0467792749404907, 0.8397045731544495, 1.235836386680603,
        2.0637853145599365, 0.3037427067756653, 1.2963250875473022}},
      {"TruncatedNormal", TF_FLOAT, 1e-6,
       {-1.0467792749404907, 0.8397045731544495, 1.235836386680603,
        0.3037427067756653, 0.38869091868400574, 1.236704707145691}},
      {"RandomUniform", TF_DOUBLE, 1e-15,
       {0.2511744980841868, 0.44316677020093853, 0.2972296290781924,
        0.2577066944684787, 0.9527181182843207, 0.8291687913947399}},
      {"RandomStandardNormal", TF_DOUBLE, 1e-14,
       {0.58105877128258, -1.557429113677359, 1.555896998265924,
        -0.07539950171215416, -0.27352397455564637, 0.14851612905214345}},
      {"TruncatedNormal", TF_DOUBLE, 1e-14,
       {0.58105877128258, -1.557429113677359, -1.1295845092323191,
        -0.5156530039692888, -1.1279218571369347, -0.558978533853913}},
      {"RandomUniform", TF_HALF, 0,
       {0.2021484375, 0.4560546875, 0.802734375, 0.4658203125, 0.3623046875,
        0.080078125}},
      {"RandomStandardNormal", TF_HALF, 0,
       {-1.046875, 0.83984375, 1.2353515625, 2.064453125, 0.3037109375,
        1.2958984375}},
      {"TruncatedNormal", TF_HALF, 0,
       {-1.046875, 0.83984375, 1.2353515625, 0.3037109375, 0.388671875,
        1.236328125}},
  };
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    TF_Tensor *a, *b;
    int64_t j;
    int same = 1;
    stateful_twice(cases[i].op, cases[i].dt, 6, 1, 2, &a, &b);
    KT_CHECK_TOL(a, cases[i].dt, KT_DIMS(6), cases[i].v, cases[i].tol);
    /* the second call continues the stream */
    for (j = 0; j < 6; j++) same &= kt_get(a, j) == kt_get(b, j);
    CHECK(!same);
    TF_DeleteTensor(a);
    TF_DeleteTensor(b);
  }
  /* two kernels with the same seeds start the same; seed 0/0 differ */
  {
    TF_Tensor *a1, *a2, *b1, *b2;
    stateful_twice("RandomUniform", TF_FLOAT, 16, 7, 0, &a1, &a2);
    stateful_twice("RandomUniform", TF_FLOAT, 16, 7, 0, &b1, &b2);
    CHECK(memcmp(TF_TensorData(a1), TF_TensorData(b1), 64) == 0);
    CHECK(memcmp(TF_TensorData(a2), TF_TensorData(b2), 64) == 0);
    TF_DeleteTensor(a1);
    TF_DeleteTensor(a2);
    TF_DeleteTensor(b1);
    TF_DeleteTensor(b2);
    stateful_twice("RandomUniform", TF_FLOAT, 16, 0, 0, &a1, &a2);
    stateful_twice("RandomUniform", TF_FLOAT, 16, 0, 0, &b1, &b2);
    CHECK(memcmp(TF_TensorData(a1), TF_TensorData(b1), 64) != 0);
    TF_DeleteTensor(a1);
    TF_DeleteTensor(a2);
    TF_DeleteTensor(b1);
    TF_DeleteTensor(b2);
  }
}

static void moments(const TF_Tensor* t, double* mean, double* var,
                    double* mn, double* mx) {
  int64_t n = kutil_num_elements(t), i;
  double s = 0, s2 = 0;
  *mn = INFINITY;
  *mx = -INFINITY;
  for (i = 0; i < n; i++) {
    double v = kt_get(t, i);
    s += v;
    s2 += v * v;
    if (v < *mn) *mn = v;
    if (v > *mx) *mx = v;
  }
  *mean = s / (double)n;
  *var = s2 / (double)n - *mean * *mean;
}

TEST(distribution_moments_and_thread_independence) {
  static const TF_DataType kTypes[] = {TF_FLOAT, TF_DOUBLE, TF_HALF,
                                       TF_BFLOAT16};
  const int64_t n = 200003; /* odd: a partial last group; several chunks */
  size_t t;
  for (t = 0; t < 4; t++) {
    double m, v, lo, hi;
    TF_Tensor *a, *b;
    begin();
    CHECK_EQ_INT(stateless("StatelessRandomUniformV2", kTypes[t], n, 99, 1, 2, 1), 1);
    moments(OUT[0], &m, &v, &lo, &hi);
    CHECK(fabs(m - 0.5) < 0.01 && fabs(v - 1.0 / 12) < 0.005);
    CHECK(lo >= 0 && hi < 1);
    free_outs(1);
    begin();
    CHECK_EQ_INT(stateless("StatelessRandomNormalV2", kTypes[t], n, 99, 1, 2, 1), 1);
    moments(OUT[0], &m, &v, &lo, &hi);
    CHECK(fabs(m) < 0.01 && fabs(v - 1.0) < 0.02);
    /* the first values equal those of a short (single-threaded) run */
    a = OUT[0];
    OUT[0] = NULL;
    begin();
    CHECK_EQ_INT(stateless("StatelessRandomNormalV2", kTypes[t], 9, 99, 1, 2, 1), 1);
    b = OUT[0];
    OUT[0] = NULL;
    CHECK(memcmp(TF_TensorData(a), TF_TensorData(b), 9 * kutil_esize(kTypes[t])) == 0);
    TF_DeleteTensor(a);
    TF_DeleteTensor(b);
    /* truncated normal: |x| < 2, variance of N(0,1) cut at 2 sigma */
    {
      TF_Tensor *x, *y;
      stateful_twice("TruncatedNormal", kTypes[t], n, 5, 6, &x, &y);
      moments(x, &m, &v, &lo, &hi);
      CHECK(fabs(m) < 0.01 && fabs(v - 0.7737) < 0.02);
      CHECK(lo > -2.0001 && hi < 2.0001);
      TF_DeleteTensor(x);
      TF_DeleteTensor(y);
    }
  }
}

TEST(random_errors) {
  TF_Tensor* in[4];
  uint64_t key[2] = {1, 2}, ctr[3] = {7, 8, 9};
  begin();
  CHECK_EQ_INT(stateless("StatelessRandomUniformV2", TF_FLOAT, 5, 1, 7, 9, 2), -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Unsupported algorithm id: 2");
  begin();
  in[0] = kt_vec(TF_INT32, 1, KT_V(5));
  in[1] = u64vec(2, key);
  in[2] = u64vec(2, ctr);
  in[3] = kt_scalar(TF_INT32, 1);
  kt_attr_type(&A, "dtype", TF_FLOAT);
  CHECK_EQ_INT(kt_run("StatelessRandomUniformV2", &A, in, 4, OUT, S), -1);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "key must have shape [1], not [2]. (Note that batched "
                     "keys are not supported yet.)");
  begin();
  in[0] = kt_vec(TF_INT32, 1, KT_V(5));
  in[1] = u64vec(1, key);
  in[2] = u64vec(1, ctr);
  in[3] = kt_scalar(TF_INT32, 1);
  kt_attr_type(&A, "dtype", TF_FLOAT);
  CHECK_EQ_INT(kt_run("StatelessRandomUniformV2", &A, in, 4, OUT, S), -1);
  CHECK_STR_CONTAINS(TF_Message(S), "counter must be a vector with length at least 2");
  begin();
  in[0] = kt_vec(TF_INT32, 1, KT_V(5));
  in[1] = u64vec(1, key);
  in[2] = u64vec(2, ctr);
  in[3] = kt_vec(TF_INT32, 1, KT_V(1));
  kt_attr_type(&A, "dtype", TF_FLOAT);
  CHECK_EQ_INT(kt_run("StatelessRandomUniformV2", &A, in, 4, OUT, S), -1);
  CHECK_STR_CONTAINS(TF_Message(S), "input 3 (0-based) must have shape [], not [1]");
  begin();
  in[0] = kt_vec(TF_INT32, 1, KT_V(-5));
  in[1] = u64vec(1, key);
  in[2] = u64vec(2, ctr);
  in[3] = kt_scalar(TF_INT32, 1);
  kt_attr_type(&A, "dtype", TF_FLOAT);
  CHECK_EQ_INT(kt_run("StatelessRandomUniformV2", &A, in, 4, OUT, S), -1);
  CHECK_STR_CONTAINS(TF_Message(S), "Dimension -5 must be >= 0");
  begin();
  in[0] = kt_tensor(TF_INT32, KT_DIMS(1, 1), KT_V(1));
  kt_attr_type(&A, "dtype", TF_FLOAT);
  CHECK_EQ_INT(kt_run("RandomUniform", &A, in, 1, OUT, S), -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "shape must be a vector of {int32,int64}, got shape [1,1]");
  /* empty outputs are fine */
  begin();
  in[0] = kt_vec(TF_INT64, 2, KT_V(0, 3));
  kt_attr_type(&A, "dtype", TF_FLOAT);
  CHECK_EQ_INT(kt_run("RandomStandardNormal", &A, in, 1, OUT, S), 1);
  kt_check_shape(OUT[0], KT_DIMS(0, 3), __FILE__, __LINE__);
  free_outs(1);
}

TFE_TEST_MAIN
