/* Extreme int attrs and sizes (issue 13, defects 1 and 4).
 *
 * Regression tests for single defects (each failed before its fix; the
 * ones marked UBSan only failed in the sanitizer build, where the signed
 * overflow halts the process), then a sweep over every registered op with
 * a CPU kernel, with small inputs built by a fixed rule (a dtype the
 * kernel accepts, shapes [2,2], [], [1,2,2,4] and two empty ones):
 *  - attrs: every int and list(int) attr, one at a time and all together,
 *    at 0, -1, INT32_MIN, INT32_MAX, 2^31, 2^32, INT64_MIN and INT64_MAX,
 *    for three dtype choices;
 *  - values: every numeric input in turn, as a scalar or short vector
 *    holding one of those values (or NaN/inf for floats).
 * The sweep asserts only that nothing crashes, that each call ends OK or
 * with a proper error code, and that no object is left alive;
 * ASan/UBSan (the sanitizer build) do the rest. It is split into shards
 * (one ctest entry each) to stay well inside the per-test time limit.
 *
 * Environment: TFE_SWEEP_VERBOSE=1 prints every call before it runs (to
 * find the culprit of a crash); TFE_SWEEP_SUMMARY=1 prints the figures;
 * TFE_SWEEP_OP=<name> sweeps one op; TFE_SWEEP_SHOW_CODE=<code> prints the
 * messages of calls ending with that code; TFE_SWEEP_NO_ATTRS /
 * TFE_SWEEP_NO_VALUES leave out one half. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/checked.h"
#include "kernels/kernel.h"
#include "ops/op_registry.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/tf_tstring.h"
#include "tfe/tfe.h"
#include "tfe_test.h"

#if defined(__SANITIZE_ADDRESS__)
#define SWEEP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SWEEP_ASAN 1
#endif
#endif

#ifdef SWEEP_ASAN
/* A size taken from an extreme attr may ask for terabytes; the test wants
 * RESOURCE_EXHAUSTED from such a request, not an ASan abort or the machine
 * paging. */
const char* __asan_default_options(void);
const char* __asan_default_options(void) {
  return "allocator_may_return_null=1:max_allocation_size_mb=256";
}
#else
#include <sys/resource.h>
#endif

/* ---------------------------------------------------------------- helpers */

static TFE_Context* new_ctx(TF_Status* s) {
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* c = TFE_NewContext(o, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContextOptions(o);
  return c;
}

static TFE_TensorHandle* f32_handle(const int64_t* dims, int nd,
                                    const float* v, size_t n, TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, nd, n * sizeof(float));
  TFE_TensorHandle* h;
  CHECK(t != NULL);
  memcpy(TF_TensorData(t), v, n * sizeof(float));
  h = TFE_NewTensorHandle(t, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  return h;
}

static TFE_TensorHandle* i64_handle(const int64_t* dims, int nd,
                                    const int64_t* v, size_t n,
                                    TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(TF_INT64, dims, nd, n * sizeof(int64_t));
  TFE_TensorHandle* h;
  CHECK(t != NULL);
  memcpy(TF_TensorData(t), v, n * sizeof(int64_t));
  h = TFE_NewTensorHandle(t, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  return h;
}

static int64_t live_total(void) {
  return TFE_LiveObjectCount(TFE_OBJ_TENSOR) +
         TFE_LiveObjectCount(TFE_OBJ_TENSOR_BUFFER) +
         TFE_LiveObjectCount(TFE_OBJ_CONTEXT) +
         TFE_LiveObjectCount(TFE_OBJ_TENSOR_HANDLE) +
         TFE_LiveObjectCount(TFE_OBJ_OP);
}

/* Runs DepthToSpace or SpaceToDepth on x with block_size bs. */
static void run_depth_space(const char* name, int64_t bs, TF_Status* s) {
  TFE_Context* ctx = new_ctx(s);
  int64_t dims[4] = {1, 2, 2, 4};
  float v[16] = {0};
  TFE_TensorHandle* x = f32_handle(dims, 4, v, 16, s);
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, x, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpSetAttrInt(op, "block_size", bs);
  TFE_Execute(op, out, &n, s);
  if (TF_GetCode(s) == TF_OK) TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
}

/* ------------------------------------------------ regression: defect 1 */

/* block_size * block_size wrapped to 0 and the kernel divided by it
 * (SIGFPE). TF refuses the attr when its kernel reads it as an int32. */
TEST(depth_to_space_block_size_2pow32) {
  TF_Status* s = TF_NewStatus();
  run_depth_space("DepthToSpace", (int64_t)1 << 32, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "Attr block_size has value 4294967296 out of range for an "
               "int32");
  run_depth_space("DepthToSpace", INT64_MAX, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "out of range for an int32");
  /* Still works for a sane block size. */
  run_depth_space("DepthToSpace", 2, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
}

TEST(space_to_depth_block_size_2pow32) {
  TF_Status* s = TF_NewStatus();
  run_depth_space("SpaceToDepth", (int64_t)1 << 32, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "Attr block_size has value 4294967296 out of range for an "
               "int32");
  /* int32-sized but far larger than the image: a clean error, no
   * overflow in the output size. */
  run_depth_space("SpaceToDepth", INT32_MAX, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  run_depth_space("DepthToSpace", INT32_MAX, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  run_depth_space("SpaceToDepth", 2, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------ regression: defect 4 */

/* Runs Unpack(num=num) on a [2,2] float into `room` retvals. */
static void run_unpack(int64_t num, int room, TF_Status* s) {
  TFE_Context* ctx = new_ctx(s);
  int64_t dims[2] = {2, 2};
  float v[4] = {1, 2, 3, 4};
  TFE_TensorHandle* x = f32_handle(dims, 2, v, 4, s);
  TFE_TensorHandle* out[2] = {NULL, NULL};
  int n = room, i;
  TFE_Op* op = TFE_NewOp(ctx, "Unpack", s);
  CHECK_CODE(s, TF_OK);
  TFE_OpSetAttrInt(op, "num", num);
  TFE_OpAddInput(op, x, s);
  CHECK_CODE(s, TF_OK);
  TFE_Execute(op, out, &n, s);
  if (TF_GetCode(s) == TF_OK) {
    for (i = 0; i < n; i++) TFE_DeleteTensorHandle(out[i]);
  }
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
}

/* num = INT32_MAX: the runtime sized its dtype arrays with n_in + n_out + 1
 * (signed overflow; the Release build then reported "out of memory
 * preparing Unpack"). The op cannot return 2^31-1 outputs into two slots:
 * INVALID_ARGUMENT, as for any op given too few retvals. [UBSan] */
TEST(unpack_num_int32_max) {
  TF_Status* s = TF_NewStatus();
  run_unpack(INT32_MAX, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "Expecting 2147483647 outputs for Unpack, but *num_retvals "
               "is 2");
  /* 2^32 does not fit TF's int32 number attr. */
  run_unpack((int64_t)1 << 32, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "Attr num has value 4294967296 out of range for an int32");
  run_unpack(INT64_MIN, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  run_unpack(-1, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "must be at least minimum 0");
  /* The right num still works. */
  run_unpack(2, 2, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
}

/* Two list inputs sized by the same number attr: the expected input count
 * 2 * INT32_MAX overflowed an int. No built-in op has two such lists, so
 * the test registers one (the count is checked before any kernel
 * lookup). [UBSan] */
TEST(two_lists_n_int32_max) {
  static const char* const specs[] = {"in: a: N * float", "in: b: N * float",
                                      "out: y: float", "attr: N: int >= 1",
                                      NULL};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  int64_t d1 = 1;
  float v = 1;
  TFE_TensorHandle* x;
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  TFE_Op* op;
  tfe_op_register_specs("TfeTestTwoLists", specs, s);
  CHECK_CODE(s, TF_OK);
  ctx = new_ctx(s);
  x = f32_handle(&d1, 1, &v, 1, s);
  op = TFE_NewOp(ctx, "TfeTestTwoLists", s);
  CHECK_CODE(s, TF_OK);
  TFE_OpSetAttrInt(op, "N", INT32_MAX);
  TFE_OpAddInputList(op, &x, 1, s);
  TFE_OpAddInputList(op, &x, 1, s);
  CHECK_CODE(s, TF_OK);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "expected 4294967294 inputs, got 2");
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

static void softmax_row(const char* name, float a, float b, float* y,
                        TF_Status* s) {
  TFE_Context* ctx = new_ctx(s);
  int64_t dims[2] = {1, 2};
  float v[2];
  TFE_TensorHandle* x;
  TFE_TensorHandle* out[1] = {NULL};
  TF_Tensor* t;
  int n = 1;
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  v[0] = a;
  v[1] = b;
  x = f32_handle(dims, 2, v, 2, s);
  TFE_OpAddInput(op, x, s);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  t = TFE_TensorHandleResolve(out[0], s);
  CHECK_CODE(s, TF_OK);
  memcpy(y, TF_TensorData(t), 2 * sizeof(float));
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
}

/* A NaN reached the integer exponent assembly of the vectorised exp
 * (signed overflow). NaN or inf - inf in a row makes the row NaN, as in
 * TF. [UBSan] */
TEST(softmax_nan_inf) {
  TF_Status* s = TF_NewStatus();
  const char* names[2] = {"Softmax", "LogSoftmax"};
  float y[2];
  int i;
  for (i = 0; i < 2; i++) {
    softmax_row(names[i], NAN, 1.0f, y, s);
    CHECK(isnan(y[0]) && isnan(y[1]));
    softmax_row(names[i], INFINITY, 1.0f, y, s);
    CHECK(isnan(y[0]) && isnan(y[1]));
    softmax_row(names[i], -INFINITY, 1.0f, y, s);
    CHECK(!isnan(y[1]));
    softmax_row(names[i], 0.0f, 0.0f, y, s);
    CHECK(fabsf(y[0] - (i == 0 ? 0.5f : logf(0.5f))) < 1e-6f);
  }
  TF_DeleteStatus(s);
}

/* The flat offset of an index row was computed before the row was found
 * out of range (signed overflow). [UBSan] */
TEST(tensor_scatter_huge_indices) {
  static const char* const ops[4] = {"TensorScatterAdd", "TensorScatterSub",
                                     "TensorScatterMax", "TensorScatterMin"};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  int64_t xd[2] = {2, 2}, id[2] = {1, 2}, ud = 1;
  float xv[4] = {0}, uv = 1;
  int64_t iv[2] = {INT64_MAX, INT64_MAX};
  TFE_TensorHandle* x = f32_handle(xd, 2, xv, 4, s);
  TFE_TensorHandle* ix = i64_handle(id, 2, iv, 2, s);
  TFE_TensorHandle* up = f32_handle(&ud, 1, &uv, 1, s);
  int i;
  for (i = 0; i < 4; i++) {
    TFE_TensorHandle* out[1] = {NULL};
    int n = 1;
    TFE_Op* op = TFE_NewOp(ctx, ops[i], s);
    CHECK_CODE(s, TF_OK);
    TFE_OpAddInput(op, x, s);
    TFE_OpAddInput(op, ix, s);
    TFE_OpAddInput(op, up, s);
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s),
                       "indices[0] = [9223372036854775807, "
                       "9223372036854775807] does not index into shape [2,2]");
    TFE_DeleteOp(op);
  }
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(ix);
  TFE_DeleteTensorHandle(up);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------ the checked helpers */

/* The sorted segment ops size their output from the last id + 1: an id of
 * INT64_MAX overflowed that sum (UBSan); now a clean INVALID_ARGUMENT. */
TEST(segment_id_int64_max) {
  static const char* const ops[5] = {"SegmentSum", "SegmentMean", "SegmentMax",
                                     "SegmentMin", "SegmentProd"};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  int64_t xd = 2, idd = 2;
  float xv[2] = {1, 2};
  int64_t iv[2] = {INT64_MAX, INT64_MAX};
  TFE_TensorHandle* x = f32_handle(&xd, 1, xv, 2, s);
  TFE_TensorHandle* ids = i64_handle(&idd, 1, iv, 2, s);
  int i;
  for (i = 0; i < 5; i++) {
    TFE_TensorHandle* out[1] = {NULL};
    int n = 1;
    TFE_Op* op = TFE_NewOp(ctx, ops[i], s);
    CHECK_CODE(s, TF_OK);
    TFE_OpAddInput(op, x, s);
    TFE_OpAddInput(op, ids, s);
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "too large");
    TFE_DeleteOp(op);
  }
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(ids);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(checked_helpers) {
  int64_t r = 7;
  int ri = 7;
  size_t rz = 7;
  int64_t dims[3] = {INT64_MAX, INT64_MAX, 0};
  CHECK(!tfe_checked_mul_i64(INT64_MAX, 2, &r) && r == 7);
  CHECK(!tfe_checked_mul_i64(INT64_MIN, -1, &r) && r == 7);
  CHECK(tfe_checked_mul_i64((int64_t)1 << 31, (int64_t)1 << 31, &r) &&
        r == (int64_t)1 << 62);
  CHECK(!tfe_checked_add_i64(INT64_MAX, 1, &r));
  CHECK(!tfe_checked_sub_i64(INT64_MIN, 1, &r));
  CHECK(!tfe_checked_add_int(INT32_MAX, 1, &ri) && ri == 7);
  CHECK(!tfe_checked_mul_int(65536, 65536, &ri));
  CHECK(tfe_checked_mul_int(-46340, 46340, &ri) && ri == -46340 * 46340);
  CHECK(!tfe_checked_mul_sz(SIZE_MAX / 2 + 1, 2, &rz) && rz == 7);
  CHECK(!tfe_checked_add_sz(SIZE_MAX, 1, &rz));
  CHECK(tfe_fits_int32(INT32_MIN) && tfe_fits_int32(INT32_MAX));
  CHECK(!tfe_fits_int32((int64_t)INT32_MAX + 1) &&
        !tfe_fits_int32((int64_t)INT32_MIN - 1));
  /* a zero dim wins over an overflowing product */
  CHECK(tfe_checked_dims_product(dims, 3, &r) && r == 0);
  CHECK(!tfe_checked_dims_product(dims, 2, &r));
  dims[0] = -1;
  CHECK(!tfe_checked_dims_product(dims, 3, &r));
}

/* ------------------------------------------------------------- the sweep */

#define SWEEP_SHARDS 12
#define SWEEP_MAX_OUT 64

static const int64_t k_extremes[] = {
    0,         -1,        INT32_MAX, (int64_t)1 << 32, INT64_MAX,
    INT64_MIN, INT32_MIN, (int64_t)1 << 31};
#define NUM_EXTREMES ((int)(sizeof k_extremes / sizeof k_extremes[0]))

/* Ops left out by name, with the reason. (Collectives are swept: their
 * timeout_seconds attr is set short, so a group that never completes ends
 * in DEADLINE_EXCEEDED quickly.) */
static const char* const k_skip[] = {
    /* Abort's kernel ends the process on purpose (TF's does the same:
     * the op exists to kill the program), so no call of it can return. */
    "Abort",
    /* The staging-area ops take no handle: Unstage and StagePeek wait for
     * an element and Stage for room, and only a run's cancellation ends an
     * eager wait (as in TF). tests/python/test_containers_ops.py covers
     * them, waits included. */
    "Stage", "Unstage", "StagePeek",
    /* Staging maps: a take waits for its key (or any key), MapStage for
     * room once the map is at capacity; no handle input, so the sweep's
     * calls all reach the same map. tests/python/test_dataflow2_ops.py
     * covers them. */
    "MapStage", "MapUnstage", "MapPeek", "MapUnstageNoKey", "OrderedMapStage",
    "OrderedMapUnstage", "OrderedMapPeek", "OrderedMapUnstageNoKey",
    /* TF 1 readers take their next file from a queue and wait like a
     * dequeue while it is empty. tests/python/test_iosum_ops.py covers
     * them. */
    "ReaderRead", "ReaderReadV2", "ReaderReadUpTo", "ReaderReadUpToV2",
    NULL};

typedef struct sweep_stats {
  int ops_seen, ops_swept, ops_skipped, int_attrs, list_attrs;
  int calls, ok, errors;
  int by_code[32];
} sweep_stats;

/* Which allowed dtype a type attr gets: 0 float/int32/int64 when allowed,
 * 1 the first allowed, 2 the last allowed. */
static int g_type_pass;

static int skipped_by_name(const char* name) {
  int i;
  for (i = 0; k_skip[i] != NULL; i++) {
    if (strcmp(k_skip[i], name) == 0) return 1;
  }
  return 0;
}

static int type_allowed(const TF_DataType* types, int n, TF_DataType t) {
  int i;
  for (i = 0; i < n; i++) {
    if (types[i] == t) return 1;
  }
  return 0;
}

/* The dtype the sweep uses for a type attr: float, int32, int64 when
 * allowed (by the kernel's constraint, else the op's allowed list), else
 * the first allowed. */
static TF_DataType pick_type(const tfe_kernel_reg* reg, const tfe_attr_def* a) {
  static const TF_DataType pref[3] = {TF_FLOAT, TF_INT32, TF_INT64};
  const TF_DataType* types = NULL;
  int n = 0, i;
  for (i = 0; i < reg->num_constraints; i++) {
    if (strcmp(reg->constraints[i].attr, a->name) == 0) {
      types = reg->constraints[i].types;
      n = reg->constraints[i].num_types;
    }
  }
  if (types == NULL && a->has_allowed) {
    types = a->allowed.list.type;
    n = a->allowed.list_size;
  }
  if (types == NULL || n == 0) {
    if (a->has_default && !a->default_value.is_list) {
      return a->default_value.v.type;
    }
    return TF_FLOAT;
  }
  if (g_type_pass == 1) return types[0];
  if (g_type_pass == 2) return types[n - 1];
  for (i = 0; i < 3; i++) {
    if (type_allowed(types, n, pref[i])) return pref[i];
  }
  return types[0];
}

/* Element value 1 in dtype dt (size esz) written to p. */
static void put_one(TF_DataType dt, void* p, size_t esz) {
  memset(p, 0, esz);
  switch (dt) {
    case TF_FLOAT: { float f = 1; memcpy(p, &f, 4); break; }
    case TF_DOUBLE: { double d = 1; memcpy(p, &d, 8); break; }
    case TF_COMPLEX64: { float f = 1; memcpy(p, &f, 4); break; }
    case TF_COMPLEX128: { double d = 1; memcpy(p, &d, 8); break; }
    case TF_HALF: { uint16_t h = 0x3c00; memcpy(p, &h, 2); break; }
    case TF_BFLOAT16: { uint16_t h = 0x3f80; memcpy(p, &h, 2); break; }
    case TF_FLOAT8_E5M2: *(uint8_t*)p = 0x3c; break;
    case TF_FLOAT8_E4M3FN: *(uint8_t*)p = 0x38; break;
    default:
      /* integers (little-endian 1), bool, quantized */
      *(uint8_t*)p = 1;
      break;
  }
}

/* A tensor of dtype dt and the given shape filled with ones ("1" for
 * strings), or NULL when dt has no plain host layout. */
static TF_Tensor* ones(TF_DataType dt, const int64_t* dims, int nd) {
  int64_t n = 1;
  size_t esz;
  TF_Tensor* t;
  int i;
  if (!tfe_checked_dims_product(dims, nd, &n)) return NULL;
  if (dt == TF_STRING) {
    TF_TString* s;
    t = TF_AllocateTensor(dt, dims, nd, (size_t)n * sizeof(TF_TString));
    if (t == NULL) return NULL;
    s = (TF_TString*)TF_TensorData(t);
    for (i = 0; i < n; i++) TF_TString_Copy(&s[i], "1", 1);
    return t;
  }
  if (dt == TF_RESOURCE || dt == TF_VARIANT) return NULL;
  esz = TF_DataTypeSize(dt);
  if (esz == 0) return NULL;
  t = TF_AllocateTensor(dt, dims, nd, (size_t)n * esz);
  if (t == NULL) return NULL;
  for (i = 0; i < n; i++) put_one(dt, (char*)TF_TensorData(t) + i * esz, esz);
  return t;
}

/* One planned call: which attr gets which extreme value (attr NULL: the
 * baseline; all set: every int and list(int) attr at once) and which
 * input shape. */
typedef struct sweep_call {
  const tfe_attr_def* attr;
  int all;
  int64_t value;
  int shape; /* index into k_shapes */
  /* Value sweep: flat input vin (-1: none; -2: every numeric input) has
   * shape k_vshapes[vshape] and every element set to ival (converted to
   * its dtype). */
  int vin, vshape;
  int64_t ival;
  /* 1..3: instead of ival, a float input holds NaN, +inf or -inf */
  int fspec;
} sweep_call;

/* The input shapes: a matrix, a scalar, an NHWC image (for the spatial
 * ops), and two empty ones (an empty tensor with an extreme attr is where
 * loops over attr-sized ranges hide). */
static const int64_t k_shape22[2] = {2, 2};
static const int64_t k_shape4[4] = {1, 2, 2, 4};
static const int64_t k_shape4e[4] = {1, 1, 1, 0};
static const int64_t k_shape02[2] = {0, 2};
/* empty, with a dim whose products with the others overflow */
static const int64_t k_shape_huge0[3] = {(int64_t)1 << 62, 4, 0};
static const int64_t k_shape_0huge[4] = {0, (int64_t)1 << 40, (int64_t)1 << 40,
                                         4};
static const struct {
  const int64_t* dims;
  int nd;
} k_shapes[] = {{k_shape22, 2},    {NULL, 0},         {k_shape4, 4},
                {k_shape4e, 4},    {k_shape02, 2},    {k_shape_huge0, 3},
                {k_shape_0huge, 4}};
#define NUM_SHAPES ((int)(sizeof k_shapes / sizeof k_shapes[0]))

/* Shapes of the input that carries an extreme value: sizes, shapes,
 * indices and counts are scalars or short vectors. */
static const int64_t k_vec1[1] = {1};
static const int64_t k_vec2[1] = {2};
static const int64_t k_vec4[1] = {4};
static const struct {
  const int64_t* dims;
  int nd;
} k_vshapes[] = {{NULL, 0}, {k_vec1, 1}, {k_vec2, 1}, {k_vec4, 1}};
#define NUM_VSHAPES ((int)(sizeof k_vshapes / sizeof k_vshapes[0]))

/* Sets every element of numeric tensor t to v (converted as C converts;
 * floats get the nearest value), or with fspec 1..3 every element of a
 * floating-point tensor to NaN, +inf or -inf. Returns 0 for other
 * dtypes. */
static int fill_value(TF_Tensor* t, int64_t v, int fspec) {
  int64_t n = TF_TensorElementCount(t), i;
  void* d = TF_TensorData(t);
  if (fspec != 0) {
    double f = fspec == 1 ? NAN : fspec == 2 ? INFINITY : -INFINITY;
    uint16_t h = fspec == 1 ? 0x7e00 : fspec == 2 ? 0x7c00 : 0xfc00;
    uint16_t b = fspec == 1 ? 0x7fc0 : fspec == 2 ? 0x7f80 : 0xff80;
    for (i = 0; i < n; i++) {
      switch (TF_TensorType(t)) {
        case TF_FLOAT: ((float*)d)[i] = (float)f; break;
        case TF_DOUBLE: ((double*)d)[i] = f; break;
        case TF_HALF: ((uint16_t*)d)[i] = h; break;
        case TF_BFLOAT16: ((uint16_t*)d)[i] = b; break;
        default: return 0;
      }
    }
    return 1;
  }
  for (i = 0; i < n; i++) {
    switch (TF_TensorType(t)) {
      case TF_INT8: ((int8_t*)d)[i] = (int8_t)v; break;
      case TF_INT16: ((int16_t*)d)[i] = (int16_t)v; break;
      case TF_INT32: ((int32_t*)d)[i] = (int32_t)v; break;
      case TF_INT64: ((int64_t*)d)[i] = v; break;
      case TF_UINT8: ((uint8_t*)d)[i] = (uint8_t)v; break;
      case TF_UINT16: ((uint16_t*)d)[i] = (uint16_t)v; break;
      case TF_UINT32: ((uint32_t*)d)[i] = (uint32_t)v; break;
      case TF_UINT64: ((uint64_t*)d)[i] = (uint64_t)v; break;
      case TF_FLOAT: ((float*)d)[i] = (float)v; break;
      case TF_DOUBLE: ((double*)d)[i] = (double)v; break;
      default: return 0;
    }
  }
  return 1;
}

/* The int value an attr gets when it is not the one under test. */
static int64_t baseline_int(const tfe_attr_def* a, int is_number) {
  if (a->has_default && !a->default_value.is_list &&
      a->default_value.type == TF_ATTR_INT) {
    return a->default_value.v.i;
  }
  if (is_number) return a->has_minimum && a->minimum > 2 ? a->minimum : 2;
  return a->has_minimum && a->minimum > 1 ? a->minimum : 1;
}

static int is_number_attr(const tfe_op_def* def, const char* name) {
  int i;
  for (i = 0; i < def->num_inputs + def->num_outputs; i++) {
    const tfe_arg_def* g = i < def->num_inputs
                               ? &def->inputs[i]
                               : &def->outputs[i - def->num_inputs];
    if (g->number_attr != NULL && strcmp(g->number_attr, name) == 0) {
      return 1;
    }
  }
  return 0;
}

/* Sets every attr of op: the one under test to its extreme, the others to
 * defaults (left unset) or baseline values. Runs before the inputs are
 * added: the first value set for an attr is kept, so inference from the
 * inputs does not undo the extreme value. Returns 0 when the op has an
 * attr the sweep cannot fill (a func). */
static int set_attrs(TFE_Op* op, const tfe_op_def* def,
                     const tfe_kernel_reg* reg, const sweep_call* c,
                     TF_DataType* chosen, TF_Status* s) {
  int i, j;
  for (i = 0; i < def->num_attrs; i++) {
    const tfe_attr_def* a = &def->attrs[i];
    int number = is_number_attr(def, a->name);
    chosen[i] = TF_FLOAT;
    if (a->type == TF_ATTR_TYPE) {
      TF_DataType t = pick_type(reg, a);
      chosen[i] = t;
      if (a->is_list) {
        TF_DataType ts[4];
        int n = a->has_minimum && a->minimum > 1 ? (int)a->minimum : 1;
        if (n > 4) n = 4;
        for (j = 0; j < n; j++) ts[j] = t;
        TFE_OpSetAttrTypeList(op, a->name, ts, n);
      } else {
        TFE_OpSetAttrType(op, a->name, t);
      }
      continue;
    }
    if (a->type == TF_ATTR_INT) {
      if (c->attr == a || c->all) {
        if (a->is_list) {
          int64_t vs[8];
          int n = a->has_default && a->default_value.list_size > 0
                      ? a->default_value.list_size
                      : 4;
          if (n > 8) n = 8;
          for (j = 0; j < n; j++) vs[j] = c->value;
          TFE_OpSetAttrIntList(op, a->name, vs, n);
        } else {
          TFE_OpSetAttrInt(op, a->name, c->value);
        }
      } else if (!a->has_default) {
        if (a->is_list) {
          static const int64_t ones4[4] = {1, 1, 1, 1};
          TFE_OpSetAttrIntList(op, a->name, ones4, 4);
        } else {
          TFE_OpSetAttrInt(op, a->name, baseline_int(a, number));
        }
      }
      continue;
    }
    if (a->type == TF_ATTR_FLOAT && !a->is_list &&
        strcmp(a->name, "timeout_seconds") == 0) {
      TFE_OpSetAttrFloat(op, a->name, 0.02f);
      continue;
    }
    if (a->has_default) continue;
    switch (a->type) {
      case TF_ATTR_STRING:
        if (a->is_list) {
          TFE_OpSetAttrStringList(op, a->name, NULL, NULL, 0);
        } else if (a->has_allowed && a->allowed.list_size > 0) {
          TFE_OpSetAttrString(op, a->name, a->allowed.list.s.data[0],
                              a->allowed.list.s.len[0]);
        } else {
          TFE_OpSetAttrString(op, a->name, "", 0);
        }
        break;
      case TF_ATTR_FLOAT:
        if (a->is_list) {
          TFE_OpSetAttrFloatList(op, a->name, NULL, 0);
        } else {
          TFE_OpSetAttrFloat(op, a->name, 0.5f);
        }
        break;
      case TF_ATTR_BOOL:
        if (a->is_list) {
          TFE_OpSetAttrBoolList(op, a->name, NULL, 0);
        } else {
          TFE_OpSetAttrBool(op, a->name, 0);
        }
        break;
      case TF_ATTR_SHAPE:
        if (a->is_list) {
          TFE_OpSetAttrShapeList(op, a->name, NULL, NULL, 0, s);
        } else {
          TFE_OpSetAttrShape(op, a->name, k_shape22, 2, s);
        }
        break;
      case TF_ATTR_TENSOR: {
        TF_Tensor* t;
        if (a->is_list) return 0;
        t = ones(TF_FLOAT, NULL, 0);
        TFE_OpSetAttrTensor(op, a->name, t, s);
        TF_DeleteTensor(t);
        break;
      }
      default:
        return 0; /* func, placeholder */
    }
  }
  return 1;
}

/* The dtype named by attr `name` as set_attrs chose it, or TF_FLOAT. */
static TF_DataType chosen_type(const tfe_op_def* def, const char* name,
                               const TF_DataType* chosen) {
  int i;
  for (i = 0; i < def->num_attrs; i++) {
    if (strcmp(def->attrs[i].name, name) == 0 &&
        def->attrs[i].type == TF_ATTR_TYPE && !def->attrs[i].is_list) {
      return chosen[i];
    }
  }
  return TF_FLOAT;
}

/* Runs a one-output helper op; returns its output or NULL. */
static TFE_TensorHandle* run1(TFE_Op* op, TF_Status* s) {
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  return TF_GetCode(s) == TF_OK && n == 1 ? out[0] : NULL;
}

/* A live object for a resource or variant input: a fresh resource
 * variable of dtype dt holding ones([2,2]), or a TensorList of the rows of
 * ones([2,2]) of dtype dt. NULL (and the call is left out) when the helper
 * ops refuse dt. */
static TFE_TensorHandle* make_object(TFE_Context* ctx, TF_DataType kind,
                                     TF_DataType dt, TF_Status* s) {
  static int serial;
  TFE_TensorHandle* value;
  TFE_TensorHandle* h = NULL;
  TF_Tensor* t = ones(dt, k_shape22, 2);
  TFE_Op* op;
  if (t == NULL) return NULL;
  value = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t);
  if (value == NULL) return NULL;
  if (kind == TF_RESOURCE) {
    char name[32];
    snprintf(name, sizeof name, "sweep_var_%d", serial++);
    op = TFE_NewOp(ctx, "VarHandleOp", s);
    TFE_OpSetAttrType(op, "dtype", dt);
    TFE_OpSetAttrShape(op, "shape", NULL, -1, s);
    TFE_OpSetAttrString(op, "shared_name", name, strlen(name));
    h = run1(op, s);
    if (h != NULL) {
      TFE_TensorHandle* none;
      op = TFE_NewOp(ctx, "AssignVariableOp", s);
      TFE_OpAddInput(op, h, s);
      TFE_OpAddInput(op, value, s);
      {
        int n = 0;
        TFE_Execute(op, &none, &n, s);
        TFE_DeleteOp(op);
      }
    }
  } else {
    int32_t unknown = -1;
    TF_Tensor* es = TF_AllocateTensor(TF_INT32, NULL, 0, 4);
    TFE_TensorHandle* esh;
    memcpy(TF_TensorData(es), &unknown, 4);
    esh = TFE_NewTensorHandle(es, s);
    TF_DeleteTensor(es);
    op = TFE_NewOp(ctx, "TensorListFromTensor", s);
    TFE_OpAddInput(op, value, s);
    TFE_OpAddInput(op, esh, s);
    h = run1(op, s);
    TFE_DeleteTensorHandle(esh);
  }
  TFE_DeleteTensorHandle(value);
  if (h != NULL && TF_GetCode(s) != TF_OK) {
    TFE_DeleteTensorHandle(h);
    h = NULL;
  }
  return h;
}

/* dtype of element k of input arg g, from the attrs chosen by set_attrs. */
static TF_DataType input_dtype(const tfe_op_def* def, const tfe_arg_def* g,
                               const TF_DataType* chosen) {
  int i;
  const char* name = g->type_attr != NULL ? g->type_attr : g->type_list_attr;
  if (name == NULL) return g->type;
  for (i = 0; i < def->num_attrs; i++) {
    if (strcmp(def->attrs[i].name, name) == 0) return chosen[i];
  }
  return TF_FLOAT;
}

/* Number of flat tensors input arg g takes in the sweep. */
static int input_count(const tfe_op_def* def, const tfe_arg_def* g) {
  const char* name = g->number_attr != NULL ? g->number_attr
                                            : g->type_list_attr;
  const tfe_attr_def* a;
  if (name == NULL) return 1;
  a = tfe_op_def_find_attr(def, name);
  if (a == NULL) return 1;
  if (g->number_attr != NULL) {
    int64_t n = baseline_int(a, 1);
    return n < 0 ? 0 : n > 4 ? 4 : (int)n;
  }
  return a->has_minimum && a->minimum > 1 ? (a->minimum > 4 ? 4
                                                            : (int)a->minimum)
                                          : 1;
}

/* NULL when the sweep can build inputs for the op, else why not:
 * reference inputs, func attrs, or the skip list. (Resource and variant
 * inputs get a fresh variable or TensorList, make_object.) */
static const char* unsweepable(const tfe_op_def* def) {
  int i;
  if (skipped_by_name(def->name)) return "skip list";
  for (i = 0; i < def->num_inputs; i++) {
    const tfe_arg_def* g = &def->inputs[i];
    if (g->is_ref) return "reference input";
  }
  for (i = 0; i < def->num_attrs; i++) {
    if (def->attrs[i].type == TF_ATTR_FUNC) return "func attr";
  }
  return NULL;
}

static const tfe_kernel_reg* cpu_kernel(const tfe_op_def* def) {
  int i, n = tfe_kernel_count();
  for (i = 0; i < n; i++) {
    const tfe_kernel_reg* r = tfe_kernel_at(i);
    if (r != NULL && strcmp(r->device_type, "CPU") == 0 &&
        strcmp(r->op_name, def->name) == 0) {
      return r;
    }
  }
  return NULL;
}

static void run_call(TFE_Context* ctx, const tfe_op_def* def,
                     const tfe_kernel_reg* reg, const sweep_call* c,
                     sweep_stats* st, int verbose) {
  TF_Status* s = TF_NewStatus();
  TFE_Op* op;
  TF_DataType chosen[64];
  TFE_TensorHandle* made[64];
  TFE_TensorHandle* out[SWEEP_MAX_OUT];
  int nmade = 0, i, j, nout = SWEEP_MAX_OUT;
  TF_Code code;
  if (def->num_attrs > 64) {
    TF_DeleteStatus(s);
    return;
  }
  if (verbose) {
    fprintf(stderr, "sweep: %s %s=%lld shape#%d types#%d input#%d=%lld "
            "fspec#%d vshape#%d\n", def->name,
            c->all ? "(all)" : c->attr ? c->attr->name : "(baseline)",
            (long long)c->value, c->shape, g_type_pass, c->vin,
            (long long)c->ival, c->fspec, c->vshape);
  }
  op = TFE_NewOp(ctx, def->name, s);
  CHECK_CODE(s, TF_OK);
  if (!set_attrs(op, def, reg, c, chosen, s)) goto done;
  for (i = 0; i < def->num_inputs && nmade < 60; i++) {
    const tfe_arg_def* g = &def->inputs[i];
    int n = input_count(def, g);
    TFE_TensorHandle* list[4];
    for (j = 0; j < n; j++) {
      TF_DataType dt = input_dtype(def, g, chosen);
      int under_test =
          nmade == c->vin ||
          (c->vin == -2 && dt != TF_RESOURCE && dt != TF_VARIANT &&
           dt != TF_STRING && dt != TF_BOOL);
      TF_Tensor* t;
      if (dt == TF_RESOURCE || dt == TF_VARIANT) {
        TF_DataType et = chosen_type(
            def, dt == TF_RESOURCE ? "dtype" : "element_dtype", chosen);
        TFE_TensorHandle* h;
        if (under_test) goto done;
        h = make_object(ctx, dt, et, s);
        if (h == NULL) goto done;
        list[j] = h;
        made[nmade++] = h;
        continue;
      }
      t =
          under_test ? ones(dt, k_vshapes[c->vshape].dims,
                            k_vshapes[c->vshape].nd)
                     : ones(dt, k_shapes[c->shape].dims, k_shapes[c->shape].nd);
      if (t == NULL) goto done;
      if (under_test && !fill_value(t, c->ival, c->fspec)) {
        TF_DeleteTensor(t);
        if (c->vin != -2) goto done;
        /* all-inputs mode: this dtype has no such value; keep ones */
        t = ones(dt, k_vshapes[c->vshape].dims, k_vshapes[c->vshape].nd);
        if (t == NULL) goto done;
      }
      list[j] = TFE_NewTensorHandle(t, s);
      TF_DeleteTensor(t);
      CHECK_CODE(s, TF_OK);
      made[nmade++] = list[j];
    }
    if (g->number_attr != NULL || g->type_list_attr != NULL) {
      TFE_OpAddInputList(op, list, n, s);
    } else {
      TFE_OpAddInput(op, list[0], s);
    }
    CHECK_CODE(s, TF_OK);
  }
  TFE_Execute(op, out, &nout, s);
  code = TF_GetCode(s);
  st->calls++;
  if (code == TF_OK) {
    st->ok++;
    CHECK(nout >= 0 && nout <= SWEEP_MAX_OUT);
    for (i = 0; i < nout; i++) {
      /* a pending or poisoned handle resolves or reports, never crashes */
      TF_Tensor* t = TFE_TensorHandleResolve(out[i], s);
      TF_DeleteTensor(t);
      TFE_DeleteTensorHandle(out[i]);
    }
  } else {
    const char* show = getenv("TFE_SWEEP_SHOW_CODE");
    if (show != NULL && atoi(show) == (int)code) {
      fprintf(stderr, "sweep: %s -> %d %s\n", def->name, (int)code,
              TF_Message(s));
    }
    st->errors++;
    /* a real error code with a message */
    CHECK((int)code > 0 && (int)code <= 16);
    CHECK(TF_Message(s) != NULL && TF_Message(s)[0] != '\0');
  }
  if ((int)code >= 0 && (int)code < 32) st->by_code[code]++;
done:
  for (i = 0; i < nmade; i++) TFE_DeleteTensorHandle(made[i]);
  TFE_DeleteOp(op);
  TF_DeleteStatus(s);
}

/* Number of flat inputs the sweep gives the op. */
static int flat_inputs(const tfe_op_def* def) {
  int i, n = 0;
  for (i = 0; i < def->num_inputs; i++) n += input_count(def, &def->inputs[i]);
  return n;
}

/* Value sweep: each flat input in turn is a scalar or short vector whose
 * elements all hold one extreme value (sizes, dims, indices, counts,
 * paddings, multiples all arrive this way), or for a floating-point input
 * NaN, +inf or -inf; the other inputs take each of the shapes. Attrs keep their baseline values. Inputs of
 * non-numeric dtypes are left out. */
static void sweep_values(TFE_Context* ctx, const tfe_op_def* def,
                         const tfe_kernel_reg* reg, sweep_stats* st,
                         int verbose) {
  int nin = flat_inputs(def), vin, vshape, shape, v;
  g_type_pass = 0;
  /* vin -2: every numeric input at once */
  for (vin = nin > 1 ? -2 : 0; vin < nin && vin < 60; vin++) {
    if (vin == -1) continue;
    for (vshape = 0; vshape < NUM_VSHAPES; vshape++) {
      for (shape = 0; shape < NUM_SHAPES; shape++) {
        for (v = 0; v < NUM_EXTREMES + 3; v++) {
          sweep_call c;
          memset(&c, 0, sizeof c);
          c.shape = shape;
          c.vin = vin;
          c.vshape = vshape;
          if (v < NUM_EXTREMES) {
            c.ival = k_extremes[v];
          } else {
            c.fspec = v - NUM_EXTREMES + 1;
          }
          run_call(ctx, def, reg, &c, st, verbose);
        }
      }
    }
  }
}

/* Every shape and dtype choice: the baseline, each int attr at each
 * extreme, and (when the op has several) all of them at each extreme. */
static void sweep_op(TFE_Context* ctx, const tfe_op_def* def,
                     const tfe_kernel_reg* reg, sweep_stats* st,
                     int verbose) {
  int i, v, shape, nint = 0;
  for (i = 0; i < def->num_attrs; i++) {
    const tfe_attr_def* a = &def->attrs[i];
    if (a->type != TF_ATTR_INT) continue;
    nint++;
    if (a->is_list) {
      st->list_attrs++;
    } else {
      st->int_attrs++;
    }
  }
  for (g_type_pass = 0; g_type_pass < 3; g_type_pass++) {
    for (shape = 0; shape < NUM_SHAPES; shape++) {
      sweep_call c;
      memset(&c, 0, sizeof c);
      c.vin = -1;
      c.shape = shape;
      run_call(ctx, def, reg, &c, st, verbose);
      for (v = 0; v < NUM_EXTREMES; v++) {
        c.value = k_extremes[v];
        for (i = 0; i < def->num_attrs; i++) {
          const tfe_attr_def* a = &def->attrs[i];
          if (a->type != TF_ATTR_INT) continue;
          c.attr = a;
          run_call(ctx, def, reg, &c, st, verbose);
        }
        if (nint > 1) {
          c.attr = NULL;
          c.all = 1;
          run_call(ctx, def, reg, &c, st, verbose);
          c.all = 0;
        }
      }
    }
  }
}

static void sweep_shard(int shard) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  sweep_stats st;
  int i, n, verbose = getenv("TFE_SWEEP_VERBOSE") != NULL;
  const char* only = getenv("TFE_SWEEP_OP"); /* one op (debugging) */
  int64_t live0;
  time_t t0 = time(NULL);
#ifndef SWEEP_ASAN
  {
    /* Without ASan's allocation cap, cap the address space so that a
     * size from an extreme attr fails to allocate instead of paging. */
    struct rlimit rl;
    rl.rlim_cur = rl.rlim_max = (rlim_t)4 << 30;
    setrlimit(RLIMIT_AS, &rl);
  }
#endif
  memset(&st, 0, sizeof st);
  tfe_ops_ensure_builtins();
  tfe_kernels_ensure_builtins();
  /* Listing registers TF's generated definitions, a few of which hold
   * default tensors: before the baseline. */
  (void)tfe_op_count();
  live0 = live_total();
  ctx = new_ctx(s);
  n = tfe_op_count();
  for (i = 0; i < n; i++) {
    const tfe_op_def* def = tfe_op_at(i);
    const tfe_kernel_reg* reg;
    const char* why;
    if (def == NULL || i % SWEEP_SHARDS != shard) continue;
    if (only != NULL && strcmp(only, def->name) != 0) continue;
    reg = cpu_kernel(def);
    if (reg == NULL) continue;
    st.ops_seen++;
    why = unsweepable(def);
    if (why != NULL) {
      st.ops_skipped++;
      if (verbose) fprintf(stderr, "sweep: skip %s: %s\n", def->name, why);
      continue;
    }
    st.ops_swept++;
    {
      time_t op_t0 = time(NULL);
      if (getenv("TFE_SWEEP_NO_ATTRS") == NULL) {
        sweep_op(ctx, def, reg, &st, verbose);
      }
      if (getenv("TFE_SWEEP_NO_VALUES") == NULL) {
        sweep_values(ctx, def, reg, &st, verbose);
      }
      if (verbose) {
        fprintf(stderr, "sweep: %s took %lds\n", def->name, (long)(time(NULL) - op_t0));
      }
    }
  }
  TFE_DeleteContext(ctx);
  CHECK_EQ_INT(live_total(), live0);
  if (verbose || getenv("TFE_SWEEP_SUMMARY") != NULL) {
    fprintf(stderr,
            "sweep shard %d: %d ops with CPU kernels, %d swept, %d skipped; "
            "%d int attrs, %d list(int) attrs; %d calls: %d OK, %d errors "
            "by code:",
            shard, st.ops_seen, st.ops_swept, st.ops_skipped, st.int_attrs,
            st.list_attrs, st.calls, st.ok, st.errors);
    for (i = 1; i < 32; i++) {
      if (st.by_code[i] > 0) fprintf(stderr, " %d:%d", i, st.by_code[i]);
    }
    fprintf(stderr, "; %lds\n", (long)(time(NULL) - t0));
  }
  /* The shard really swept something. */
  CHECK(st.ops_swept > 0 || only != NULL);
  CHECK(st.calls > st.ops_swept);
  TF_DeleteStatus(s);
}

TEST(sweep_shard0) { sweep_shard(0); }
TEST(sweep_shard1) { sweep_shard(1); }
TEST(sweep_shard2) { sweep_shard(2); }
TEST(sweep_shard3) { sweep_shard(3); }
TEST(sweep_shard4) { sweep_shard(4); }
TEST(sweep_shard5) { sweep_shard(5); }
TEST(sweep_shard6) { sweep_shard(6); }
TEST(sweep_shard7) { sweep_shard(7); }
TEST(sweep_shard8) { sweep_shard(8); }
TEST(sweep_shard9) { sweep_shard(9); }
TEST(sweep_shard10) { sweep_shard(10); }
TEST(sweep_shard11) { sweep_shard(11); }

TFE_TEST_MAIN
