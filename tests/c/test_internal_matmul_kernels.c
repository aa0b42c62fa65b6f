/* MatMul, BatchMatMul and BatchMatMulV2 kernels: every dtype, transposes and
 * adjoints, sizes that do not divide the GEMM tiles, zero-sized operands,
 * broadcasting batches, the built-in GEMM against a naive product (with and
 * without a BLAS), and the errors. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "kernel_test_ops.h"
#include "kernel_test_util.h"
#include "kernels/cpu/blas.h"
#include "kernels/cpu/matmul_gemm.h"

static TF_Status* S;
static tfe_attrs A;
static TF_Tensor* OUT[KT_MAX_IO];

static void begin(void) {
  kt_register_fallback_ops();
  if (S == NULL) S = TF_NewStatus();
  tfe_attrs_destroy(&A);
  tfe_attrs_init(&A);
}

static TF_Tensor* mm(const char* op, TF_Tensor* a, TF_Tensor* b) {
  TF_Tensor* in[2] = {a, b};
  int n = kt_run(op, &A, in, 2, OUT, S);
  tfe_attrs_clear(&A);
  return n == 1 ? OUT[0] : NULL;
}

static TF_Tensor* mm_ok(const char* op, TF_Tensor* a, TF_Tensor* b) {
  TF_Tensor* y = mm(op, a, b);
  if (y == NULL) TFE_FAIL("%s failed: %s", op, TF_Message(S));
  return y;
}

TEST(matmul_basic_all_dtypes) {
  /* MatMul's definition has no int16; BatchMatMulV2's does. */
  static const TF_DataType dts[] = {TF_FLOAT, TF_DOUBLE, TF_HALF,
                                    TF_BFLOAT16, TF_INT16, TF_INT32,
                                    TF_INT64, TF_COMPLEX64, TF_COMPLEX128};
  size_t i;
  begin();
  for (i = 0; i < sizeof dts / sizeof dts[0]; i++) {
    /* [[1,2,3],[4,5,6]] x [[1,2],[3,4],[5,6]] = [[22,28],[49,64]] */
    TF_Tensor* y;
    if (dts[i] != TF_INT16) {
      y = mm_ok("MatMul",
                kt_tensor(dts[i], KT_DIMS(2, 3), KT_V(1, 2, 3, 4, 5, 6)),
                kt_tensor(dts[i], KT_DIMS(3, 2), KT_V(1, 2, 3, 4, 5, 6)));
      KT_CHECK(y, dts[i], KT_DIMS(2, 2), KT_V(22, 28, 49, 64));
      TF_DeleteTensor(y);
    }
    y = mm_ok("BatchMatMulV2",
              kt_tensor(dts[i], KT_DIMS(1, 2, 3), KT_V(1, 2, 3, 4, 5, 6)),
              kt_tensor(dts[i], KT_DIMS(3, 2), KT_V(1, 2, 3, 4, 5, 6)));
    KT_CHECK(y, dts[i], KT_DIMS(1, 2, 2), KT_V(22, 28, 49, 64));
    TF_DeleteTensor(y);
  }
}

TEST(matmul_transposes) {
  TF_Tensor* y;
  begin();
  /* conformance case: m = [[1,2],[3,4]], m^T m = [[10,14],[14,20]] */
  kt_attr_bool(&A, "transpose_a", 1);
  y = mm_ok("MatMul", kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 2, 3, 4)),
            kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 2, 3, 4)));
  KT_CHECK(y, TF_FLOAT, KT_DIMS(2, 2), KT_V(10, 14, 14, 20));
  TF_DeleteTensor(y);
  kt_attr_bool(&A, "transpose_b", 1);
  y = mm_ok("MatMul", kt_tensor(TF_FLOAT, KT_DIMS(2, 3), KT_V(1, 2, 3, 4, 5, 6)),
            kt_tensor(TF_FLOAT, KT_DIMS(2, 3), KT_V(1, 2, 3, 4, 5, 6)));
  KT_CHECK(y, TF_FLOAT, KT_DIMS(2, 2), KT_V(14, 32, 32, 77));
  TF_DeleteTensor(y);
  kt_attr_bool(&A, "transpose_a", 1);
  kt_attr_bool(&A, "transpose_b", 1);
  y = mm_ok("MatMul",
            kt_tensor(TF_INT32, KT_DIMS(3, 2), KT_V(1, 2, 3, 4, 5, 6)),
            kt_tensor(TF_INT32, KT_DIMS(2, 3), KT_V(1, 2, 3, 4, 5, 6)));
  /* A^T = [[1,3,5],[2,4,6]], B^T = [[1,4],[2,5],[3,6]] */
  KT_CHECK(y, TF_INT32, KT_DIMS(2, 2), KT_V(22, 49, 28, 64));
  TF_DeleteTensor(y);
}

TEST(matmul_zero_sized) {
  TF_Tensor* y;
  begin();
  y = mm_ok("MatMul", kt_tensor(TF_FLOAT, KT_DIMS(2, 0), NULL),
            kt_tensor(TF_FLOAT, KT_DIMS(0, 3), NULL));
  KT_CHECK(y, TF_FLOAT, KT_DIMS(2, 3), KT_V(0, 0, 0, 0, 0, 0));
  TF_DeleteTensor(y);
  y = mm_ok("MatMul", kt_tensor(TF_DOUBLE, KT_DIMS(0, 4), NULL),
            kt_tensor(TF_DOUBLE, KT_DIMS(4, 3), NULL));
  KT_CHECK(y, TF_DOUBLE, KT_DIMS(0, 3), NULL);
  TF_DeleteTensor(y);
}

TEST(matmul_errors) {
  begin();
  CHECK(mm("MatMul", kt_tensor(TF_FLOAT, KT_DIMS(2, 3), NULL),
           kt_tensor(TF_FLOAT, KT_DIMS(2, 3), NULL)) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "Matrix size-incompatible: In[0]: [2,3], In[1]: [2,3]");
  CHECK(mm("MatMul", kt_tensor(TF_FLOAT, KT_DIMS(3), NULL),
           kt_tensor(TF_FLOAT, KT_DIMS(3), NULL)) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "In[0] and In[1] ndims must be == 2: 1");
  CHECK(mm("MatMul", kt_tensor(TF_FLOAT, KT_DIMS(3), NULL),
           kt_tensor(TF_FLOAT, KT_DIMS(3, 1), NULL)) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "In[0] and In[1] has different ndims: [3] vs. [3,1]");
  /* no uint8 kernel */
  CHECK(mm("MatMul", kt_tensor(TF_UINT8, KT_DIMS(1, 1), NULL),
           kt_tensor(TF_UINT8, KT_DIMS(1, 1), NULL)) == NULL);
  CHECK(TF_GetCode(S) != TF_OK);
}

/* Naive reference product in double. */
static void naive(int ta, int tb, int64_t m, int64_t n, int64_t k,
                  const double* a, const double* b, double* c) {
  int64_t i, j, p;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      double s = 0;
      for (p = 0; p < k; p++) {
        double av = ta ? a[p * m + i] : a[i * k + p];
        double bv = tb ? b[j * k + p] : b[p * n + j];
        s += av * bv;
      }
      c[i * n + j] = s;
    }
}

/* Odd sizes through MatMul (whatever GEMM is active) and through the
 * built-in GEMM directly, with small-integer data so results are exact. */
TEST(matmul_odd_sizes_exact) {
  static const int64_t sizes[][3] = {{1, 1, 1},   {3, 5, 7},    {17, 33, 65},
                                     {100, 1, 50}, {1, 100, 3}, {129, 257, 300},
                                     {70, 40, 513}};
  size_t s;
  int ta, tb;
  begin();
  for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    int64_t m = sizes[s][0], n = sizes[s][1], k = sizes[s][2], i;
    double* a = (double*)malloc(sizeof(double) * (size_t)(m * k));
    double* b = (double*)malloc(sizeof(double) * (size_t)(k * n));
    double* c = (double*)malloc(sizeof(double) * (size_t)(m * n));
    float* af = (float*)malloc(sizeof(float) * (size_t)(m * k));
    float* bf = (float*)malloc(sizeof(float) * (size_t)(k * n));
    float* cf = (float*)malloc(sizeof(float) * (size_t)(m * n));
    double* cd = (double*)malloc(sizeof(double) * (size_t)(m * n));
    for (i = 0; i < m * k; i++) af[i] = (float)(a[i] = (double)(rand() % 7 - 3));
    for (i = 0; i < k * n; i++) bf[i] = (float)(b[i] = (double)(rand() % 5 - 2));
    for (ta = 0; ta < 2; ta++) {
      for (tb = 0; tb < 2; tb++) {
        TF_Tensor* y;
        naive(ta, tb, m, n, k, a, b, c);
        kt_attr_bool(&A, "transpose_a", ta);
        kt_attr_bool(&A, "transpose_b", tb);
        y = mm_ok("MatMul",
                  ta ? kt_tensor(TF_FLOAT, KT_DIMS(k, m), a)
                     : kt_tensor(TF_FLOAT, KT_DIMS(m, k), a),
                  tb ? kt_tensor(TF_FLOAT, KT_DIMS(n, k), b)
                     : kt_tensor(TF_FLOAT, KT_DIMS(k, n), b));
        kt_check(y, TF_FLOAT, KT_DIMS(m, n), c, 0, __FILE__, __LINE__);
        TF_DeleteTensor(y);
        CHECK(tfe_gemm_f32(ta, tb, m, n, k, af, ta ? m : k, bf, tb ? k : n,
                           cf, n));
        CHECK(tfe_gemm_f64(ta, tb, m, n, k, a, ta ? m : k, b, tb ? k : n, cd,
                           n));
        for (i = 0; i < m * n; i++) {
          if (cf[i] != (float)c[i] || cd[i] != c[i]) {
            TFE_FAIL("size %zu ta %d tb %d: [%lld] %g / %g, want %g", s, ta,
                     tb, (long long)i, cf[i], cd[i], c[i]);
          }
        }
      }
    }
    free(a);
    free(b);
    free(c);
    free(af);
    free(bf);
    free(cf);
    free(cd);
  }
}

/* A product big enough to use several threads in the built-in GEMM. */
TEST(matmul_large_threaded) {
  const int64_t m = 300, n = 260, k = 200;
  double* a = (double*)malloc(sizeof(double) * (size_t)(m * k));
  double* b = (double*)malloc(sizeof(double) * (size_t)(k * n));
  double* c = (double*)malloc(sizeof(double) * (size_t)(m * n));
  TF_Tensor* y;
  int64_t i;
  begin();
  for (i = 0; i < m * k; i++) a[i] = (double)((i * 7) % 11 - 5);
  for (i = 0; i < k * n; i++) b[i] = (double)((i * 3) % 13 - 6);
  naive(1, 0, m, n, k, a, b, c);
  kt_attr_bool(&A, "transpose_a", 1);
  y = mm_ok("MatMul", kt_tensor(TF_DOUBLE, KT_DIMS(k, m), a),
            kt_tensor(TF_DOUBLE, KT_DIMS(k, n), b));
  kt_check(y, TF_DOUBLE, KT_DIMS(m, n), c, 0, __FILE__, __LINE__);
  TF_DeleteTensor(y);
  free(a);
  free(b);
  free(c);
}

TEST(matmul_complex_values) {
  int64_t d[2] = {1, 2}, e[2] = {2, 1};
  TF_Tensor *a = TF_AllocateTensor(TF_COMPLEX64, d, 2, 16),
            *b = TF_AllocateTensor(TF_COMPLEX64, e, 2, 16), *y;
  float* p = (float*)TF_TensorData(a);
  float* q = (float*)TF_TensorData(b);
  float* r;
  begin();
  /* [1+i, 2] x [[3], [-i]] = (1+i)*3 + 2*(-i) = 3 + i */
  p[0] = 1;
  p[1] = 1;
  p[2] = 2;
  p[3] = 0;
  q[0] = 3;
  q[1] = 0;
  q[2] = 0;
  q[3] = -1;
  y = mm_ok("MatMul", a, b);
  r = (float*)TF_TensorData(y);
  CHECK(r[0] == 3 && r[1] == 1);
  TF_DeleteTensor(y);
}

TEST(batch_matmul_v2_broadcast) {
  TF_Tensor* y;
  double av[12], bv[6];
  int i;
  begin();
  for (i = 0; i < 12; i++) av[i] = i + 1;
  for (i = 0; i < 6; i++) bv[i] = i + 1;
  /* [2,2,3] x [3,2] (broadcast b) */
  y = mm_ok("BatchMatMulV2", kt_tensor(TF_FLOAT, KT_DIMS(2, 2, 3), av),
            kt_tensor(TF_FLOAT, KT_DIMS(3, 2), bv));
  KT_CHECK(y, TF_FLOAT, KT_DIMS(2, 2, 2),
           KT_V(22, 28, 49, 64, 76, 100, 103, 136));
  TF_DeleteTensor(y);
  /* [2,1,1,3] x [3,3,1] -> [2,3,1,1] */
  {
    double b3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    y = mm_ok("BatchMatMulV2",
              kt_tensor(TF_DOUBLE, KT_DIMS(2, 1, 1, 3), KT_V(1, 2, 3, 4, 5, 6)),
              kt_tensor(TF_DOUBLE, KT_DIMS(3, 3, 1), b3));
    KT_CHECK(y, TF_DOUBLE, KT_DIMS(2, 3, 1, 1), KT_V(1, 2, 3, 4, 5, 6));
    TF_DeleteTensor(y);
  }
  kt_attr_bool(&A, "adj_y", 1);
  y = mm_ok("BatchMatMulV2", kt_tensor(TF_INT32, KT_DIMS(1, 2, 3), av),
            kt_tensor(TF_INT32, KT_DIMS(2, 2, 3), av));
  /* x[0] = [[1,2,3],[4,5,6]]; y[1]^T rows: [7,8,9],[10,11,12] */
  KT_CHECK(y, TF_INT32, KT_DIMS(2, 2, 2),
           KT_V(14, 32, 32, 77, 50, 68, 122, 167));
  TF_DeleteTensor(y);
}

TEST(batch_matmul_adjoint_conjugates) {
  int64_t d[3] = {1, 1, 1};
  TF_Tensor *a = TF_AllocateTensor(TF_COMPLEX128, d, 3, 16),
            *b = TF_AllocateTensor(TF_COMPLEX128, d, 3, 16), *y;
  double* p = (double*)TF_TensorData(a);
  double* q = (double*)TF_TensorData(b);
  double* r;
  begin();
  p[0] = 1;
  p[1] = 2; /* 1+2i, adjoint 1-2i */
  q[0] = 3;
  q[1] = 1;
  kt_attr_bool(&A, "adj_x", 1);
  y = mm_ok("BatchMatMulV2", a, b);
  /* (1-2i)(3+i) = 3 + i - 6i + 2 = 5 - 5i */
  r = (double*)TF_TensorData(y);
  CHECK(r[0] == 5 && r[1] == -5);
  TF_DeleteTensor(y);
}

TEST(batch_matmul_errors) {
  begin();
  CHECK(mm("BatchMatMulV2", kt_tensor(TF_FLOAT, KT_DIMS(2, 2, 3), NULL),
           kt_tensor(TF_FLOAT, KT_DIMS(3, 3, 2), NULL)) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "In[0] and In[1] must have compatible batch dimensions: "
                     "[2,2,3] vs. [3,3,2]");
  CHECK(mm("BatchMatMulV2", kt_tensor(TF_FLOAT, KT_DIMS(3), NULL),
           kt_tensor(TF_FLOAT, KT_DIMS(3, 3), NULL)) == NULL);
  CHECK_STR_CONTAINS(TF_Message(S), "In[0] ndims must be >= 2: 1");
  CHECK(mm("BatchMatMulV2", kt_tensor(TF_FLOAT, KT_DIMS(4, 6), NULL),
           kt_tensor(TF_FLOAT, KT_DIMS(4, 7), NULL)) == NULL);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "Matrix size-incompatible: In[0]: [4,6], In[1]: [4,7]");
  CHECK(mm("BatchMatMul", kt_tensor(TF_FLOAT, KT_DIMS(2, 2, 2), NULL),
           kt_tensor(TF_FLOAT, KT_DIMS(3, 2, 2), NULL)) == NULL);
  CHECK_STR_CONTAINS(TF_Message(S), "In[0].dim(0) and In[1].dim(0) must be");
}

TEST(blas_env_none_disables_blas) {
  /* The search runs once per process: this holds when the test runs in a
   * process of its own (as ctest runs it) or when no BLAS is installed. */
  const char* prev = getenv("TFE_BLAS_LIBRARY");
  if (prev != NULL && strcmp(prev, "none") != 0) return;
  setenv("TFE_BLAS_LIBRARY", "none", 1);
  CHECK_EQ_INT(tfe_blas_available(), 0);
  CHECK(tfe_blas_library() == NULL);
  {
    float a[1] = {2}, b[1] = {3}, c[1] = {0};
    CHECK_EQ_INT(tfe_blas_sgemm(0, 0, 1, 1, 1, a, 1, b, 1, c, 1), 0);
    CHECK(c[0] == 0);
  }
}

/* When TFE_BLAS_LIBRARY names a library, it is loaded and every GEMM entry
 * point agrees with the naive product (transposes and conjugates too). */
TEST(blas_from_env_matches_naive) {
  const char* lib = getenv("TFE_BLAS_LIBRARY");
  const int64_t m = 5, n = 4, k = 3;
  double a[15], b[12], c[20];
  float af[15], bf[12], cf[20];
  double ad[15], bd[12], cd[20];
  float ac[30], bc[24], cc[40];
  int ta, tb;
  int64_t i;
  if (lib == NULL || lib[0] == '\0' || strcmp(lib, "none") == 0) return;
  CHECK_EQ_INT(tfe_blas_available(), 1);
  CHECK_STR_EQ(tfe_blas_library(), lib);
  for (i = 0; i < 15; i++) af[i] = (float)(ad[i] = a[i] = (double)(i % 5) - 2);
  for (i = 0; i < 12; i++) bf[i] = (float)(bd[i] = b[i] = (double)(i % 3) + 1);
  for (ta = 0; ta < 2; ta++) {
    for (tb = 0; tb < 2; tb++) {
      naive(ta, tb, m, n, k, a, b, c);
      CHECK(tfe_blas_sgemm(ta, tb, m, n, k, af, ta ? m : k, bf, tb ? k : n,
                           cf, n));
      CHECK(tfe_blas_dgemm(ta, tb, m, n, k, ad, ta ? m : k, bd, tb ? k : n,
                           cd, n));
      for (i = 0; i < m * n; i++) CHECK(cf[i] == (float)c[i] && cd[i] == c[i]);
    }
  }
  /* complex: imaginary parts i for A, 0 for B; conj-transpose of A */
  for (i = 0; i < 15; i++) {
    ac[2 * i] = af[i];
    ac[2 * i + 1] = 1.0f;
  }
  for (i = 0; i < 12; i++) {
    bc[2 * i] = bf[i];
    bc[2 * i + 1] = 0.0f;
  }
  naive(1, 0, m, n, k, a, b, c);
  if (tfe_blas_cgemm(1, 1, 0, 0, m, n, k, ac, m, bc, n, cc, n)) {
    for (i = 0; i < m * n; i++) {
      int64_t r = i / n, col = i % n, p;
      double im = 0;
      for (p = 0; p < k; p++) im -= b[p * n + col]; /* conj(1i) = -1i */
      (void)r;
      CHECK(cc[2 * i] == (float)c[i] && cc[2 * i + 1] == (float)im);
    }
  }
}

TEST(batch_matmul_v3_mixed_types) {
  TF_Tensor* y;
  begin();
  kt_attr_type(&A, "Tout", TF_INT32);
  y = mm_ok("BatchMatMulV3",
            kt_tensor(TF_INT8, KT_DIMS(1, 2, 2), KT_V(100, 2, 3, -4)),
            kt_tensor(TF_UINT8, KT_DIMS(2, 1), KT_V(200, 1)));
  /* [100*200 + 2, 3*200 - 4] = [20002, 596]: no 8-bit overflow */
  KT_CHECK(y, TF_INT32, KT_DIMS(1, 2, 1), KT_V(20002, 596));
  TF_DeleteTensor(y);
  kt_attr_type(&A, "Tout", TF_FLOAT);
  y = mm_ok("BatchMatMulV3", kt_tensor(TF_FLOAT, KT_DIMS(1, 2), KT_V(1, 2)),
            kt_tensor(TF_FLOAT, KT_DIMS(2, 1), KT_V(3, 4)));
  KT_CHECK(y, TF_FLOAT, KT_DIMS(1, 1), KT_V(11));
  TF_DeleteTensor(y);
  kt_attr_type(&A, "Tout", TF_FLOAT);
  CHECK(mm("BatchMatMulV3", kt_tensor(TF_INT8, KT_DIMS(1, 1), KT_V(1)),
           kt_tensor(TF_INT8, KT_DIMS(1, 1), KT_V(1))) == NULL);
  CHECK_CODE(S, TF_NOT_FOUND);
}

TFE_TEST_MAIN
