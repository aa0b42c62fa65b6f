/* Einsum CPU kernel: products, transposes, reductions, diagonals, ellipsis
 * broadcasting and every registered dtype, each against a brute-force
 * reference that walks every assignment of values to the labels; plus the
 * errors (bad equations, shapes, operand counts) with their codes. */
#define _POSIX_C_SOURCE 200809L
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

/* Runs Einsum on one or two inputs (b may be NULL); consumes them. */
static TF_Tensor* ein(const char* eq, TF_Tensor* a, TF_Tensor* b) {
  TF_Tensor* in[2] = {a, b};
  int n;
  begin();
  kt_attr_string(&A, "equation", eq);
  n = kt_run("Einsum", &A, in, b != NULL ? 2 : 1, OUT, S);
  return n == 1 ? OUT[0] : NULL;
}

/* Small integer-valued data, exact in every dtype (bfloat16 included). */
static TF_Tensor* pattern(TF_DataType dt, const int64_t* dims, int nd,
                          int seed) {
  double v[4096];
  int64_t n = tfe_shape_num_elements(dims, nd), i;
  for (i = 0; i < n; i++) v[i] = (double)(((i + 1) * (seed + 3)) % 7 - 3);
  return kt_tensor(dt, dims, nd, v);
}

/* Brute force over letter-only equations: for every assignment of values
 * to all labels, adds the product of the operands' elements to the output
 * element those values select (skipping assignments that leave a repeated
 * output label off its diagonal). */
static void reference(const char* eq, const TF_Tensor* a, const TF_Tensor* b,
                      double* out, int64_t* odims, int* orank) {
  const char* arrow = strstr(eq, "->");
  const char* comma = strchr(eq, ',');
  const char* subs[3];
  int lens[3], nsub = comma != NULL && comma < arrow ? 2 : 1;
  const TF_Tensor* ts[2] = {a, b};
  int64_t size[128], val[128];
  char labels[64];
  int nl = 0, s, j, l;
  int64_t total = 1, it, on = 1;
  subs[0] = eq;
  lens[0] = (int)((nsub == 2 ? comma : arrow) - eq);
  if (nsub == 2) {
    subs[1] = comma + 1;
    lens[1] = (int)(arrow - comma - 1);
  }
  subs[2] = arrow + 2;
  lens[2] = (int)strlen(arrow + 2);
  for (s = 0; s < nsub; s++) {
    for (j = 0; j < lens[s]; j++) {
      char c = subs[s][j];
      if (memchr(labels, c, (size_t)nl) == NULL) labels[nl++] = c;
      size[(int)c] = ts[s]->dims[j];
    }
  }
  *orank = lens[2];
  for (j = 0; j < lens[2]; j++) {
    odims[j] = size[(int)subs[2][j]];
    on *= odims[j];
  }
  for (it = 0; it < on; it++) out[it] = 0;
  for (l = 0; l < nl; l++) total *= size[(int)labels[l]];
  for (it = 0; it < total; it++) {
    int64_t rem = it, oi = 0;
    double prod = 1;
    for (l = nl - 1; l >= 0; l--) {
      val[(int)labels[l]] = rem % size[(int)labels[l]];
      rem /= size[(int)labels[l]];
    }
    for (s = 0; s < nsub; s++) {
      int64_t off = 0;
      for (j = 0; j < lens[s]; j++) {
        off = off * ts[s]->dims[j] + val[(int)subs[s][j]];
      }
      prod *= kt_get(ts[s], off);
    }
    for (j = 0; j < lens[2]; j++) oi = oi * odims[j] + val[(int)subs[2][j]];
    out[oi] += prod;
  }
}

/* Runs eq on patterned inputs of the given shapes and dtype and compares
 * with the brute-force reference. */
static void check_eq(const char* eq, TF_DataType dt, const int64_t* ad,
                     int an, const int64_t* bd, int bn) {
  TF_Tensor* a = pattern(dt, ad, an, 1);
  TF_Tensor* b = bd != NULL ? pattern(dt, bd, bn, 2) : NULL;
  double want[4096];
  int64_t odims[16];
  int orank;
  TF_Tensor* y;
  reference(eq, a, b, want, odims, &orank);
  y = ein(eq, a, b);
  if (y == NULL) TFE_FAIL("%s (dtype %d): %s", eq, (int)dt, TF_Message(S));
  kt_check(y, dt, odims, orank, want, 0.0, eq, __LINE__);
  TF_DeleteTensor(y);
}

static const TF_DataType kTypes[] = {TF_FLOAT,    TF_DOUBLE,   TF_HALF,
                                     TF_BFLOAT16, TF_INT32,    TF_INT64,
                                     TF_COMPLEX64, TF_COMPLEX128};

#define D(...) ((const int64_t[]){__VA_ARGS__})

TEST(einsum_matmul_all_dtypes) {
  size_t i;
  for (i = 0; i < sizeof kTypes / sizeof kTypes[0]; i++) {
    check_eq("ij,jk->ik", kTypes[i], D(3, 4), 2, D(4, 5), 2);
  }
}

TEST(einsum_matmul_hand_values) {
  /* [[1,2,3],[4,5,6]] x [[1,2],[3,4],[5,6]] = [[22,28],[49,64]] */
  TF_Tensor* y = ein("ij,jk->ik",
                     kt_tensor(TF_FLOAT, KT_DIMS(2, 3), KT_V(1, 2, 3, 4, 5, 6)),
                     kt_tensor(TF_FLOAT, KT_DIMS(3, 2), KT_V(1, 2, 3, 4, 5, 6)));
  KT_CHECK(y, TF_FLOAT, KT_DIMS(2, 2), KT_V(22, 28, 49, 64));
  TF_DeleteTensor(y);
}

TEST(einsum_batch_and_permuted_output) {
  size_t i;
  for (i = 0; i < sizeof kTypes / sizeof kTypes[0]; i++) {
    check_eq("bij,bjk->bik", kTypes[i], D(2, 3, 4), 3, D(2, 4, 2), 3);
  }
  check_eq("bij,bjk->kib", TF_DOUBLE, D(2, 3, 4), 3, D(2, 4, 5), 3);
  check_eq("bij,jkb->bki", TF_FLOAT, D(2, 3, 4), 3, D(4, 5, 2), 3);
}

TEST(einsum_one_operand) {
  size_t i;
  for (i = 0; i < sizeof kTypes / sizeof kTypes[0]; i++) {
    check_eq("ij->ji", kTypes[i], D(3, 4), 2, NULL, 0);
    check_eq("ij->i", kTypes[i], D(3, 4), 2, NULL, 0);
    check_eq("ij->", kTypes[i], D(3, 4), 2, NULL, 0);
  }
  check_eq("abc->cab", TF_FLOAT, D(2, 3, 4), 3, NULL, 0);
  check_eq("abc->b", TF_INT64, D(2, 3, 4), 3, NULL, 0);
  check_eq("ij->ij", TF_DOUBLE, D(3, 4), 2, NULL, 0);
}

TEST(einsum_transpose_hand_values) {
  TF_Tensor* y = ein("ij->ji", kt_tensor(TF_INT32, KT_DIMS(2, 3),
                                         KT_V(1, 2, 3, 4, 5, 6)),
                     NULL);
  KT_CHECK(y, TF_INT32, KT_DIMS(3, 2), KT_V(1, 4, 2, 5, 3, 6));
  TF_DeleteTensor(y);
  y = ein("ij->", kt_tensor(TF_FLOAT, KT_DIMS(2, 3), KT_V(1, 2, 3, 4, 5, 6)),
          NULL);
  KT_CHECK(y, TF_FLOAT, KT_SCALAR, KT_V(21));
  TF_DeleteTensor(y);
}

TEST(einsum_outer_dot_and_full_contraction) {
  size_t i;
  TF_Tensor* y;
  for (i = 0; i < sizeof kTypes / sizeof kTypes[0]; i++) {
    check_eq("i,j->ij", kTypes[i], D(3), 1, D(4), 1);
    check_eq("i,i->", kTypes[i], D(5), 1, D(5), 1);
  }
  check_eq("ij,ij->", TF_DOUBLE, D(3, 4), 2, D(3, 4), 2);
  check_eq("ij,ij->ij", TF_FLOAT, D(3, 4), 2, D(3, 4), 2); /* elementwise */
  check_eq("ij,jk->k", TF_FLOAT, D(3, 4), 2, D(4, 2), 2);  /* i reduced */
  check_eq("ij,kl->", TF_INT32, D(2, 3), 2, D(3, 2), 2);
  y = ein("i,i->", kt_tensor(TF_DOUBLE, KT_DIMS(3), KT_V(1, 2, 3)),
          kt_tensor(TF_DOUBLE, KT_DIMS(3), KT_V(4, 5, 6)));
  KT_CHECK(y, TF_DOUBLE, KT_SCALAR, KT_V(32));
  TF_DeleteTensor(y);
}

TEST(einsum_repeated_labels) {
  TF_Tensor* y;
  check_eq("ii->i", TF_FLOAT, D(3, 3), 2, NULL, 0);
  check_eq("ii->", TF_INT64, D(4, 4), 2, NULL, 0);
  check_eq("i->ii", TF_DOUBLE, D(3), 1, NULL, 0);
  check_eq("iij,jk->ik", TF_FLOAT, D(3, 3, 2), 3, D(2, 4), 2);
  check_eq("bii,bi->bi", TF_DOUBLE, D(2, 3, 3), 3, D(2, 3), 2);
  y = ein("ii->", kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 2, 3, 4)), NULL);
  KT_CHECK(y, TF_FLOAT, KT_SCALAR, KT_V(5));
  TF_DeleteTensor(y);
}

TEST(einsum_complex_values) {
  /* (1+2i)(3-i) + (2-i)(1+i) = (5+5i) + (3+i) = 8+6i */
  float av[4] = {1, 2, 2, -1}, bv[4] = {3, -1, 1, 1};
  int64_t d = 2;
  TF_Tensor* a = TF_AllocateTensor(TF_COMPLEX64, &d, 1, sizeof av);
  TF_Tensor* b = TF_AllocateTensor(TF_COMPLEX64, &d, 1, sizeof bv);
  TF_Tensor* y;
  const float* o;
  memcpy(TF_TensorData(a), av, sizeof av);
  memcpy(TF_TensorData(b), bv, sizeof bv);
  y = ein("i,i->", a, b);
  CHECK(y != NULL);
  o = (const float*)TF_TensorData(y);
  CHECK(o[0] == 8.0f && o[1] == 6.0f);
  TF_DeleteTensor(y);
}

/* a [2,1,3,4] and b [3,4,2] under "...ij,...jk->...ik": the batch dims
 * [2,1] and [3] broadcast to [2,3]. */
TEST(einsum_ellipsis_broadcast) {
  size_t t;
  for (t = 0; t < sizeof kTypes / sizeof kTypes[0]; t++) {
    TF_DataType dt = kTypes[t];
    TF_Tensor* a = pattern(dt, D(2, 1, 3, 4), 4, 1);
    TF_Tensor* b = pattern(dt, D(3, 4, 2), 3, 2);
    double want[2 * 3 * 3 * 2];
    int64_t p, q, i, k, j;
    TF_Tensor* y;
    for (p = 0; p < 2; p++) {
      for (q = 0; q < 3; q++) {
        for (i = 0; i < 3; i++) {
          for (k = 0; k < 2; k++) {
            double s = 0;
            for (j = 0; j < 4; j++) {
              s += kt_get(a, (p * 3 + i) * 4 + j) *
                   kt_get(b, (q * 4 + j) * 2 + k);
            }
            want[((p * 3 + q) * 3 + i) * 2 + k] = s;
          }
        }
      }
    }
    y = ein("...ij,...jk->...ik", a, b);
    if (y == NULL) TFE_FAIL("dtype %d: %s", (int)dt, TF_Message(S));
    KT_CHECK(y, dt, KT_DIMS(2, 3, 3, 2), want);
    TF_DeleteTensor(y);
  }
}

TEST(einsum_ellipsis_other_forms) {
  TF_Tensor* y;
  /* ellipsis in one operand only, and in the middle of a subscript */
  y = ein("i...,i->...",
          kt_tensor(TF_FLOAT, KT_DIMS(2, 3), KT_V(1, 2, 3, 4, 5, 6)),
          kt_tensor(TF_FLOAT, KT_DIMS(2), KT_V(1, 10)));
  KT_CHECK(y, TF_FLOAT, KT_DIMS(3), KT_V(41, 52, 63));
  TF_DeleteTensor(y);
  y = ein("a...b->b...a",
          kt_tensor(TF_INT32, KT_DIMS(2, 1, 3), KT_V(1, 2, 3, 4, 5, 6)), NULL);
  KT_CHECK(y, TF_INT32, KT_DIMS(3, 1, 2), KT_V(1, 4, 2, 5, 3, 6));
  TF_DeleteTensor(y);
  /* empty ellipsis */
  y = ein("...ij->...ji",
          kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 2, 3, 4)), NULL);
  KT_CHECK(y, TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 3, 2, 4));
  TF_DeleteTensor(y);
}

TEST(einsum_zero_sizes) {
  TF_Tensor* y = ein("ij,jk->ik", kt_tensor(TF_FLOAT, KT_DIMS(2, 0), NULL),
                     kt_tensor(TF_FLOAT, KT_DIMS(0, 3), NULL));
  KT_CHECK(y, TF_FLOAT, KT_DIMS(2, 3), KT_V(0, 0, 0, 0, 0, 0));
  TF_DeleteTensor(y);
  y = ein("ij->j", kt_tensor(TF_DOUBLE, KT_DIMS(0, 2), NULL), NULL);
  KT_CHECK(y, TF_DOUBLE, KT_DIMS(2), KT_V(0, 0));
  TF_DeleteTensor(y);
  y = ein("ij,jk->ik", kt_tensor(TF_FLOAT, KT_DIMS(0, 2), NULL),
          kt_tensor(TF_FLOAT, KT_DIMS(2, 3), KT_V(1, 2, 3, 4, 5, 6)));
  CHECK(y != NULL);
  kt_check_shape(y, KT_DIMS(0, 3), __FILE__, __LINE__);
  TF_DeleteTensor(y);
}

TEST(einsum_larger_float_matches_reference) {
  /* big enough to go through the blocked GEMM / BLAS path */
  check_eq("ij,jk->ik", TF_FLOAT, D(17, 33), 2, D(33, 9), 2);
  check_eq("bij,bkj->bik", TF_DOUBLE, D(3, 10, 20), 3, D(3, 7, 20), 3);
}

static void expect_error(const char* eq, TF_Tensor* a, TF_Tensor* b,
                         TF_Code code, const char* msg) {
  TF_Tensor* y = ein(eq, a, b);
  if (y != NULL) TFE_FAIL("%s unexpectedly succeeded", eq);
  CHECK_CODE(S, code);
  CHECK_STR_CONTAINS(TF_Message(S), msg);
}

TEST(einsum_errors) {
  /* the kernel, like TF's, needs the explicit form */
  expect_error("ij,jk", kt_tensor(TF_FLOAT, KT_DIMS(2, 2), NULL),
               kt_tensor(TF_FLOAT, KT_DIMS(2, 2), NULL), TF_INVALID_ARGUMENT,
               "Expecting exactly one '->' in einsum equation: ij,jk");
  expect_error("i->i->i", kt_tensor(TF_FLOAT, KT_DIMS(2), NULL), NULL,
               TF_INVALID_ARGUMENT, "Expecting exactly one '->'");
  expect_error("i,i,i->i", kt_tensor(TF_FLOAT, KT_DIMS(2), NULL),
               kt_tensor(TF_FLOAT, KT_DIMS(2), NULL), TF_INVALID_ARGUMENT,
               "Expecting 1 or 2 input subscripts in equation 'i,i,i->i' but "
               "got: 3");
  expect_error("ij,jk->ik", kt_tensor(TF_FLOAT, KT_DIMS(2, 3), NULL),
               kt_tensor(TF_FLOAT, KT_DIMS(4, 2), NULL), TF_INVALID_ARGUMENT,
               "Expected dimension 3 at axis 0 of the input shaped [4,2] but "
               "got dimension 4");
  expect_error("ii->i", kt_tensor(TF_FLOAT, KT_DIMS(2, 3), NULL), NULL,
               TF_INVALID_ARGUMENT, "Expected dimension 2 at axis 1");
  expect_error("ij->i", kt_tensor(TF_FLOAT, KT_DIMS(2, 3, 4), NULL), NULL,
               TF_INVALID_ARGUMENT, "Expected input 0 to have rank 2 but got: 3");
  expect_error("...ijk->i", kt_tensor(TF_FLOAT, KT_DIMS(2, 3), NULL), NULL,
               TF_INVALID_ARGUMENT,
               "Expected input 0 to have rank at least 3 but got: 2");
  expect_error("ij->ij", kt_tensor(TF_FLOAT, KT_DIMS(2, 3), NULL),
               kt_tensor(TF_FLOAT, KT_DIMS(2, 3), NULL), TF_INVALID_ARGUMENT,
               "Expected 1 inputs but got: 2");
  expect_error("...i->i", kt_tensor(TF_FLOAT, KT_DIMS(2, 3), NULL), NULL,
               TF_INVALID_ARGUMENT,
               "Output contains 1 broadcasting dimension(s) but no ellipsis");
  expect_error("i1->i", kt_tensor(TF_FLOAT, KT_DIMS(2), NULL), NULL,
               TF_INVALID_ARGUMENT, "Invalid input subscript 0");
  expect_error("i..->i", kt_tensor(TF_FLOAT, KT_DIMS(2), NULL), NULL,
               TF_INVALID_ARGUMENT, "Invalid input subscript 0");
  expect_error("i->i.", kt_tensor(TF_FLOAT, KT_DIMS(2), NULL), NULL,
               TF_INVALID_ARGUMENT, "Invalid output subscript");
  expect_error("i->j", kt_tensor(TF_FLOAT, KT_DIMS(2), NULL), NULL,
               TF_INVALID_ARGUMENT, "'j'");
  expect_error("...i,...i->...i", kt_tensor(TF_FLOAT, KT_DIMS(2, 3), NULL),
               kt_tensor(TF_FLOAT, KT_DIMS(4, 3), NULL), TF_INVALID_ARGUMENT,
               "Incompatible broadcasting dimensions");
  /* dtypes without a CPU kernel */
  expect_error("i->i", kt_tensor(TF_INT16, KT_DIMS(2), NULL), NULL,
               TF_NOT_FOUND, "Einsum");
}

TFE_TEST_MAIN
