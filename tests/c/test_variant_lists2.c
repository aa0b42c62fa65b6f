/* The whole-list TensorList ops (TensorListConcat / V2, TensorListSplit,
 * TensorListGather, TensorListScatter / V2 / IntoExistingList,
 * TensorListResize, TensorListConcatLists, TensorListPushBackBatch) and
 * the generic data-movement ops on DT_VARIANT (Pack, Unpack, GatherV2,
 * SelectV2, Tile, ...), end to end through TFE_Execute. Every expected
 * value and message below was produced by TensorFlow 2.21 on CPU with
 * the same inputs; each test also checks that tensors, buffers and
 * handles go back to their starting counts. */
#include <stdint.h>
#include <string.h>

#include "eager_test_util.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"
#include "tfe_test.h"

/* ---- handles kept until the end of a test ---- */

#define MAX_KEPT 256
static TFE_TensorHandle* g_kept[MAX_KEPT];
static int g_nkept;

static TFE_TensorHandle* keep(TFE_TensorHandle* h) {
  CHECK(g_nkept < MAX_KEPT);
  if (h != NULL) g_kept[g_nkept++] = h;
  return h;
}

static void release_all(void) {
  while (g_nkept > 0) TFE_DeleteTensorHandle(g_kept[--g_nkept]);
}

typedef struct fixture {
  TF_Status* s;
  TFE_Context* ctx;
  live_counts before;
} fixture;

static fixture setup(void) {
  fixture f;
  f.before = live_now();
  f.s = TF_NewStatus();
  f.ctx = new_ctx(f.s);
  g_nkept = 0;
  return f;
}

static void teardown(fixture* f) {
  live_counts after;
  release_all();
  TFE_DeleteContext(f->ctx);
  TF_DeleteStatus(f->s);
  after = live_now();
  CHECK_EQ_INT(after.tensors, f->before.tensors);
  CHECK_EQ_INT(after.buffers, f->before.buffers);
  CHECK_EQ_INT(after.handles, f->before.handles);
}

/* ---- constants ---- */

static TFE_TensorHandle* f32(const float* v, int64_t d0, int64_t d1,
                             TF_Status* s) {
  int64_t dims[2];
  int nd = d1 < 0 ? 1 : 2;
  int64_t n = d1 < 0 ? d0 : d0 * d1;
  dims[0] = d0;
  dims[1] = d1;
  return keep(make_handle(TF_FLOAT, dims, nd, v, (size_t)n * sizeof(float),
                          s));
}

static TFE_TensorHandle* f32_scalar(float v, TF_Status* s) {
  return keep(scalar_f32(v, s));
}

static TFE_TensorHandle* i32v(const int32_t* v, int64_t n, TF_Status* s) {
  return keep(make_handle(TF_INT32, &n, 1, v, (size_t)n * sizeof(int32_t), s));
}

static TFE_TensorHandle* i32m(const int32_t* v, int64_t d0, int64_t d1,
                              TF_Status* s) {
  int64_t dims[2];
  dims[0] = d0;
  dims[1] = d1;
  return keep(make_handle(TF_INT32, dims, 2, v,
                          (size_t)(d0 * d1) * sizeof(int32_t), s));
}

static TFE_TensorHandle* i64v(const int64_t* v, int64_t n, TF_Status* s) {
  return keep(make_handle(TF_INT64, &n, 1, v, (size_t)n * sizeof(int64_t), s));
}

static TFE_TensorHandle* i32s(int32_t v, TF_Status* s) {
  return keep(scalar_i32(v, s));
}

static TFE_TensorHandle* bools(const unsigned char* v, int64_t n,
                               TF_Status* s) {
  return keep(make_handle(TF_BOOL, &n, n < 0 ? 0 : 1, v, (size_t)n, s));
}

/* ---- running ops ---- */

/* Runs `name` on nin inputs; element_dtype (when not 0) is set as the
 * attr "element_dtype". Output 0 is returned (kept), others go to rest
 * (kept). NULL with s holding the error when the op fails. */
static TFE_TensorHandle* run_op(fixture* f, const char* name,
                                TFE_TensorHandle* const* in, int nin,
                                TF_DataType element_dtype, int nout,
                                TFE_TensorHandle** rest) {
  TFE_TensorHandle* out[8] = {NULL};
  TFE_Op* op = TFE_NewOp(f->ctx, name, f->s);
  int n = nout, i;
  CHECK_CODE(f->s, TF_OK);
  for (i = 0; i < nin; i++) {
    TFE_OpAddInput(op, in[i], f->s);
    CHECK_CODE(f->s, TF_OK);
  }
  if (element_dtype != 0) {
    TFE_OpSetAttrType(op, "element_dtype", element_dtype);
  }
  TFE_Execute(op, out, &n, f->s);
  TFE_DeleteOp(op);
  if (TF_GetCode(f->s) != TF_OK) return NULL;
  CHECK_EQ_INT(n, nout);
  for (i = 0; i < nout; i++) keep(out[i]);
  for (i = 1; i < nout; i++) rest[i - 1] = out[i];
  return out[0];
}

#define IN(...) ((TFE_TensorHandle* const[]){__VA_ARGS__})
#define NIN(...) \
  ((int)(sizeof((TFE_TensorHandle* const[]){__VA_ARGS__}) / sizeof(void*)))
#define RUN(f, name, dt, ...) \
  run_op((f), (name), IN(__VA_ARGS__), NIN(__VA_ARGS__), (dt), 1, NULL)
#define RUN2(f, name, dt, rest, ...) \
  run_op((f), (name), IN(__VA_ARGS__), NIN(__VA_ARGS__), (dt), 2, (rest))

static void expect_error(fixture* f, TFE_TensorHandle* h, TF_Code code,
                         const char* msg) {
  CHECK(h == NULL);
  CHECK_CODE(f->s, code);
  CHECK_STR_CONTAINS(TF_Message(f->s), msg);
  TF_SetStatus(f->s, TF_OK, "");
}

/* Checks a float handle's shape and values. */
static void expect_f32(fixture* f, TFE_TensorHandle* h, const int64_t* dims,
                       int nd, const float* want) {
  TF_Tensor* t;
  int64_t n = 1;
  int i;
  CHECK_CODE(f->s, TF_OK);
  CHECK(h != NULL);
  t = TFE_TensorHandleResolve(h, f->s);
  CHECK_CODE(f->s, TF_OK);
  CHECK_EQ_INT(TF_TensorType(t), TF_FLOAT);
  CHECK_EQ_INT(TF_NumDims(t), nd);
  for (i = 0; i < nd; i++) {
    CHECK_EQ_INT(TF_Dim(t, i), dims[i]);
    n *= dims[i];
  }
  for (i = 0; i < n; i++) {
    float got = ((const float*)TF_TensorData(t))[i];
    if (got != want[i]) {
      TF_DeleteTensor(t);
      TFE_FAIL("element %d: got %g, want %g", i, (double)got, (double)want[i]);
    }
  }
  TF_DeleteTensor(t);
}

/* Checks an integer (int32 or int64) vector handle. */
static void expect_ints(fixture* f, TFE_TensorHandle* h, TF_DataType dt,
                        int64_t n, const int64_t* want) {
  TF_Tensor* t;
  int64_t i;
  CHECK_CODE(f->s, TF_OK);
  CHECK(h != NULL);
  t = TFE_TensorHandleResolve(h, f->s);
  CHECK_CODE(f->s, TF_OK);
  CHECK_EQ_INT(TF_TensorType(t), dt);
  CHECK_EQ_INT(TF_TensorElementCount(t), n);
  for (i = 0; i < n; i++) {
    int64_t got = dt == TF_INT32 ? ((const int32_t*)TF_TensorData(t))[i]
                                 : ((const int64_t*)TF_TensorData(t))[i];
    CHECK_EQ_INT(got, want[i]);
  }
  TF_DeleteTensor(t);
}

static int32_t length_of(fixture* f, TFE_TensorHandle* l) {
  TFE_TensorHandle* r = RUN(f, "TensorListLength", 0, l);
  CHECK_CODE(f->s, TF_OK);
  return read_i32(r, f->s);
}

static TFE_TensorHandle* stack_of(fixture* f, TFE_TensorHandle* l) {
  return RUN(f, "TensorListStack", TF_FLOAT, l, i32s(-1, f->s));
}

static TFE_TensorHandle* item_of(fixture* f, TFE_TensorHandle* l, int i) {
  return RUN(f, "TensorListGetItem", TF_FLOAT, l, i32s(i, f->s),
             i32s(-1, f->s));
}

static TFE_TensorHandle* element_shape_of(fixture* f, TFE_TensorHandle* l) {
  TFE_Op* op = TFE_NewOp(f->ctx, "TensorListElementShape", f->s);
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  TFE_OpAddInput(op, l, f->s);
  TFE_OpSetAttrType(op, "shape_type", TF_INT32);
  TFE_Execute(op, out, &n, f->s);
  TFE_DeleteOp(op);
  CHECK_CODE(f->s, TF_OK);
  return keep(out[0]);
}

/* [[0,1],[2,3],[4,5]] as a list of three [2] elements. */
static const float kA[6] = {0, 1, 2, 3, 4, 5};
static const int64_t kNoLead[1] = {0};

static TFE_TensorHandle* list_of(fixture* f, const float* v, int64_t rows,
                                 int64_t cols, const int32_t* shape,
                                 int rank) {
  TFE_TensorHandle* sh = rank < 0 ? i32s(-1, f->s) : i32v(shape, rank, f->s);
  TFE_TensorHandle* l =
      RUN(f, "TensorListFromTensor", 0, f32(v, rows, cols, f->s), sh);
  CHECK_CODE(f->s, TF_OK);
  return l;
}

static TFE_TensorHandle* reserve_of(fixture* f, const int32_t* shape,
                                    int rank, int32_t n) {
  TFE_TensorHandle* sh = rank < 0 ? i32s(-1, f->s) : i32v(shape, rank, f->s);
  TFE_TensorHandle* l =
      RUN(f, "TensorListReserve", TF_FLOAT, sh, i32s(n, f->s));
  CHECK_CODE(f->s, TF_OK);
  return l;
}

static TFE_TensorHandle* empty_of(fixture* f, const int32_t* shape, int rank,
                                  int32_t max_n) {
  TFE_TensorHandle* sh = rank < 0 ? i32s(-1, f->s) : i32v(shape, rank, f->s);
  TFE_TensorHandle* l =
      RUN(f, "EmptyTensorList", TF_FLOAT, sh, i32s(max_n, f->s));
  CHECK_CODE(f->s, TF_OK);
  return l;
}

static TFE_TensorHandle* push(fixture* f, TFE_TensorHandle* l,
                              TFE_TensorHandle* item) {
  TFE_TensorHandle* r = RUN(f, "TensorListPushBack", 0, l, item);
  CHECK_CODE(f->s, TF_OK);
  return r;
}

/* A list with element shape [-1,2] holding ones[1,2] then twos[2,2]. */
static TFE_TensorHandle* ragged_list(fixture* f) {
  static const float ones[2] = {1, 1}, twos[4] = {2, 2, 2, 2};
  static const int32_t shape[2] = {-1, 2};
  TFE_TensorHandle* l = empty_of(f, shape, 2, -1);
  l = push(f, l, f32(ones, 1, 2, f->s));
  return push(f, l, f32(twos, 2, 2, f->s));
}

static TFE_TensorHandle* concat_v2(fixture* f, TFE_TensorHandle* l,
                                   TFE_TensorHandle* shape,
                                   TFE_TensorHandle* lead,
                                   TFE_TensorHandle** lengths) {
  return RUN2(f, "TensorListConcatV2", TF_FLOAT, lengths, l, shape, lead);
}

/* ------------------------------------------------------------------------
 * TensorListConcat / TensorListConcatV2 */

TEST(concat_joins_elements_along_first_dim) {
  fixture f = setup();
  static const float want[6] = {1, 1, 2, 2, 2, 2};
  static const int64_t d32[2] = {3, 2}, lens[2] = {1, 2};
  static const int32_t i64shape_unused[1] = {0};
  static const int64_t es64[2] = {-1, 2};
  TFE_TensorHandle *l = ragged_list(&f), *len = NULL, *r;
  TFE_Op* op;
  TFE_TensorHandle* out[2];
  int n = 2;
  (void)i64shape_unused;
  r = concat_v2(&f, l, i32s(-1, f.s), i64v(kNoLead, 0, f.s), &len);
  expect_f32(&f, r, d32, 2, want);
  expect_ints(&f, len, TF_INT64, 2, lens);
  /* shape_type int64 */
  r = concat_v2(&f, l, i64v(es64, 2, f.s), i64v(kNoLead, 0, f.s), &len);
  expect_f32(&f, r, d32, 2, want);
  /* TensorListConcat (v1) */
  r = RUN2(&f, "TensorListConcat", TF_FLOAT, &len, l);
  expect_f32(&f, r, d32, 2, want);
  expect_ints(&f, len, TF_INT64, 2, lens);
  /* v1 with an element_shape attr */
  op = TFE_NewOp(f.ctx, "TensorListConcat", f.s);
  TFE_OpAddInput(op, l, f.s);
  TFE_OpSetAttrType(op, "element_dtype", TF_FLOAT);
  TFE_OpSetAttrShape(op, "element_shape", es64, 2, f.s);
  TFE_Execute(op, out, &n, f.s);
  TFE_DeleteOp(op);
  CHECK_CODE(f.s, TF_OK);
  keep(out[0]);
  keep(out[1]);
  expect_f32(&f, out[0], d32, 2, want);
  teardown(&f);
}

TEST(concat_fills_uninitialised_elements) {
  fixture f = setup();
  static const int32_t shape[2] = {-1, 2}, fd[2] = {2, 2}, four[2] = {4, 2};
  static const float ones[4] = {1, 1, 1, 1};
  static const float want_inferred[12] = {0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0};
  static const float want_lead[12] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0};
  static const float zeros[24] = {0};
  static const int64_t lead[3] = {1, 5, 3}, lens222[3] = {2, 2, 2},
                       lens123[3] = {1, 2, 3}, lens444[3] = {4, 4, 4},
                       lens22[2] = {2, 2}, d62[2] = {6, 2}, d122[2] = {12, 2},
                       d42[2] = {4, 2};
  TFE_TensorHandle *res = reserve_of(&f, shape, 2, 3), *set, *r, *len = NULL;
  TFE_TensorHandle* fdl = reserve_of(&f, fd, 2, 2);
  set = RUN(&f, "TensorListSetItem", 0, res, i32s(1, f.s),
            f32(ones, 2, 2, f.s));
  CHECK_CODE(f.s, TF_OK);
  /* The first dimension of set elements is used for the others. */
  r = concat_v2(&f, set, i32s(-1, f.s), i64v(kNoLead, 0, f.s), &len);
  expect_f32(&f, r, d62, 2, want_inferred);
  expect_ints(&f, len, TF_INT64, 3, lens222);
  r = RUN2(&f, "TensorListConcat", TF_FLOAT, &len, set);
  expect_f32(&f, r, d62, 2, want_inferred);
  /* leading_dims gives the uninitialised ones' lengths. */
  r = concat_v2(&f, set, i32s(-1, f.s), i64v(lead, 3, f.s), &len);
  expect_f32(&f, r, d62, 2, want_lead);
  expect_ints(&f, len, TF_INT64, 3, lens123);
  /* A fully defined element_shape input. */
  r = concat_v2(&f, res, i32v(four, 2, f.s), i64v(kNoLead, 0, f.s), &len);
  expect_f32(&f, r, d122, 2, zeros);
  expect_ints(&f, len, TF_INT64, 3, lens444);
  /* A fully defined list shape. */
  r = concat_v2(&f, fdl, i32s(-1, f.s), i64v(kNoLead, 0, f.s), &len);
  expect_f32(&f, r, d42, 2, zeros);
  expect_ints(&f, len, TF_INT64, 2, lens22);
  teardown(&f);
}

TEST(concat_errors_match_tensorflow) {
  fixture f = setup();
  static const int32_t shape[2] = {-1, 2}, fd[2] = {2, 2}, m13[2] = {-1, 3},
                       one2[2] = {1, 2};
  static const float v3[3] = {1, 2, 3}, a12[2] = {1, 1}, a13[3] = {1, 1, 1};
  static const int64_t one[1] = {1}, d03[2] = {0, 3}, lens0[1] = {0};
  TFE_TensorHandle *res = reserve_of(&f, shape, 2, 3), *r, *len = NULL;
  TFE_TensorHandle *fdl = reserve_of(&f, fd, 2, 2), *em = empty_of(&f, NULL, -1, -1);
  TFE_TensorHandle *ragged = ragged_list(&f), *mis;
  TFE_Op* op;
  TFE_TensorHandle* out[2];
  int n = 2;

  r = RUN2(&f, "TensorListConcat", TF_FLOAT, &len,
           list_of(&f, v3, 3, -1, NULL, -1));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Concat saw a scalar shape at index 0 but requires at least "
               "vectors.");
  r = concat_v2(&f, list_of(&f, kA, 3, 2, NULL, -1), i32v(NULL, 0, f.s),
                i64v(kNoLead, 0, f.s), &len);
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Concat requires elements to be at least vectors, found "
               "scalars instead.");
  r = RUN2(&f, "TensorListConcatV2", TF_INT32, &len, ragged, i32s(-1, f.s),
           i64v(kNoLead, 0, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Invalid data types; op elements int32 but list elements "
               "float");
  r = concat_v2(&f, res, i32s(-1, f.s), i64v(one, 1, f.s), &len);
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "List contains uninitialized tensor at index 1 but "
               "leading_dims has only 1 elements.");
  r = RUN2(&f, "TensorListConcat", TF_FLOAT, &len, fdl);
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Trying to concat list with only uninitialized tensors but "
               "element_shape_except_first_dim is not fully defined: "
               "<unknown>");
  op = TFE_NewOp(f.ctx, "TensorListConcat", f.s);
  TFE_OpAddInput(op, fdl, f.s);
  TFE_OpSetAttrType(op, "element_dtype", TF_FLOAT);
  {
    static const int64_t es[2] = {2, 2};
    TFE_OpSetAttrShape(op, "element_shape", es, 2, f.s);
  }
  TFE_Execute(op, out, &n, f.s);
  TFE_DeleteOp(op);
  expect_error(&f, NULL, TF_INVALID_ARGUMENT,
               "Concating lists with uninitialized tensors is not supported "
               "in this version of TensorListConcat. Consider updating your "
               "GraphDef to run the newer version.");
  r = concat_v2(&f, em, i32s(-1, f.s), i64v(kNoLead, 0, f.s), &len);
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "All except the first dimension must be fully defined when "
               "concating an empty tensor list. element_shape: <unknown>");
  r = concat_v2(&f, em, i32v(m13, 2, f.s), i64v(kNoLead, 0, f.s), &len);
  expect_f32(&f, r, d03, 2, NULL);
  expect_ints(&f, len, TF_INT64, 0, lens0);
  mis = push(&f, push(&f, em, f32(a12, 1, 2, f.s)), f32(a13, 1, 3, f.s));
  r = concat_v2(&f, mis, i32s(-1, f.s), i64v(kNoLead, 0, f.s), &len);
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "PartialTensorShape: Incompatible shapes during merge: [2] vs. "
               "[3]");
  r = concat_v2(&f, ragged, i32v(one2, 2, f.s), i64v(kNoLead, 0, f.s), &len);
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "First entry of element_shape input does not match the first "
               "dim of list element at index: 1 Expected: 1 Actual: 2");
  teardown(&f);
}

/* ------------------------------------------------------------------------
 * TensorListSplit */

TEST(split_makes_one_element_per_length) {
  fixture f = setup();
  static const float x[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  static const int32_t shape[2] = {-1, 2};
  static const int64_t lens[3] = {2, 0, 3}, d22[2] = {2, 2}, d02[2] = {0, 2},
                       d32[2] = {3, 2}, es[2] = {-1, 2}, five[1] = {5},
                       unknown[1] = {-1};
  TFE_TensorHandle *xs = f32(x, 5, 2, f.s), *l, *r;
  l = RUN(&f, "TensorListSplit", 0, xs, i32v(shape, 2, f.s),
          i64v(lens, 3, f.s));
  CHECK_CODE(f.s, TF_OK);
  CHECK_EQ_INT(length_of(&f, l), 3);
  expect_f32(&f, item_of(&f, l, 0), d22, 2, x);
  expect_f32(&f, item_of(&f, l, 1), d02, 2, NULL);
  expect_f32(&f, item_of(&f, l, 2), d32, 2, x + 4);
  r = element_shape_of(&f, l);
  expect_ints(&f, r, TF_INT32, 2, es);
  l = RUN(&f, "TensorListSplit", 0, xs, i32s(-1, f.s), i64v(five, 1, f.s));
  CHECK_CODE(f.s, TF_OK);
  r = element_shape_of(&f, l);
  expect_ints(&f, r, TF_INT32, 1, unknown);
  teardown(&f);
}

TEST(split_errors_match_tensorflow) {
  fixture f = setup();
  static const float x[10] = {0};
  static const int32_t m13[2] = {-1, 3};
  static const int64_t five[1] = {5}, neg[2] = {-1, 6}, over[2] = {2, 4},
                       unused[2] = {2, 2};
  TFE_TensorHandle *xs = f32(x, 5, 2, f.s), *r;
  r = RUN(&f, "TensorListSplit", 0, xs, i32v(NULL, 0, f.s),
          i64v(five, 1, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "TensorListSplit requires element_shape to be at least of "
               "rank 1, but saw: []");
  r = RUN(&f, "TensorListSplit", 0, f32_scalar(1, f.s), i32s(-1, f.s),
          i64v(five, 1, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Tensor must be at least a vector, but saw shape: []");
  r = RUN(&f, "TensorListSplit", 0, xs, i32v(m13, 2, f.s),
          i64v(five, 1, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "tensor shape [5,2] is not compatible with element_shape "
               "[?,3]");
  {
    int64_t d11[2] = {1, 1};
    TFE_TensorHandle* m =
        keep(make_handle(TF_INT64, d11, 2, five, sizeof(int64_t), f.s));
    r = RUN(&f, "TensorListSplit", 0, xs, i32s(-1, f.s), m);
    expect_error(&f, r, TF_INVALID_ARGUMENT,
                 "Expected lengths to be a vector, received shape: [1,1]");
  }
  r = RUN(&f, "TensorListSplit", 0, xs, i32s(-1, f.s), i64v(neg, 2, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT, "Invalid value in lengths: -1");
  r = RUN(&f, "TensorListSplit", 0, xs, i32s(-1, f.s), i64v(over, 2, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Attempting to slice [2, 6] from tensor with length 5");
  r = RUN(&f, "TensorListSplit", 0, xs, i32s(-1, f.s), i64v(unused, 2, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Unused values in tensor. Length of tensor: 5 Values used: 4");
  teardown(&f);
}

/* ------------------------------------------------------------------------
 * TensorListGather */

TEST(gather_stacks_selected_elements) {
  fixture f = setup();
  static const int32_t idx[3] = {2, 0, 2}, idx2[4] = {2, 0, 1, 1},
                       two[1] = {2}, i01[2] = {0, 1};
  static const float want[6] = {4, 5, 0, 1, 4, 5};
  static const float want2[8] = {4, 5, 0, 1, 2, 3, 2, 3};
  static const float ones[2] = {1, 1}, zero_one[4] = {0, 0, 1, 1};
  static const float zeros[4] = {0};
  static const int64_t d32[2] = {3, 2}, d42[2] = {4, 2}, d02[2] = {0, 2},
                       d22[2] = {2, 2};
  TFE_TensorHandle *l = list_of(&f, kA, 3, 2, NULL, -1), *r, *ru, *rs;
  r = RUN(&f, "TensorListGather", TF_FLOAT, l, i32v(idx, 3, f.s),
          i32s(-1, f.s));
  expect_f32(&f, r, d32, 2, want);
  /* Indices of any rank are read flat. */
  r = RUN(&f, "TensorListGather", TF_FLOAT, l, i32m(idx2, 2, 2, f.s),
          i32s(-1, f.s));
  expect_f32(&f, r, d42, 2, want2);
  r = RUN(&f, "TensorListGather", TF_FLOAT, l, i32v(NULL, 0, f.s),
          i32v(two, 1, f.s));
  expect_f32(&f, r, d02, 2, NULL);
  /* Uninitialised elements: zeros of the given or inferred shape. */
  ru = reserve_of(&f, NULL, -1, 3);
  r = RUN(&f, "TensorListGather", TF_FLOAT, ru, i32v(i01, 2, f.s),
          i32v(two, 1, f.s));
  expect_f32(&f, r, d22, 2, zeros);
  rs = RUN(&f, "TensorListSetItem", 0, ru, i32s(1, f.s), f32(ones, 2, -1, f.s));
  r = RUN(&f, "TensorListGather", TF_FLOAT, rs, i32v(i01, 2, f.s),
          i32s(-1, f.s));
  expect_f32(&f, r, d22, 2, zero_one);
  teardown(&f);
}

TEST(gather_errors_match_tensorflow) {
  fixture f = setup();
  static const int32_t oob[2] = {0, 3}, neg[1] = {-1}, zero[1] = {0},
                       i02[2] = {0, 2}, three[1] = {3};
  static const float ones[2] = {1, 1};
  TFE_TensorHandle *l = list_of(&f, kA, 3, 2, NULL, -1), *r, *ru, *rs;
  r = RUN(&f, "TensorListGather", TF_FLOAT, l, i32v(NULL, 0, f.s),
          i32s(-1, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Tried to gather 0-elements from a list with non-fully-defined "
               "shape: <unknown>");
  r = RUN(&f, "TensorListGather", TF_FLOAT, l, i32v(oob, 2, f.s),
          i32s(-1, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Trying to gather element 3 in a list with 3 elements.");
  r = RUN(&f, "TensorListGather", TF_FLOAT, l, i32v(neg, 1, f.s),
          i32s(-1, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Trying to gather element -1 in a list with 3 elements.");
  r = RUN(&f, "TensorListGather", TF_INT32, l, i32v(zero, 1, f.s),
          i32s(-1, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Invalid data types; op elements int32 but list elements "
               "float");
  r = RUN(&f, "TensorListGather", TF_FLOAT, l, i32v(zero, 1, f.s),
          i32v(three, 1, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "PartialTensorShape: Incompatible shapes during merge: [3] vs. "
               "[2]");
  ru = reserve_of(&f, NULL, -1, 3);
  r = RUN(&f, "TensorListGather", TF_FLOAT, ru, i32v(zero, 1, f.s),
          i32s(-1, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Tried to gather uninitialized tensors from a list with "
               "non-fully-defined element_shape: <unknown>");
  rs = RUN(&f, "TensorListSetItem", 0, ru, i32s(1, f.s), f32(ones, 2, -1, f.s));
  r = RUN(&f, "TensorListGather", TF_FLOAT, rs, i32v(i02, 2, f.s),
          i32s(-1, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Tried to gather uninitialized tensors from a list with "
               "non-fully-defined element_shape: <unknown>");
  teardown(&f);
}

/* ------------------------------------------------------------------------
 * TensorListScatter / V2 / IntoExistingList */

TEST(scatter_builds_lists) {
  fixture f = setup();
  static const int32_t idx[3] = {3, 0, 3}, idx301[3] = {3, 0, 1},
                       m1[1] = {-1}, col[3] = {0, 1, 2};
  static const float want[8] = {2, 3, 0, 0, 0, 0, 4, 5};
  static const float zeros[2] = {0, 0};
  static const int64_t d42[2] = {4, 2}, d2[1] = {2}, m1_64[1] = {-1};
  TFE_TensorHandle *a = f32(kA, 3, 2, f.s), *l, *r;
  /* A later duplicate index wins; the gaps are uninitialised. */
  l = RUN(&f, "TensorListScatter", 0, a, i32v(idx, 3, f.s), i32s(-1, f.s));
  CHECK_CODE(f.s, TF_OK);
  expect_f32(&f, stack_of(&f, l), d42, 2, want);
  l = RUN(&f, "TensorListScatter", 0, a, i32v(idx301, 3, f.s),
          i32s(-1, f.s));
  CHECK_EQ_INT(length_of(&f, l), 4);
  expect_f32(&f, item_of(&f, l, 2), d2, 1, zeros);
  l = RUN(&f, "TensorListScatterV2", 0, a, i32v(idx301, 3, f.s),
          i32s(-1, f.s), i32s(6, f.s));
  CHECK_CODE(f.s, TF_OK);
  CHECK_EQ_INT(length_of(&f, l), 6);
  /* Indices of any rank are read flat. */
  l = RUN(&f, "TensorListScatter", 0, a, i32m(col, 3, 1, f.s),
          i32v(m1, 1, f.s));
  CHECK_CODE(f.s, TF_OK);
  CHECK_EQ_INT(length_of(&f, l), 3);
  r = element_shape_of(&f, l);
  expect_ints(&f, r, TF_INT32, 1, m1_64);
  teardown(&f);
}

TEST(scatter_errors_match_tensorflow) {
  fixture f = setup();
  static const int32_t idx301[3] = {3, 0, 1}, neg[3] = {3, -1, 1},
                       two[2] = {3, 1}, zero[1] = {0}, col[3] = {0, 1, 2},
                       three[1] = {3};
  TFE_TensorHandle *a = f32(kA, 3, 2, f.s), *r;
  r = RUN(&f, "TensorListScatterV2", 0, a, i32v(idx301, 3, f.s),
          i32s(-1, f.s), i32s(2, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "TensorListScatter: Trying to scatter at index 3 in list with "
               "size 2");
  r = RUN(&f, "TensorListScatterV2", 0, a, i32v(idx301, 3, f.s),
          i32s(-1, f.s), i32s(-2, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "TensorListScatter expects num_elements >= -1, found: -2");
  r = RUN(&f, "TensorListScatter", 0, a, i32v(neg, 3, f.s), i32s(-1, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Indices in TensorListScatter must all be non-negative.");
  r = RUN(&f, "TensorListScatter", 0, a, i32v(two, 2, f.s), i32s(-1, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Invalid number of rows in input tensor. Expected: 2 Actual: "
               "3");
  r = RUN(&f, "TensorListScatter", 0, f32_scalar(1, f.s), i32v(zero, 1, f.s),
          i32s(-1, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Tensor must be at least a vector, but saw shape: []");
  r = RUN(&f, "TensorListScatter", 0, a, i32v(col, 3, f.s),
          i32v(three, 1, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Specified a list with shape [3] from a tensor with shape [2]");
  teardown(&f);
}

TEST(scatter_into_existing_list) {
  fixture f = setup();
  static const float rows[4] = {9, 9, 8, 8};
  static const int32_t idx[2] = {4, 1}, idx3[3] = {4, 1, 0};
  static const int64_t d2[1] = {2}, d02[2] = {0, 2};
  TFE_TensorHandle *l = list_of(&f, kA, 3, 2, NULL, -1), *r, *v;
  v = f32(rows, 2, 2, f.s);
  r = RUN(&f, "TensorListScatterIntoExistingList", 0, l, v, i32v(idx, 2, f.s));
  CHECK_CODE(f.s, TF_OK);
  CHECK_EQ_INT(length_of(&f, r), 5);
  expect_f32(&f, item_of(&f, r, 0), d2, 1, kA);
  expect_f32(&f, item_of(&f, r, 1), d2, 1, rows + 2);
  expect_f32(&f, item_of(&f, r, 4), d2, 1, rows);
  CHECK_EQ_INT(length_of(&f, l), 3); /* the input list is unchanged */
  r = RUN(&f, "TensorListScatterIntoExistingList", 0, l,
          f32(NULL, 0, 2, f.s), i32v(NULL, 0, f.s));
  CHECK_CODE(f.s, TF_OK);
  CHECK_EQ_INT(length_of(&f, r), 3);
  (void)d02;
  /* errors */
  {
    static const int32_t iv[4] = {9, 9, 8, 8};
    int64_t d22[2] = {2, 2};
    TFE_TensorHandle* ints =
        keep(make_handle(TF_INT32, d22, 2, iv, sizeof iv, f.s));
    r = RUN(&f, "TensorListScatterIntoExistingList", 0, l, ints,
            i32v(idx, 2, f.s));
    expect_error(&f, r, TF_INVALID_ARGUMENT,
                 "Invalid data types; input tensor type: int32 list "
                 "element_type: float");
  }
  r = RUN(&f, "TensorListScatterIntoExistingList", 0, l, f32_scalar(9, f.s),
          i32v(idx, 2, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Tensor must be at least a vector, but saw shape: []");
  r = RUN(&f, "TensorListScatterIntoExistingList", 0, l, v,
          i32m(idx, 1, 2, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Expected indices to be a vector, but received shape: [1,2]");
  r = RUN(&f, "TensorListScatterIntoExistingList", 0, l, v,
          i32v(idx3, 3, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Expected len(indices) == tensor.shape[0], but saw: 3 vs. 2");
  {
    static const int32_t neg[2] = {-1, 1};
    r = RUN(&f, "TensorListScatterIntoExistingList", 0, l, v,
            i32v(neg, 2, f.s));
    expect_error(&f, r, TF_INVALID_ARGUMENT, "must all be non-negative");
  }
  teardown(&f);
}

/* ------------------------------------------------------------------------
 * TensorListResize */

TEST(resize_grows_and_shrinks) {
  fixture f = setup();
  static const float grown[10] = {0, 1, 2, 3, 4, 5, 0, 0, 0, 0};
  static const int64_t d52[2] = {5, 2}, d12[2] = {1, 2};
  static const int32_t one[1] = {1};
  TFE_TensorHandle *l = list_of(&f, kA, 3, 2, NULL, -1), *r, *e;
  r = RUN(&f, "TensorListResize", 0, l, i32s(5, f.s));
  CHECK_CODE(f.s, TF_OK);
  CHECK_EQ_INT(length_of(&f, r), 5);
  expect_f32(&f, stack_of(&f, r), d52, 2, grown);
  r = RUN(&f, "TensorListResize", 0, l, i32s(1, f.s));
  expect_f32(&f, stack_of(&f, r), d12, 2, kA);
  r = RUN(&f, "TensorListResize", 0, l, i32s(-1, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "TensorListSlice expects size to be non-negative. Got: -1");
  r = RUN(&f, "TensorListResize", 0, l, i32v(one, 1, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT, "size must be a scalar");
  /* max_num_elements is kept. */
  e = empty_of(&f, NULL, -1, 1);
  r = RUN(&f, "TensorListResize", 0, e, i32s(1, f.s));
  r = RUN(&f, "TensorListPushBack", 0, r, f32_scalar(1, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Tried to push item into a full list list size: 1 "
               "max_num_elements: 1");
  teardown(&f);
}

/* ------------------------------------------------------------------------
 * Batches of lists: TensorListConcatLists, TensorListPushBackBatch, and the
 * generic ops that build them (Pack / Unpack on variant). */

static TFE_TensorHandle* pack2(fixture* f, TFE_TensorHandle* a,
                               TFE_TensorHandle* b) {
  TFE_TensorHandle* in[2];
  TFE_TensorHandle* out[1] = {NULL};
  TFE_Op* op = TFE_NewOp(f->ctx, "Pack", f->s);
  int n = 1;
  in[0] = a;
  in[1] = b;
  TFE_OpAddInputList(op, in, 2, f->s);
  CHECK_CODE(f->s, TF_OK);
  TFE_Execute(op, out, &n, f->s);
  TFE_DeleteOp(op);
  if (TF_GetCode(f->s) != TF_OK) return NULL;
  return keep(out[0]);
}

static void unpack2(fixture* f, TFE_TensorHandle* v, TFE_TensorHandle** a,
                    TFE_TensorHandle** b) {
  TFE_Op* op = TFE_NewOp(f->ctx, "Unpack", f->s);
  TFE_TensorHandle* out[2];
  int n = 2;
  TFE_OpAddInput(op, v, f->s);
  TFE_OpSetAttrInt(op, "num", 2);
  TFE_Execute(op, out, &n, f->s);
  TFE_DeleteOp(op);
  CHECK_CODE(f->s, TF_OK);
  *a = keep(out[0]);
  *b = keep(out[1]);
}

TEST(concat_lists_appends_b_to_a) {
  fixture f = setup();
  static const float a10[6] = {0, 10, 20, 30, 40, 50};
  static const float want[12] = {0, 1, 2, 3, 4, 5, 0, 10, 20, 30, 40, 50};
  static const float want0[8] = {0, 1, 2, 3, 4, 5, 0, 1};
  static const float want1[10] = {0, 1, 2, 3, 4, 5, 0, 1, 2, 3};
  static const int64_t d62[2] = {6, 2}, d42[2] = {4, 2}, d52[2] = {5, 2};
  TFE_TensorHandle *l = list_of(&f, kA, 3, 2, NULL, -1), *r, *x, *y;
  r = RUN(&f, "TensorListConcatLists", TF_FLOAT, l,
          list_of(&f, a10, 3, 2, NULL, -1));
  CHECK_CODE(f.s, TF_OK);
  expect_f32(&f, stack_of(&f, r), d62, 2, want);
  r = RUN(&f, "TensorListConcatLists", TF_FLOAT, pack2(&f, l, l),
          pack2(&f, list_of(&f, kA, 1, 2, NULL, -1),
                list_of(&f, kA, 2, 2, NULL, -1)));
  CHECK_CODE(f.s, TF_OK);
  unpack2(&f, r, &x, &y);
  expect_f32(&f, stack_of(&f, x), d42, 2, want0);
  expect_f32(&f, stack_of(&f, y), d52, 2, want1);
  /* a's max_num_elements is not enforced on the result (as in TF). */
  r = RUN(&f, "TensorListConcatLists", TF_FLOAT, empty_of(&f, NULL, -1, 1), l);
  CHECK_EQ_INT(length_of(&f, r), 3);
  teardown(&f);
}

TEST(concat_lists_errors_match_tensorflow) {
  fixture f = setup();
  static const int32_t two[1] = {2}, m1[1] = {-1};
  static const int32_t ia[6] = {0, 1, 2, 3, 4, 5};
  int64_t d32[2] = {3, 2};
  TFE_TensorHandle *l = list_of(&f, kA, 3, 2, NULL, -1), *r, *li, *none;
  r = RUN(&f, "TensorListConcatLists", TF_FLOAT, pack2(&f, l, l), l);
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Incompatible input TensorList tensor shapes: [2] vs. []");
  r = RUN(&f, "TensorListConcatLists", TF_INT32, l, l);
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "input_a[0].dtype != element_dtype.  Saw: float vs. int32");
  li = RUN(&f, "TensorListFromTensor", 0,
           keep(make_handle(TF_INT32, d32, 2, ia, sizeof ia, f.s)),
           i32s(-1, f.s));
  r = RUN(&f, "TensorListConcatLists", TF_FLOAT, l, li);
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "input_b[0].dtype != element_dtype.  Saw: int32 vs. float");
  r = RUN(&f, "TensorListConcatLists", TF_FLOAT, l,
          list_of(&f, kA, 3, 2, two, 1));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "input_a and input_b TensorList element shapes are not "
               "identical at index 0.  Saw <unknown> vs. [2]");
  r = RUN(&f, "TensorListConcatLists", TF_FLOAT, list_of(&f, kA, 3, 2, m1, 1),
          list_of(&f, kA, 3, 2, m1, 1));
  CHECK_CODE(f.s, TF_OK);
  none = run_op(&f, "OptionalNone", NULL, 0, 0, 1, NULL);
  r = RUN(&f, "TensorListConcatLists", TF_FLOAT, l, none);
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "input_b is not a TensorList at index 0.  Saw: 'Variant<type: "
               "tensorflow::data::Optional");
  r = RUN(&f, "TensorListConcatLists", TF_FLOAT, none, l);
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "input_a is not a TensorList at index 0.  Saw: 'Variant<type: "
               "tensorflow::data::Optional");
  teardown(&f);
}

TEST(push_back_batch_appends_one_row_per_list) {
  fixture f = setup();
  static const float rows[4] = {7, 7, 8, 8};
  static const float want0[8] = {0, 1, 2, 3, 4, 5, 7, 7};
  static const float want1[4] = {0, 1, 8, 8};
  static const int64_t d42[2] = {4, 2}, d22[2] = {2, 2};
  TFE_TensorHandle *l = list_of(&f, kA, 3, 2, NULL, -1), *b2, *r, *x, *y;
  b2 = pack2(&f, l, list_of(&f, kA, 1, 2, NULL, -1));
  r = RUN(&f, "TensorListPushBackBatch", 0, b2, f32(rows, 2, 2, f.s));
  CHECK_CODE(f.s, TF_OK);
  unpack2(&f, r, &x, &y);
  expect_f32(&f, stack_of(&f, x), d42, 2, want0);
  expect_f32(&f, stack_of(&f, y), d22, 2, want1);
  CHECK_EQ_INT(length_of(&f, l), 3); /* inputs unchanged */
  teardown(&f);
}

TEST(push_back_batch_errors_match_tensorflow) {
  fixture f = setup();
  static const float rows[6] = {7, 7, 8, 8, 9, 9};
  static const int32_t two[1] = {2};
  static const int32_t ia[6] = {0, 1, 2, 3, 4, 5};
  int64_t d32[2] = {3, 2};
  TFE_TensorHandle *l = list_of(&f, kA, 3, 2, NULL, -1), *b2, *r, *li, *none;
  b2 = pack2(&f, l, list_of(&f, kA, 1, 2, NULL, -1));
  r = RUN(&f, "TensorListPushBackBatch", 0, b2, f32_scalar(1, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Expected tensor to be at least a vector, but saw shape: []");
  r = RUN(&f, "TensorListPushBackBatch", 0, l, f32(rows, 1, 2, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Expected input_handles to be a vector, but saw shape: []");
  r = RUN(&f, "TensorListPushBackBatch", 0, b2, f32(rows, 3, 2, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Expected tensor.shape[0] == input_handles.size, but saw 3 vs. "
               "2");
  r = RUN(&f, "TensorListPushBackBatch", 0,
          pack2(&f, list_of(&f, kA, 3, 2, two, 1), l),
          keep(make_handle(TF_FLOAT, d32, 2, rows, sizeof rows, f.s)));
  expect_error(&f, r, TF_INVALID_ARGUMENT, "but saw 3 vs. 2");
  {
    int64_t d23[2] = {2, 3};
    r = RUN(&f, "TensorListPushBackBatch", 0,
            pack2(&f, list_of(&f, kA, 3, 2, two, 1), l),
            keep(make_handle(TF_FLOAT, d23, 2, rows, sizeof rows, f.s)));
    expect_error(&f, r, TF_INVALID_ARGUMENT,
                 "Tried to append a tensor with incompatible shape to a list "
                 "at index 0. Op element shape: [3] list shape: [2]");
  }
  li = RUN(&f, "TensorListFromTensor", 0,
           keep(make_handle(TF_INT32, d32, 2, ia, sizeof ia, f.s)),
           i32s(-1, f.s));
  r = RUN(&f, "TensorListPushBackBatch", 0, pack2(&f, l, li),
          f32(rows, 2, 2, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Invalid data type at index 1; op elements float but list "
               "elements int32");
  none = run_op(&f, "OptionalNone", NULL, 0, 0, 1, NULL);
  r = RUN(&f, "TensorListPushBackBatch", 0, pack2(&f, l, none),
          f32(rows, 2, 2, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Input handle at index 1 is not a list. Saw: 'Variant<type: "
               "tensorflow::data::Optional");
  teardown(&f);
}

/* ------------------------------------------------------------------------
 * Generic ops on variant tensors: the objects are shared, not copied. */

TEST(generic_ops_move_variant_objects) {
  fixture f = setup();
  static const float b10[6] = {0, 10, 20, 30, 40, 50};
  static const int32_t idx[3] = {1, 0, 1}, mult[1] = {2}, dims2[1] = {2},
                       beg[1] = {1}, end[1] = {2}, strides[1] = {1},
                       perm[2] = {1, 0}, shape12[2] = {1, 2},
                       splits[2] = {1, 1};
  static const unsigned char cond[2] = {1, 0};
  static const int64_t d32[2] = {3, 2};
  TFE_TensorHandle *la = list_of(&f, kA, 3, 2, NULL, -1);
  TFE_TensorHandle *lb = list_of(&f, b10, 3, 2, NULL, -1);
  TFE_TensorHandle *v = pack2(&f, la, lb), *r, *x, *y, *rest[1];
  TFE_Op* op;
  TFE_TensorHandle* out[2];
  int n = 2;

  /* GatherV2 [1, 0, 1] -> lb, la, lb */
  r = RUN(&f, "GatherV2", 0, v, i32v(idx, 3, f.s), i32s(0, f.s));
  CHECK_CODE(f.s, TF_OK);
  CHECK_EQ_INT(TFE_TensorHandleDataType(r), TF_VARIANT);
  CHECK_EQ_INT(TFE_TensorHandleDim(r, 0, f.s), 3);
  r = RUN(&f, "GatherV2", 0, r, i32s(1, f.s), i32s(0, f.s));
  expect_f32(&f, stack_of(&f, r), d32, 2, kA);
  /* SelectV2 with a vector condition picks per element. */
  r = RUN(&f, "SelectV2", 0, bools(cond, 2, f.s), v, pack2(&f, lb, la));
  CHECK_CODE(f.s, TF_OK);
  unpack2(&f, r, &x, &y);
  expect_f32(&f, stack_of(&f, x), d32, 2, kA);
  expect_f32(&f, stack_of(&f, y), d32, 2, kA);
  r = RUN(&f, "Select", 0, bools(cond, 2, f.s), v, pack2(&f, lb, la));
  CHECK_CODE(f.s, TF_OK);
  /* Tile [la, lb] x2 -> [la, lb, la, lb] */
  r = RUN(&f, "Tile", 0, v, i32v(mult, 1, f.s));
  CHECK_CODE(f.s, TF_OK);
  CHECK_EQ_INT(TFE_TensorHandleDim(r, 0, f.s), 4);
  r = RUN(&f, "GatherV2", 0, r, i32s(3, f.s), i32s(0, f.s));
  expect_f32(&f, stack_of(&f, r), d32, 2, b10);
  /* Fill, StridedSlice, Transpose, Split, SplitV, BroadcastTo */
  r = RUN(&f, "Fill", 0, i32v(dims2, 1, f.s), la);
  CHECK_CODE(f.s, TF_OK);
  unpack2(&f, r, &x, &y);
  expect_f32(&f, stack_of(&f, y), d32, 2, kA);
  r = RUN(&f, "StridedSlice", 0, v, i32v(beg, 1, f.s), i32v(end, 1, f.s),
          i32v(strides, 1, f.s));
  CHECK_CODE(f.s, TF_OK);
  r = RUN(&f, "GatherV2", 0, r, i32s(0, f.s), i32s(0, f.s));
  expect_f32(&f, stack_of(&f, r), d32, 2, b10);
  r = RUN(&f, "Reshape", 0, v, i32v(shape12, 2, f.s));
  CHECK_CODE(f.s, TF_OK);
  r = RUN(&f, "Transpose", 0, r, i32v(perm, 2, f.s));
  CHECK_CODE(f.s, TF_OK);
  CHECK_EQ_INT(TFE_TensorHandleDim(r, 0, f.s), 2);
  CHECK_EQ_INT(TFE_TensorHandleDim(r, 1, f.s), 1);
  op = TFE_NewOp(f.ctx, "Split", f.s);
  TFE_OpAddInput(op, i32s(0, f.s), f.s);
  TFE_OpAddInput(op, v, f.s);
  TFE_OpSetAttrInt(op, "num_split", 2);
  TFE_Execute(op, out, &n, f.s);
  TFE_DeleteOp(op);
  CHECK_CODE(f.s, TF_OK);
  keep(out[0]);
  keep(out[1]);
  r = RUN(&f, "GatherV2", 0, out[1], i32s(0, f.s), i32s(0, f.s));
  expect_f32(&f, stack_of(&f, r), d32, 2, b10);
  op = TFE_NewOp(f.ctx, "SplitV", f.s);
  TFE_OpAddInput(op, v, f.s);
  TFE_OpAddInput(op, i32v(splits, 2, f.s), f.s);
  TFE_OpAddInput(op, i32s(0, f.s), f.s);
  TFE_OpSetAttrInt(op, "num_split", 2);
  n = 2;
  TFE_Execute(op, out, &n, f.s);
  TFE_DeleteOp(op);
  CHECK_CODE(f.s, TF_OK);
  keep(out[0]);
  keep(out[1]);
  r = RUN(&f, "BroadcastTo", 0, la, i32v(mult, 1, f.s));
  CHECK_CODE(f.s, TF_OK);
  CHECK_EQ_INT(TFE_TensorHandleDim(r, 0, f.s), 2);
  (void)rest;
  teardown(&f);
}

TEST(generic_ops_on_variant_keep_tensorflow_errors) {
  fixture f = setup();
  static const int32_t idx[1] = {2};
  TFE_TensorHandle *la = list_of(&f, kA, 3, 2, NULL, -1), *v, *r;
  v = pack2(&f, la, la);
  r = RUN(&f, "GatherV2", 0, v, i32v(idx, 1, f.s), i32s(0, f.s));
  expect_error(&f, r, TF_INVALID_ARGUMENT, "indices[0] = 2 is not in [0, 2)");
  r = pack2(&f, v, la);
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Shapes of all inputs must match: values[0].shape = [2] != "
               "values[1].shape = []");
  /* TensorFlow has no CPU kernel of these for variant. */
  {
    TFE_Op* op = TFE_NewOp(f.ctx, "ConcatV2", f.s);
    TFE_TensorHandle* in[2];
    TFE_TensorHandle* out[1] = {NULL};
    int n = 1;
    in[0] = v;
    in[1] = v;
    TFE_OpAddInputList(op, in, 2, f.s);
    TFE_OpAddInput(op, i32s(0, f.s), f.s);
    TFE_Execute(op, out, &n, f.s);
    TFE_DeleteOp(op);
    expect_error(&f, out[0], TF_NOT_FOUND, "Could not find device for node");
  }
  r = RUN(&f, "OnesLike", 0, la);
  expect_error(&f, r, TF_INVALID_ARGUMENT,
               "Value for attr 'T' of variant is not in the list of allowed "
               "values");
  teardown(&f);
}

TFE_TEST_MAIN
