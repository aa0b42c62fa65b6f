/* The checkpoint and file ops, run eagerly (TFE_Execute) and in graphs
 * (sessions): SaveV2 / RestoreV2 / MergeV2Checkpoints, the V1 Save /
 * SaveSlices / Restore / RestoreSlice, ShardedFilename / ShardedFilespec,
 * ReadFile / WriteFile / MatchingFiles / ImmutableConst.
 *
 * Cross-checks with TensorFlow 2.21:
 *  - checkpoints TF wrote (tests/data/checkpoints/, checkpoints_v1/) are
 *    restored and compared with the values their scripts saved;
 *  - tests/data/checkpoints_tfe/ holds a checkpoint tfe wrote from the
 *    "golden" tensors below, which tools/check_checkpoints_in_tf.py
 *    verified in TF (values, and TF writing the same bytes); the
 *    golden_bytes tests assert tfe still writes exactly those files, so the
 *    TF check keeps holding.
 *
 * TFE_CKPT_REGEN=DIR makes the golden_bytes tests write DIR/ckpt.* and
 * DIR/v1_ckpt instead (to regenerate the data, then rerun the TF check). */
#define _GNU_SOURCE

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eager_test_util.h"
#include "graph_test_util.h"
#include "tensorflow/c/env.h"
#include "tensorflow/c/tf_tstring.h"
#include "test_fs_util.h"

#define DATA TFE_TEST_DATA_DIR

/* ------------------------------------------------------------------------
 * Tensors and op calls. */

static TF_Tensor* str_tensor(const char* const* s, const size_t* lens, int n,
                             int rank) {
  int64_t dims[1];
  TF_Tensor* t;
  int i;
  dims[0] = n;
  t = TF_AllocateTensor(TF_STRING, dims, rank, (size_t)n * sizeof(TF_TString));
  CHECK(t != NULL);
  for (i = 0; i < n; i++) {
    TF_TString* d = &((TF_TString*)TF_TensorData(t))[i];
    TF_TString_Init(d);
    TF_TString_Copy(d, s[i], lens != NULL ? lens[i] : strlen(s[i]));
  }
  return t;
}

static TF_Tensor* str_scalar(const char* s) { return str_tensor(&s, NULL, 1, 0); }

static TF_Tensor* num_tensor(TF_DataType dt, const int64_t* dims, int nd,
                             const void* data, size_t bytes) {
  TF_Tensor* t = TF_AllocateTensor(dt, dims, nd, bytes);
  CHECK(t != NULL);
  if (bytes) memcpy(TF_TensorData(t), data, bytes);
  return t;
}

static TFE_TensorHandle* h_of(TF_Tensor* t) {
  TF_Status* s = TF_NewStatus();
  TFE_TensorHandle* h = TFE_NewTensorHandle(t, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  TF_DeleteStatus(s);
  return h;
}

static TFE_Context* g_ctx;

static TFE_Context* ctx(void) {
  if (g_ctx == NULL) {
    TF_Status* s = TF_NewStatus();
    g_ctx = new_ctx(s);
    TF_DeleteStatus(s);
  }
  return g_ctx;
}

typedef struct {
  const char* name;
  int kind; /* 0 int, 1 bool, 2 type, 3 types, 4 string, 5 shape */
  int64_t i;
  const TF_DataType* types;
  int n;
  const char* s;
  const int64_t* dims;
} op_attr;

/* Runs op `name` with `nin` inputs (handles, not consumed) and attrs;
 * returns the status code (message in msg when not NULL, 1 KiB). Outputs
 * are resolved into out[] (caller deletes). */
static TF_Code run_op(const char* name, TFE_TensorHandle** in, int nin,
                      const op_attr* attrs, int nattrs, TF_Tensor** out,
                      int nout, char* msg) {
  TF_Status* s = TF_NewStatus();
  TFE_Op* op = TFE_NewOp(ctx(), name, s);
  TFE_TensorHandle* outs[64];
  int n = nout, i;
  TF_Code code;
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < nin; i++) {
    TFE_OpAddInput(op, in[i], s);
    CHECK_CODE(s, TF_OK);
  }
  for (i = 0; i < nattrs; i++) {
    const op_attr* a = &attrs[i];
    switch (a->kind) {
      case 0: TFE_OpSetAttrInt(op, a->name, a->i); break;
      case 1: TFE_OpSetAttrBool(op, a->name, (unsigned char)a->i); break;
      case 2: TFE_OpSetAttrType(op, a->name, (TF_DataType)a->i); break;
      case 3: TFE_OpSetAttrTypeList(op, a->name, a->types, a->n); break;
      case 4: TFE_OpSetAttrString(op, a->name, a->s, strlen(a->s)); break;
      case 5: TFE_OpSetAttrShape(op, a->name, a->dims, (int)a->i, s); break;
    }
  }
  CHECK(nout <= 64);
  TFE_Execute(op, outs, &n, s);
  code = TF_GetCode(s);
  if (msg != NULL) snprintf(msg, 1024, "%s", TF_Message(s));
  if (code == TF_OK) {
    CHECK_EQ_INT(n, nout);
    for (i = 0; i < n; i++) {
      if (out != NULL) {
        out[i] = TFE_TensorHandleResolve(outs[i], s);
        CHECK_CODE(s, TF_OK);
      }
      TFE_DeleteTensorHandle(outs[i]);
    }
  }
  TFE_DeleteOp(op);
  TF_DeleteStatus(s);
  return code;
}

static void del_handles(TFE_TensorHandle** h, int n) {
  int i;
  for (i = 0; i < n; i++) TFE_DeleteTensorHandle(h[i]);
}

static void check_str(const TF_Tensor* t, int64_t i, const char* want,
                      size_t n) {
  const TF_TString* s = &((const TF_TString*)TF_TensorData(t))[i];
  CHECK_EQ_SIZE(TF_TString_GetSize(s), n);
  CHECK(n == 0 || memcmp(TF_TString_GetDataPointer(s), want, n) == 0);
}

static void check_dims(const TF_Tensor* t, int nd, const int64_t* dims) {
  int i;
  CHECK_EQ_INT(TF_NumDims(t), nd);
  for (i = 0; i < nd; i++) CHECK_EQ_INT(TF_Dim(t, i), dims[i]);
}

static unsigned char* slurp(const char* path, size_t* len) {
  FILE* f = fopen(path, "rb");
  unsigned char* b;
  long n;
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  b = (unsigned char*)malloc((size_t)n + 1);
  CHECK(b != NULL);
  CHECK(fread(b, 1, (size_t)n, f) == (size_t)n);
  fclose(f);
  *len = (size_t)n;
  return b;
}

static void same_file(const char* a, const char* b) {
  size_t la = 0, lb = 0;
  unsigned char* x = slurp(a, &la);
  unsigned char* y = slurp(b, &lb);
  if (x == NULL || y == NULL) TFE_FAIL("cannot read %s or %s", a, b);
  if (la != lb || memcmp(x, y, la) != 0)
    TFE_FAIL("%s (%zu bytes) differs from %s (%zu bytes)", a, la, b, lb);
  free(x);
  free(y);
}

/* ------------------------------------------------------------------------
 * The golden tensors (tools/check_checkpoints_in_tf.py has the same
 * list). */

#define NGOLD 21

static const char* const kGoldNames[NGOLD] = {
    "a/float",    "b/double",  "c/int32",      "d/int64",      "e/bool",
    "f/string",   "g/half",    "h/bfloat16",   "i/complex64",  "j/complex128",
    "k/uint8",    "l/int16",   "m/int8",       "n/uint16",     "o/uint32",
    "p/uint64",   "q/scalar",  "r/empty",      "s/str_scalar", "part/w",
    "part/w"};
static const char* const kGoldSpecs[NGOLD] = {
    "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "",
    "", "4 3 0,2:-", "4 3 2,2:-"};

static const char* const kGoldStr[5] = {
    "hello", "",
    "\xc3\xa9t\xc3\xa9",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "nul\0byte"};
static const size_t kGoldStrLen[5] = {5, 0, 5, 200, 8};

static TF_Tensor* gold_tensor(int i) {
  switch (i) {
    case 0: {
      float v[6];
      int64_t d[2] = {2, 3};
      int k;
      for (k = 0; k < 6; k++) v[k] = (float)k * 0.5f - 1.0f;
      return num_tensor(TF_FLOAT, d, 2, v, sizeof v);
    }
    case 1: {
      double v[3] = {1.5, -2.25, 1e300};
      int64_t d[1] = {3};
      return num_tensor(TF_DOUBLE, d, 1, v, sizeof v);
    }
    case 2: {
      int32_t v[3] = {-7, 0, 2147483647};
      int64_t d[1] = {3};
      return num_tensor(TF_INT32, d, 1, v, sizeof v);
    }
    case 3: {
      int64_t v[2] = {-(INT64_C(1) << 40), INT64_C(1) << 62};
      int64_t d[2] = {2, 1};
      return num_tensor(TF_INT64, d, 2, v, sizeof v);
    }
    case 4: {
      unsigned char v[4] = {1, 0, 1, 1};
      int64_t d[1] = {4};
      return num_tensor(TF_BOOL, d, 1, v, sizeof v);
    }
    case 5:
      return str_tensor(kGoldStr, kGoldStrLen, 5, 1);
    case 6: {
      uint16_t v[3] = {0x3c00, 0xb800, 0x7bff};
      int64_t d[1] = {3};
      return num_tensor(TF_HALF, d, 1, v, sizeof v);
    }
    case 7: {
      uint16_t v[3] = {0x3f80, 0xc000, 0x3f00};
      int64_t d[1] = {3};
      return num_tensor(TF_BFLOAT16, d, 1, v, sizeof v);
    }
    case 8: {
      float v[4] = {1.0f, 2.0f, 0.0f, -3.5f};
      int64_t d[1] = {2};
      return num_tensor(TF_COMPLEX64, d, 1, v, sizeof v);
    }
    case 9: {
      double v[2] = {1e-300, -1e300};
      int64_t d[1] = {1};
      return num_tensor(TF_COMPLEX128, d, 1, v, sizeof v);
    }
    case 10: {
      uint8_t v[3] = {0, 255, 7};
      int64_t d[1] = {3};
      return num_tensor(TF_UINT8, d, 1, v, sizeof v);
    }
    case 11: {
      int16_t v[2] = {-32768, 32767};
      int64_t d[1] = {2};
      return num_tensor(TF_INT16, d, 1, v, sizeof v);
    }
    case 12: {
      int8_t v[2] = {-128, 127};
      int64_t d[1] = {2};
      return num_tensor(TF_INT8, d, 1, v, sizeof v);
    }
    case 13: {
      uint16_t v[2] = {0, 65535};
      int64_t d[1] = {2};
      return num_tensor(TF_UINT16, d, 1, v, sizeof v);
    }
    case 14: {
      uint32_t v[2] = {0, 4294967295u};
      int64_t d[1] = {2};
      return num_tensor(TF_UINT32, d, 1, v, sizeof v);
    }
    case 15: {
      uint64_t v[2] = {0, UINT64_MAX};
      int64_t d[1] = {2};
      return num_tensor(TF_UINT64, d, 1, v, sizeof v);
    }
    case 16: {
      float v = 42.0f;
      return num_tensor(TF_FLOAT, NULL, 0, &v, sizeof v);
    }
    case 17: {
      int64_t d[2] = {0, 3};
      return num_tensor(TF_FLOAT, d, 2, NULL, 0);
    }
    case 18:
      return str_scalar("scalar string");
    case 19:
    case 20: {
      float v[6];
      int64_t d[2] = {2, 3};
      int k, base = i == 19 ? 0 : 6;
      for (k = 0; k < 6; k++) v[k] = (float)(base + k);
      return num_tensor(TF_FLOAT, d, 2, v, sizeof v);
    }
  }
  return NULL;
}

/* SaveV2 of the golden tensors to `prefix`. */
static void save_golden(const char* prefix) {
  TFE_TensorHandle* in[3 + NGOLD];
  TF_DataType types[NGOLD];
  op_attr a;
  char msg[1024];
  int i;
  in[0] = h_of(str_scalar(prefix));
  in[1] = h_of(str_tensor(kGoldNames, NULL, NGOLD, 1));
  in[2] = h_of(str_tensor(kGoldSpecs, NULL, NGOLD, 1));
  for (i = 0; i < NGOLD; i++) {
    TF_Tensor* t = gold_tensor(i);
    types[i] = TF_TensorType(t);
    in[3 + i] = h_of(t);
  }
  memset(&a, 0, sizeof a);
  a.name = "dtypes";
  a.kind = 3;
  a.types = types;
  a.n = NGOLD;
  if (run_op("SaveV2", in, 3 + NGOLD, &a, 1, NULL, 0, msg) != TF_OK)
    TFE_FAIL("SaveV2: %s", msg);
  del_handles(in, 3 + NGOLD);
}

/* RestoreV2 of names[n] (specs "" unless given) with dtypes; outputs into
 * out. Returns the code. */
static TF_Code restore_v2(const char* prefix, const char* const* names,
                          const char* const* specs, const TF_DataType* types,
                          int n, TF_Tensor** out, char* msg) {
  TFE_TensorHandle* in[3];
  const char* empty[64];
  op_attr a;
  TF_Code c;
  int i;
  for (i = 0; i < n && i < 64; i++) empty[i] = "";
  in[0] = h_of(str_scalar(prefix));
  in[1] = h_of(str_tensor(names, NULL, n, 1));
  in[2] = h_of(str_tensor(specs != NULL ? specs : empty, NULL, n, 1));
  memset(&a, 0, sizeof a);
  a.name = "dtypes";
  a.kind = 3;
  a.types = types;
  a.n = n;
  c = run_op("RestoreV2", in, 3, &a, 1, out, n, msg);
  del_handles(in, 3);
  return c;
}

/* Checks a restored golden tensor i (the whole tensor, or part/w). */
static void check_golden(int i, const TF_Tensor* t) {
  TF_Tensor* want;
  if (i == 19) {
    /* part/w assembled from both slices: 0..11 as [4,3]. */
    int64_t d[2] = {4, 3};
    int k;
    check_dims(t, 2, d);
    for (k = 0; k < 12; k++)
      CHECK(((const float*)TF_TensorData(t))[k] == (float)k);
    return;
  }
  want = gold_tensor(i);
  CHECK_EQ_INT(TF_TensorType(t), TF_TensorType(want));
  {
    int64_t wd[8];
    int k;
    for (k = 0; k < TF_NumDims(want) && k < 8; k++) wd[k] = TF_Dim(want, k);
    check_dims(t, TF_NumDims(want), wd);
  }
  if (TF_TensorType(want) == TF_STRING) {
    int64_t n = TF_TensorElementCount(want), k;
    for (k = 0; k < n; k++) {
      const TF_TString* w = &((const TF_TString*)TF_TensorData(want))[k];
      check_str(t, k, TF_TString_GetDataPointer(w), TF_TString_GetSize(w));
    }
  } else {
    CHECK_EQ_SIZE(TF_TensorByteSize(t), TF_TensorByteSize(want));
    CHECK(TF_TensorByteSize(t) == 0 ||
          memcmp(TF_TensorData(t), TF_TensorData(want), TF_TensorByteSize(t)) == 0);
  }
  TF_DeleteTensor(want);
}

static void restore_golden(const char* prefix) {
  TF_Tensor* out[NGOLD - 1];
  TF_DataType types[NGOLD - 1];
  char msg[1024];
  int i;
  for (i = 0; i < NGOLD - 1; i++) {
    TF_Tensor* t = gold_tensor(i);
    types[i] = TF_TensorType(t);
    TF_DeleteTensor(t);
  }
  if (restore_v2(prefix, kGoldNames, NULL, types, NGOLD - 1, out, msg) != TF_OK)
    TFE_FAIL("RestoreV2 %s: %s", prefix, msg);
  for (i = 0; i < NGOLD - 1; i++) {
    check_golden(i, out[i]);
    TF_DeleteTensor(out[i]);
  }
}

static char* tmpdir(void) { return fs_make_tempdir(); }

/* ------------------------------------------------------------------------
 * V2 checkpoints. */

TEST(savev2_restorev2_every_dtype) {
  char* d = tmpdir();
  char prefix[1100];
  snprintf(prefix, sizeof prefix, "%s/ckpt", d);
  save_golden(prefix);
  restore_golden(prefix);
  fs_remove_tree(d);
  free(d);
}

static TF_Code save_v2_1(const char* prefix, const char* name,
                         const char* spec, TF_Tensor* t, char* msg);

/* The other fixed-size dtypes (quantized, float8, 4-bit) round-trip as
 * their raw bytes. */
TEST(savev2_restorev2_other_dtypes) {
  static const TF_DataType dts[] = {TF_QINT8, TF_QUINT8, TF_QINT16,
                                    TF_QUINT16, TF_QINT32, TF_FLOAT8_E5M2,
                                    TF_FLOAT8_E4M3FN, TF_INT4, TF_UINT4};
  char* d = tmpdir();
  char prefix[1100], msg[1024];
  int i;
  snprintf(prefix, sizeof prefix, "%s/ckpt", d);
  for (i = 0; i < (int)(sizeof dts / sizeof dts[0]); i++) {
    unsigned char bytes[64];
    int64_t dims[1] = {3};
    size_t n = 3 * TF_DataTypeSize(dts[i]), k;
    const char* name = "t";
    TF_Tensor* out[1];
    CHECK(n > 0 && n <= sizeof bytes);
    for (k = 0; k < n; k++) bytes[k] = (unsigned char)(k * 37 + i + 1);
    if (dts[i] == TF_INT4 || dts[i] == TF_UINT4)
      for (k = 0; k < n; k++) bytes[k] &= 0x7;
    CHECK_EQ_INT(save_v2_1(prefix, "t", "", num_tensor(dts[i], dims, 1, bytes, n),
                           msg),
                 TF_OK);
    CHECK_EQ_INT(restore_v2(prefix, &name, NULL, &dts[i], 1, out, msg), TF_OK);
    CHECK_EQ_INT(TF_TensorType(out[0]), dts[i]);
    CHECK(memcmp(TF_TensorData(out[0]), bytes, n) == 0);
    TF_DeleteTensor(out[0]);
  }
  fs_remove_tree(d);
  free(d);
}

TEST(savev2_on_ram_filesystem) {
  save_golden("ram://ckpt_ops/golden/ckpt");
  restore_golden("ram://ckpt_ops/golden/ckpt");
}

/* tfe still writes the bytes TensorFlow verified (see the file comment). */
TEST(golden_bytes_v2) {
  const char* regen = getenv("TFE_CKPT_REGEN");
  char* d = tmpdir();
  char prefix[1100], a[1200], b[1200];
  if (regen != NULL) {
    snprintf(prefix, sizeof prefix, "%s/ckpt", regen);
    save_golden(prefix);
  }
  snprintf(prefix, sizeof prefix, "%s/ckpt", d);
  save_golden(prefix);
  snprintf(a, sizeof a, "%s.index", prefix);
  same_file(a, DATA "/checkpoints_tfe/ckpt.index");
  snprintf(a, sizeof a, "%s.data-00000-of-00001", prefix);
  snprintf(b, sizeof b, "%s", DATA "/checkpoints_tfe/ckpt.data-00000-of-00001");
  same_file(a, b);
  /* ... and what is committed restores to the golden values. */
  restore_golden(DATA "/checkpoints_tfe/ckpt");
  fs_remove_tree(d);
  free(d);
}

/* tests/data/checkpoints/raw was written by TF's SaveV2 (make_checkpoints.py
 * there). */
TEST(restorev2_tf_written) {
  static const char* const names[] = {"a/weights", "f_str", "g_half",
                                      "o_bfloat16", "h_scalar", "j_empty",
                                      "n_complex64", "many/07", "q_large"};
  static const TF_DataType types[] = {TF_FLOAT,     TF_STRING, TF_HALF,
                                      TF_BFLOAT16,  TF_FLOAT,  TF_FLOAT,
                                      TF_COMPLEX64, TF_INT64,  TF_FLOAT};
  const char* prefixes[2] = {DATA "/checkpoints/raw/ckpt",
                             DATA "/checkpoints/sharded/ckpt"};
  int p;
  for (p = 0; p < 2; p++) {
    TF_Tensor* out[9];
    char msg[1024];
    int k;
    if (restore_v2(prefixes[p], names, NULL, types, 9, out, msg) != TF_OK)
      TFE_FAIL("%s: %s", prefixes[p], msg);
    for (k = 0; k < 6; k++)
      CHECK(((const float*)TF_TensorData(out[0]))[k] == (float)k * 0.5f - 1.0f);
    check_str(out[1], 0, "hello", 5);
    check_str(out[1], 1, "", 0);
    check_str(out[1], 2, "\xc3\xa9t\xc3\xa9", 5);
    CHECK_EQ_INT(TF_TString_GetSize(&((TF_TString*)TF_TensorData(out[1]))[3]), 200);
    CHECK_EQ_INT(((const uint16_t*)TF_TensorData(out[2]))[2], 0x7bff);
    CHECK_EQ_INT(((const uint16_t*)TF_TensorData(out[3]))[1], 0xc000);
    CHECK(*(const float*)TF_TensorData(out[4]) == 42.0f);
    {
      int64_t d[2] = {0, 3};
      check_dims(out[5], 2, d);
    }
    CHECK(((const float*)TF_TensorData(out[6]))[3] == -3.5f);
    CHECK_EQ_INT(((const int64_t*)TF_TensorData(out[7]))[1], 49);
    CHECK(((const float*)TF_TensorData(out[8]))[999] == 249.75f);
    for (k = 0; k < 9; k++) TF_DeleteTensor(out[k]);
  }
}

TEST(restorev2_slices) {
  char* d = tmpdir();
  char prefix[1100], msg[1024];
  TF_Tensor* out[3];
  static const char* const names[] = {"part/w", "a/float", "part/w"};
  static const char* const specs[] = {"4 3 1,2:1,2", "2 3 1,1:-", "4 3 3,1:-"};
  static const TF_DataType types[] = {TF_FLOAT, TF_FLOAT, TF_FLOAT};
  snprintf(prefix, sizeof prefix, "%s/ckpt", d);
  save_golden(prefix);
  CHECK_EQ_INT(restore_v2(prefix, names, specs, types, 3, out, msg), TF_OK);
  {
    /* rows 1..2, columns 1..2 of 0..11 as [4,3], across both slices */
    int64_t dd[2] = {2, 2};
    const float* f = (const float*)TF_TensorData(out[0]);
    check_dims(out[0], 2, dd);
    CHECK(f[0] == 4 && f[1] == 5 && f[2] == 7 && f[3] == 8);
  }
  {
    int64_t dd[2] = {1, 3};
    const float* f = (const float*)TF_TensorData(out[1]);
    check_dims(out[1], 2, dd);
    CHECK(f[0] == 0.5f && f[1] == 1.0f && f[2] == 1.5f);
  }
  {
    const float* f = (const float*)TF_TensorData(out[2]);
    CHECK(f[0] == 9 && f[1] == 10 && f[2] == 11);
  }
  TF_DeleteTensor(out[0]);
  TF_DeleteTensor(out[1]);
  TF_DeleteTensor(out[2]);
  /* TF copies between differing slices only for some dtypes. */
  {
    static const char* const n1[] = {"g/half"};
    static const char* const s1[] = {"3 0,2"};
    static const TF_DataType t1[] = {TF_HALF};
    CHECK_EQ_INT(restore_v2(prefix, n1, s1, t1, 1, out, msg), TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(msg, "Dtype half not supported.");
  }
  {
    static const char* const n1[] = {"a/float"};
    static const char* const s1[] = {"3 3 1,1:-"};
    static const TF_DataType t1[] = {TF_FLOAT};
    CHECK_EQ_INT(restore_v2(prefix, n1, s1, t1, 1, out, msg), TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(msg,
                 "tensor_name = a/float; shape in shape_and_slice spec [3,3] "
                 "does not match the shape stored in checkpoint: [2,3]");
  }
  fs_remove_tree(d);
  free(d);
}

TEST(restorev2_errors) {
  char* d = tmpdir();
  char prefix[1100], missing[1100], msg[1024];
  TF_Tensor* out[2];
  snprintf(prefix, sizeof prefix, "%s/ckpt", d);
  snprintf(missing, sizeof missing, "%s/none", d);
  save_golden(prefix);
  {
    static const char* const n[] = {"zz"};
    static const TF_DataType t[] = {TF_FLOAT};
    CHECK_EQ_INT(restore_v2(prefix, n, NULL, t, 1, out, msg), TF_NOT_FOUND);
    CHECK_STR_EQ(msg, "Key zz not found in checkpoint");
  }
  {
    static const char* const n[] = {"a/float", "g/half"};
    static const TF_DataType t[] = {TF_INT32, TF_INT32};
    CHECK_EQ_INT(restore_v2(prefix, n, NULL, t, 2, out, msg), TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(msg,
                 "tensor_name = a/float; expected dtype int32 does not equal "
                 "original dtype float\ntensor_name = g/half; expected dtype "
                 "int32 does not equal original dtype half");
  }
  {
    static const char* const n[] = {"a/float"};
    static const TF_DataType t[] = {TF_FLOAT};
    char want[1200];
    CHECK_EQ_INT(restore_v2(missing, n, NULL, t, 1, out, msg), TF_NOT_FOUND);
    snprintf(want, sizeof want,
             "Unsuccessful TensorSliceReader constructor: Failed to find any "
             "matching files for %s",
             missing);
    CHECK_STR_EQ(msg, want);
  }
  {
    /* A damaged data file: DATA_LOSS, never a crash. */
    char data[1200];
    FILE* f;
    static const char* const n[] = {"q_large"};
    static const TF_DataType t[] = {TF_FLOAT};
    char cmd[3000];
    snprintf(cmd, sizeof cmd, "cp %s/checkpoints/raw/ckpt.* %s/", DATA, d);
    CHECK(system(cmd) == 0);
    snprintf(data, sizeof data, "%s/ckpt.data-00000-of-00001", d);
    f = fopen(data, "r+b");
    CHECK(f != NULL);
    fseek(f, -100, SEEK_END);
    fputc(0x55, f);
    fclose(f);
    CHECK_EQ_INT(restore_v2(prefix, n, NULL, t, 1, out, msg), TF_DATA_LOSS);
    CHECK_STR_CONTAINS(msg, "Checksum does not match");
  }
  fs_remove_tree(d);
  free(d);
}

static TF_Code save_v2_1(const char* prefix, const char* name,
                         const char* spec, TF_Tensor* t, char* msg) {
  TFE_TensorHandle* in[4];
  TF_DataType types[1];
  op_attr a;
  TF_Code c;
  types[0] = TF_TensorType(t);
  in[0] = h_of(str_scalar(prefix));
  in[1] = h_of(str_tensor(&name, NULL, 1, 1));
  in[2] = h_of(str_tensor(&spec, NULL, 1, 1));
  in[3] = h_of(t);
  memset(&a, 0, sizeof a);
  a.name = "dtypes";
  a.kind = 3;
  a.types = types;
  a.n = 1;
  c = run_op("SaveV2", in, 4, &a, 1, NULL, 0, msg);
  del_handles(in, 4);
  return c;
}

TEST(savev2_errors) {
  char* d = tmpdir();
  char prefix[1100], msg[1024], want[1200];
  int64_t dims[2] = {2, 3};
  float z[6] = {0};
  snprintf(prefix, sizeof prefix, "%s/ckpt", d);
#define T23 num_tensor(TF_FLOAT, dims, 2, z, sizeof z)
  CHECK_EQ_INT(save_v2_1(prefix, "a", "4 3 0,2", T23, msg), TF_INTERNAL);
  CHECK_STR_EQ(msg, "Mismatching ranks: shape = [4,3], slice = 0,2");
  CHECK_EQ_INT(save_v2_1(prefix, "a", "4 3 0,5:-", T23, msg), TF_INTERNAL);
  CHECK_STR_EQ(msg,
               "Extent in dimension 0 out of bounds: shape = [4,3], slice = "
               "0,5:-");
  CHECK_EQ_INT(save_v2_1(prefix, "a", "4 3 0,2:1,2", T23, msg),
               TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(msg,
               "Slice in shape_and_slice specification does not match the "
               "shape of the tensor to  save: 4 3 0,2:1,2, tensor: [2,3]");
  CHECK_EQ_INT(save_v2_1(prefix, "a", "x", T23, msg), TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(msg,
               "Need least two elements in shape_and_slice specification: x");
  CHECK_EQ_INT(save_v2_1(prefix, "a", "4 a 0,2:-", T23, msg),
               TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(msg, "Non numerical dimension in shape_and_slice: 4 a 0,2:-");
  CHECK_EQ_INT(save_v2_1(prefix, "a", "4 3 -1,2:-", T23, msg),
               TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(msg,
               "Expected non-negative start and positive length but got start "
               "= -1, length = 2: string = -1,2:-");
  /* TF CHECK-fails (ends the process) on a negative dim; tfe refuses it. */
  CHECK_EQ_INT(save_v2_1(prefix, "a", "4 -1 0,2:-", T23, msg),
               TF_INVALID_ARGUMENT);
  /* A missing parent directory: the filesystem's NOT_FOUND. */
  snprintf(want, sizeof want, "%s/m1/m2/ckpt", d);
  CHECK_EQ_INT(save_v2_1(want, "a", "", T23, msg), TF_NOT_FOUND);
  {
    TFE_TensorHandle* in[5];
    TF_DataType types[2] = {TF_FLOAT, TF_FLOAT};
    static const char* const names[] = {"a", "a"};
    static const char* const specs[] = {"", ""};
    op_attr a;
    in[0] = h_of(str_scalar(prefix));
    in[1] = h_of(str_tensor(names, NULL, 2, 1));
    in[2] = h_of(str_tensor(specs, NULL, 2, 1));
    in[3] = h_of(T23);
    in[4] = h_of(T23);
    memset(&a, 0, sizeof a);
    a.name = "dtypes";
    a.kind = 3;
    a.types = types;
    a.n = 2;
    CHECK_EQ_INT(run_op("SaveV2", in, 5, &a, 1, NULL, 0, msg),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(msg, "Adding duplicate key: a");
    /* Nothing was left behind by the failed save. */
    {
      TF_Status* s = TF_NewStatus();
      TF_StringStream* names2 = TF_GetChildren(d, s);
      const char* nm;
      CHECK_CODE(s, TF_OK);
      CHECK(!TF_StringStreamNext(names2, &nm));
      TF_StringStreamDone(names2);
      TF_DeleteStatus(s);
    }
    /* Counts that do not match. */
    {
      TFE_TensorHandle* in2[4] = {in[0], in[1], in[2], in[3]};
      op_attr b = a;
      b.n = 1;
      CHECK_EQ_INT(run_op("SaveV2", in2, 4, &b, 1, NULL, 0, msg),
                   TF_INVALID_ARGUMENT);
      CHECK_STR_EQ(msg, "Got 2 tensor names but 1 tensors.");
    }
    del_handles(in, 5);
  }
#undef T23
  fs_remove_tree(d);
  free(d);
}

static TF_Code merge(const char* const* prefixes, int n, const char* dst,
                     int allow, char* msg) {
  TFE_TensorHandle* in[2];
  op_attr a;
  TF_Code c;
  in[0] = h_of(str_tensor(prefixes, NULL, n, 1));
  in[1] = h_of(str_scalar(dst));
  memset(&a, 0, sizeof a);
  a.name = "allow_missing_files";
  a.kind = 1;
  a.i = allow;
  c = run_op("MergeV2Checkpoints", in, 2, &a, 1, NULL, 0, msg);
  del_handles(in, 2);
  return c;
}

TEST(merge_v2_checkpoints) {
  char* d = tmpdir();
  char p0[1100], p1[1100], merged[1100], msg[1024], path[1200];
  const char* prefixes[2];
  int64_t dims[1] = {2};
  int32_t iv[2] = {5, 6};
  float fv[3] = {1, 2, 3};
  int64_t fd[1] = {3};
  snprintf(p0, sizeof p0, "%s/tmp0/part-0", d);
  snprintf(p1, sizeof p1, "%s/tmp1/part-1", d);
  snprintf(merged, sizeof merged, "%s/model", d);
  snprintf(path, sizeof path, "%s/tmp0", d);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/tmp1", d);
  mkdir(path, 0755);
  CHECK_EQ_INT(save_v2_1(p0, "x", "", num_tensor(TF_INT32, dims, 1, iv, sizeof iv), msg), TF_OK);
  CHECK_EQ_INT(save_v2_1(p1, "y", "", num_tensor(TF_FLOAT, fd, 1, fv, sizeof fv), msg), TF_OK);
  prefixes[0] = p0;
  prefixes[1] = p1;
  if (merge(prefixes, 2, merged, 0, msg) != TF_OK) TFE_FAIL("merge: %s", msg);
  {
    static const char* const n[] = {"x", "y"};
    static const TF_DataType t[] = {TF_INT32, TF_FLOAT};
    TF_Tensor* out[2];
    CHECK_EQ_INT(restore_v2(merged, n, NULL, t, 2, out, msg), TF_OK);
    CHECK_EQ_INT(((int32_t*)TF_TensorData(out[0]))[1], 6);
    CHECK(((float*)TF_TensorData(out[1]))[2] == 3.0f);
    TF_DeleteTensor(out[0]);
    TF_DeleteTensor(out[1]);
  }
  /* The shards moved under the merged prefix; the temp dirs are gone. */
  snprintf(path, sizeof path, "%s/model.data-00001-of-00002", d);
  CHECK(access(path, F_OK) == 0);
  snprintf(path, sizeof path, "%s/tmp0", d);
  CHECK(access(path, F_OK) != 0);
  /* The merged checkpoint also reads through the C API's reader. */
  {
    TF_Status* s = TF_NewStatus();
    TF_CheckpointReader* r = TF_NewCheckpointReader(merged, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(TF_CheckpointReaderSize(r), 2);
    TF_DeleteCheckpointReader(r);
    TF_DeleteStatus(s);
  }
  prefixes[0] = p0;
  CHECK_EQ_INT(merge(prefixes, 1, merged, 0, msg), TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(msg, "allow_missing_files was set to false and ");
  CHECK_EQ_INT(merge(prefixes, 1, merged, 1, msg), TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(msg,
               "At least one prefix checkpoint file must exist, but none "
               "existed.");
  fs_remove_tree(d);
  free(d);
}

/* A sharded save the way TF's Saver does it: each shard a SaveV2 of its
 * slices under a temporary prefix, then one merge. */
TEST(merge_partitioned_slices) {
  char* d = tmpdir();
  char p0[1100], p1[1100], merged[1100], msg[1024];
  const char* prefixes[2];
  int64_t dims[2] = {2, 3};
  float a[6] = {0, 1, 2, 3, 4, 5}, b[6] = {6, 7, 8, 9, 10, 11};
  snprintf(p0, sizeof p0, "%s/ckpt_temp/part-00000-of-00002", d);
  snprintf(p1, sizeof p1, "%s/ckpt_temp/part-00001-of-00002", d);
  snprintf(merged, sizeof merged, "%s/ckpt", d);
  CHECK_EQ_INT(save_v2_1(p0, "w", "4 3 0,2:-", num_tensor(TF_FLOAT, dims, 2, a, sizeof a), msg), TF_OK);
  CHECK_EQ_INT(save_v2_1(p1, "w", "4 3 2,2:-", num_tensor(TF_FLOAT, dims, 2, b, sizeof b), msg), TF_OK);
  prefixes[0] = p0;
  prefixes[1] = p1;
  if (merge(prefixes, 2, merged, 0, msg) != TF_OK) TFE_FAIL("merge: %s", msg);
  {
    static const char* const n[] = {"w"};
    static const TF_DataType t[] = {TF_FLOAT};
    TF_Tensor* out[1];
    int k;
    CHECK_EQ_INT(restore_v2(merged, n, NULL, t, 1, out, msg), TF_OK);
    for (k = 0; k < 12; k++) CHECK(((float*)TF_TensorData(out[0]))[k] == (float)k);
    TF_DeleteTensor(out[0]);
  }
  fs_remove_tree(d);
  free(d);
}

/* ------------------------------------------------------------------------
 * V1 checkpoints. */

static TF_Code save_v1(const char* fname, const char* const* names,
                       const char* const* specs, TF_Tensor** ts, int n,
                       char* msg) {
  TFE_TensorHandle* in[32];
  TF_DataType types[32];
  op_attr a;
  TF_Code c;
  int i, k = 0;
  in[k++] = h_of(str_scalar(fname));
  in[k++] = h_of(str_tensor(names, NULL, n, 1));
  if (specs != NULL) in[k++] = h_of(str_tensor(specs, NULL, n, 1));
  for (i = 0; i < n; i++) {
    types[i] = TF_TensorType(ts[i]);
    in[k++] = h_of(ts[i]);
  }
  memset(&a, 0, sizeof a);
  a.name = "T";
  a.kind = 3;
  a.types = types;
  a.n = n;
  c = run_op(specs != NULL ? "SaveSlices" : "Save", in, k, &a, 1, NULL, 0, msg);
  del_handles(in, k);
  return c;
}

static TF_Code restore_v1(const char* pattern, const char* name,
                          const char* spec, TF_DataType dt, TF_Tensor** out,
                          char* msg) {
  TFE_TensorHandle* in[3];
  op_attr a;
  TF_Code c;
  int k = 0;
  in[k++] = h_of(str_scalar(pattern));
  in[k++] = h_of(str_scalar(name));
  if (spec != NULL) in[k++] = h_of(str_scalar(spec));
  memset(&a, 0, sizeof a);
  a.name = "dt";
  a.kind = 2;
  a.i = dt;
  c = run_op(spec != NULL ? "RestoreSlice" : "Restore", in, k, &a, 1, out, 1,
             msg);
  del_handles(in, k);
  return c;
}

/* Golden tensors V1 can hold (no bfloat16, uint32, uint64). */
static int v1_ok(int i) { return i != 7 && i != 14 && i != 15 && i < 19; }

static void save_golden_v1(const char* fname) {
  const char* names[NGOLD];
  TF_Tensor* ts[NGOLD];
  const char* specs[NGOLD];
  char msg[1024];
  int i, n = 0;
  for (i = 0; i < NGOLD; i++) {
    if (!v1_ok(i) && i < 19) continue;
    names[n] = kGoldNames[i];
    specs[n] = kGoldSpecs[i];
    ts[n] = gold_tensor(i);
    n++;
  }
  if (save_v1(fname, names, specs, ts, n, msg) != TF_OK)
    TFE_FAIL("SaveSlices %s: %s", fname, msg);
}

static void restore_golden_v1(const char* pattern) {
  int i;
  char msg[1024];
  for (i = 0; i < 20; i++) {
    TF_Tensor* out[1];
    TF_Tensor* w;
    if (!v1_ok(i) && i != 19) continue;
    w = gold_tensor(i);
    if (restore_v1(pattern, kGoldNames[i], NULL, TF_TensorType(w), out, msg) !=
        TF_OK)
      TFE_FAIL("Restore %s: %s", kGoldNames[i], msg);
    TF_DeleteTensor(w);
    check_golden(i, out[0]);
    TF_DeleteTensor(out[0]);
  }
}

TEST(v1_save_restore) {
  char* d = tmpdir();
  char f[1100], msg[1024];
  TF_Tensor* out[2];
  snprintf(f, sizeof f, "%s/v1_ckpt", d);
  save_golden_v1(f);
  restore_golden_v1(f);
  /* RestoreSlice of part of a tensor, and of a partitioned one. */
  CHECK_EQ_INT(restore_v1(f, "a/float", "2 3 -:0,2", TF_FLOAT, out, msg), TF_OK);
  {
    const float* v = (const float*)TF_TensorData(out[0]);
    CHECK(v[0] == -1.0f && v[1] == -0.5f && v[2] == 0.5f && v[3] == 1.0f);
    TF_DeleteTensor(out[0]);
  }
  CHECK_EQ_INT(restore_v1(f, "part/w", "4 3 1,2:2,1", TF_FLOAT, out, msg), TF_OK);
  CHECK(((float*)TF_TensorData(out[0]))[0] == 5.0f);
  CHECK(((float*)TF_TensorData(out[0]))[1] == 8.0f);
  TF_DeleteTensor(out[0]);
  /* RestoreV2 falls back to V1 when there is no .index. */
  {
    static const char* const n[] = {"f/string", "a/float"};
    static const char* const s[] = {"", "2 3 1,1:-"};
    static const TF_DataType t[] = {TF_STRING, TF_FLOAT};
    CHECK_EQ_INT(restore_v2(f, n, s, t, 2, out, msg), TF_OK);
    check_str(out[0], 4, "nul\0byte", 8);
    CHECK(((float*)TF_TensorData(out[1]))[2] == 1.5f);
    TF_DeleteTensor(out[0]);
    TF_DeleteTensor(out[1]);
  }
  fs_remove_tree(d);
  free(d);
}

TEST(v1_errors) {
  char* d = tmpdir();
  char f[1100], msg[1024], want[1300];
  TF_Tensor* out[1];
  snprintf(f, sizeof f, "%s/v1", d);
  save_golden_v1(f);
  CHECK_EQ_INT(restore_v1(f, "zz", NULL, TF_FLOAT, out, msg), TF_NOT_FOUND);
  snprintf(want, sizeof want,
           "Tensor name \"zz\" not found in checkpoint files %s", f);
  CHECK_STR_EQ(msg, want);
  CHECK_EQ_INT(restore_v1(f, "a/float", NULL, TF_INT32, out, msg),
               TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(msg,
               "Expected to restore a tensor of type int32, got a tensor of "
               "type float instead: tensor_name = a/float");
  CHECK_EQ_INT(restore_v1(f, "a/float", "2 4 -:0,2", TF_FLOAT, out, msg),
               TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(msg,
               "Shape in shape_and_slice spec does not match the shape in the "
               "save file: [2,4], save file shape: [2,3]");
  snprintf(want, sizeof want, "%s/nofile*", d);
  CHECK_EQ_INT(restore_v1(want, "a", NULL, TF_FLOAT, out, msg), TF_NOT_FOUND);
  /* Not a table at all. */
  snprintf(want, sizeof want, "%s/junk", d);
  fs_write_str(want, "this is not a checkpoint, just some bytes.........................");
  CHECK_EQ_INT(restore_v1(want, "a", NULL, TF_FLOAT, out, msg), TF_DATA_LOSS);
  CHECK_STR_CONTAINS(msg, ": DATA_LOSS: not an sstable (bad magic number): "
                          "perhaps your file is in a different file format");
  {
    const char* names[1] = {"a"};
    TF_Tensor* ts[1];
    uint16_t bf = 0x3f80;
    uint32_t u = 1;
    int64_t one[1] = {1};
    ts[0] = num_tensor(TF_BFLOAT16, one, 1, &bf, 2);
    CHECK_EQ_INT(save_v1(f, names, NULL, ts, 1, msg), TF_UNIMPLEMENTED);
    CHECK_STR_EQ(msg, "Saving data type bfloat16 not yet supported");
    ts[0] = num_tensor(TF_UINT32, one, 1, &u, 4);
    CHECK_EQ_INT(save_v1(f, names, NULL, ts, 1, msg), TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(msg, "Tensor slice serialization not implemented for dtype 22");
  }
  fs_remove_tree(d);
  free(d);
}

TEST(golden_bytes_v1) {
  const char* regen = getenv("TFE_CKPT_REGEN");
  char* d = tmpdir();
  char f[1100];
  if (regen != NULL) {
    snprintf(f, sizeof f, "%s/v1_ckpt", regen);
    save_golden_v1(f);
  }
  snprintf(f, sizeof f, "%s/v1_ckpt", d);
  save_golden_v1(f);
  same_file(f, DATA "/checkpoints_tfe/v1_ckpt");
  restore_golden_v1(DATA "/checkpoints_tfe/v1_ckpt");
  fs_remove_tree(d);
  free(d);
}

/* ------------------------------------------------------------------------
 * File ops. */

static TF_Code read_file(const char* path, TF_Tensor** out, char* msg) {
  TFE_TensorHandle* in[1];
  TF_Code c;
  in[0] = h_of(str_scalar(path));
  c = run_op("ReadFile", in, 1, NULL, 0, out, 1, msg);
  del_handles(in, 1);
  return c;
}

static TF_Code write_file(const char* path, const char* data, size_t n,
                          char* msg) {
  TFE_TensorHandle* in[2];
  TF_Code c;
  in[0] = h_of(str_scalar(path));
  in[1] = h_of(str_tensor(&data, &n, 1, 0));
  c = run_op("WriteFile", in, 2, NULL, 0, NULL, 0, msg);
  del_handles(in, 2);
  return c;
}

TEST(read_write_file) {
  char* d = tmpdir();
  char path[1100], msg[1024];
  TF_Tensor* out[1];
  int scheme;
  for (scheme = 0; scheme < 2; scheme++) {
    const char* base = scheme == 0 ? d : "ram://ckpt_ops_files";
    snprintf(path, sizeof path, "%s/x/y/z.bin", base);
    CHECK_EQ_INT(write_file(path, "a\0b", 3, msg), TF_OK);
    CHECK_EQ_INT(read_file(path, out, msg), TF_OK);
    CHECK_EQ_INT(TF_NumDims(out[0]), 0);
    check_str(out[0], 0, "a\0b", 3);
    TF_DeleteTensor(out[0]);
    snprintf(path, sizeof path, "%s/nope", base);
    CHECK_EQ_INT(read_file(path, out, msg), TF_NOT_FOUND);
    snprintf(path, sizeof path, "%s/x", base);
    CHECK_EQ_INT(write_file(path, "hi", 2, msg), TF_FAILED_PRECONDITION);
  }
  /* A directory: TF's FAILED_PRECONDITION "<path>; Is a directory". */
  CHECK_EQ_INT(read_file(d, out, msg), TF_FAILED_PRECONDITION);
  {
    /* A file larger than one read. */
    size_t n = 300000, i;
    char* big = (char*)malloc(n);
    CHECK(big != NULL);
    for (i = 0; i < n; i++) big[i] = (char)(i * 7);
    snprintf(path, sizeof path, "%s/big", d);
    CHECK_EQ_INT(write_file(path, big, n, msg), TF_OK);
    CHECK_EQ_INT(read_file(path, out, msg), TF_OK);
    check_str(out[0], 0, big, n);
    TF_DeleteTensor(out[0]);
    free(big);
  }
  {
    TFE_TensorHandle* in[1];
    const char* two[2] = {"a", "b"};
    in[0] = h_of(str_tensor(two, NULL, 2, 1));
    CHECK_EQ_INT(run_op("ReadFile", in, 1, NULL, 0, out, 1, msg),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(msg, "Input filename tensor must be scalar, but had shape: [2]");
    del_handles(in, 1);
  }
  fs_remove_tree(d);
  free(d);
}

TEST(matching_files) {
  char* d = tmpdir();
  char pats[2][1100], msg[1024];
  const char* p[2];
  TF_Tensor* out[1];
  TFE_TensorHandle* in[1];
  fs_write_str(fs_join(d, "b.txt"), "1");
  fs_write_str(fs_join(d, "a.txt"), "2");
  fs_write_str(fs_join(d, "c.bin"), "3");
  snprintf(pats[0], sizeof pats[0], "%s/*.txt", d);
  snprintf(pats[1], sizeof pats[1], "%s/c.*", d);
  p[0] = pats[1];
  p[1] = pats[0];
  in[0] = h_of(str_tensor(p, NULL, 2, 1));
  CHECK_EQ_INT(run_op("MatchingFiles", in, 1, NULL, 0, out, 1, msg), TF_OK);
  del_handles(in, 1);
  CHECK_EQ_INT(TF_Dim(out[0], 0), 3);
  {
    const char* w = fs_join(d, "a.txt");
    check_str(out[0], 0, w, strlen(w));
    w = fs_join(d, "c.bin");
    check_str(out[0], 2, w, strlen(w));
  }
  TF_DeleteTensor(out[0]);
  /* A missing directory matches nothing. */
  snprintf(pats[0], sizeof pats[0], "%s/nodir/*", d);
  in[0] = h_of(str_scalar(pats[0]));
  CHECK_EQ_INT(run_op("MatchingFiles", in, 1, NULL, 0, out, 1, msg), TF_OK);
  del_handles(in, 1);
  CHECK_EQ_INT(TF_Dim(out[0], 0), 0);
  TF_DeleteTensor(out[0]);
  fs_remove_tree(d);
  free(d);
}

TEST(sharded_filename_and_filespec) {
  TFE_TensorHandle* in[3];
  TF_Tensor* out[1];
  char msg[1024];
  const char* base = "a\0b";
  size_t blen = 3;
  {
    TF_Status* s = TF_NewStatus();
    in[0] = h_of(str_tensor(&base, &blen, 1, 0));
    in[1] = scalar_i32(-3, s);
    in[2] = scalar_i32(123456, s);
    TF_DeleteStatus(s);
  }
  CHECK_EQ_INT(run_op("ShardedFilename", in, 3, NULL, 0, out, 1, msg), TF_OK);
  check_str(out[0], 0, "a--0003-of-123456", 17);
  TF_DeleteTensor(out[0]);
  {
    TFE_TensorHandle* in2[2];
    TF_Status* s = TF_NewStatus();
    in2[0] = h_of(str_scalar("abc"));
    in2[1] = scalar_i32(7, s);
    TF_DeleteStatus(s);
    CHECK_EQ_INT(run_op("ShardedFilespec", in2, 2, NULL, 0, out, 1, msg), TF_OK);
    check_str(out[0], 0, "abc-?\?\?\?\?-of-00007", 18);
    TF_DeleteTensor(out[0]);
    del_handles(in2, 2);
  }
  del_handles(in, 3);
  {
    const char* one = "a";
    in[0] = h_of(str_tensor(&one, NULL, 1, 1));
    {
      TF_Status* s = TF_NewStatus();
      in[1] = scalar_i32(1, s);
      in[2] = scalar_i32(2, s);
      TF_DeleteStatus(s);
    }
    CHECK_EQ_INT(run_op("ShardedFilename", in, 3, NULL, 0, out, 1, msg),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(msg, "basename must be a scalar, got shape [1]");
    del_handles(in, 3);
  }
}

static TF_Code immutable_const(const char* region, TF_DataType dt,
                               const int64_t* dims, int nd, TF_Tensor** out,
                               char* msg) {
  op_attr a[3];
  memset(a, 0, sizeof a);
  a[0].name = "dtype";
  a[0].kind = 2;
  a[0].i = dt;
  a[1].name = "shape";
  a[1].kind = 5;
  a[1].i = nd;
  a[1].dims = dims;
  a[2].name = "memory_region_name";
  a[2].kind = 4;
  a[2].s = region;
  return run_op("ImmutableConst", NULL, 0, a, 3, out, 1, msg);
}

TEST(immutable_const) {
  char* d = tmpdir();
  char path[1100], msg[1024];
  float v[4] = {1.5f, -2.0f, 3.25f, 4.0f};
  int64_t d3[1] = {3}, d5[1] = {5}, dq[1] = {-1};
  TF_Tensor* out[1];
  int scheme;
  for (scheme = 0; scheme < 2; scheme++) {
    if (scheme == 0) snprintf(path, sizeof path, "%s/w.bin", d);
    else snprintf(path, sizeof path, "ram://ckpt_ops_imm/w.bin");
    fs_write(path, (const char*)v, sizeof v);
    if (immutable_const(path, TF_FLOAT, d3, 1, out, msg) != TF_OK)
      TFE_FAIL("ImmutableConst %s: %s", path, msg);
    check_dims(out[0], 1, d3);
    CHECK(memcmp(TF_TensorData(out[0]), v, 12) == 0);
    TF_DeleteTensor(out[0]);
    CHECK_EQ_INT(immutable_const(path, TF_FLOAT, d5, 1, out, msg), TF_INTERNAL);
    CHECK_STR_EQ(msg,
                 "Readonly memory region has wrong length (16) when allocating "
                 "20");
    CHECK_EQ_INT(immutable_const(path, TF_STRING, d3, 1, out, msg),
                 TF_UNIMPLEMENTED);
  }
  CHECK_EQ_INT(immutable_const(path, TF_FLOAT, dq, 1, out, msg),
               TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(msg, "Shape [?] is not fully defined");
  snprintf(path, sizeof path, "%s/nope", d);
  CHECK_EQ_INT(immutable_const(path, TF_FLOAT, d3, 1, out, msg), TF_NOT_FOUND);
  CHECK_EQ_INT(immutable_const(path, TF_RESOURCE, d3, 1, out, msg),
               TF_INVALID_ARGUMENT);
  fs_remove_tree(d);
  free(d);
}

/* A local file's ImmutableConst is the file's mapping, not a copy: the
 * tensor's data lies inside a mapping of that file in /proc/self/maps. */
TEST(immutable_const_maps_local_files) {
  char* d = tmpdir();
  char path[1100], msg[1024], line[2048];
  static float v[4096];
  int64_t dims[1] = {4096};
  TF_Tensor* out[1];
  FILE* maps;
  int found = 0, k;
  uintptr_t p;
  for (k = 0; k < 4096; k++) v[k] = (float)k;
  snprintf(path, sizeof path, "%s/big.bin", d);
  fs_write(path, (const char*)v, sizeof v);
  CHECK_EQ_INT(immutable_const(path, TF_FLOAT, dims, 1, out, msg), TF_OK);
  CHECK(memcmp(TF_TensorData(out[0]), v, sizeof v) == 0);
  p = (uintptr_t)TF_TensorData(out[0]);
  maps = fopen("/proc/self/maps", "r");
  if (maps != NULL) {
    while (fgets(line, sizeof line, maps) != NULL) {
      unsigned long lo, hi;
      if (strstr(line, "big.bin") != NULL &&
          sscanf(line, "%lx-%lx", &lo, &hi) == 2 && p >= lo && p < hi)
        found = 1;
    }
    fclose(maps);
    CHECK(found);
  }
  TF_DeleteTensor(out[0]);
  fs_remove_tree(d);
  free(d);
}

/* Damaged checkpoints (bytes flipped, files cut short) give a status,
 * never a crash or a hang (run under ASan by the sanitizer step). */
TEST(damaged_checkpoints_never_crash) {
  static const char* const files[] = {"ckpt.index", "ckpt.data-00000-of-00001",
                                      "v1_ckpt"};
  char* d = tmpdir();
  char src[1200], dst[1200], prefix[1200], msg[1024];
  TF_DataType types[NGOLD - 1];
  int f, i;
  for (i = 0; i < NGOLD - 1; i++) {
    TF_Tensor* t = gold_tensor(i);
    types[i] = TF_TensorType(t);
    TF_DeleteTensor(t);
  }
  snprintf(prefix, sizeof prefix, "%s/ckpt", d);
  for (f = 0; f < 3; f++) {
    size_t len = 0, pos;
    unsigned char* orig;
    snprintf(src, sizeof src, "%s/checkpoints_tfe/%s", DATA, files[f]);
    orig = slurp(src, &len);
    CHECK(orig != NULL);
    for (pos = 0; pos < len; pos += 1 + len / 97) {
      int mode;
      for (mode = 0; mode < 2; mode++) {
        int g;
        /* fresh copies of all three files, then damage one */
        for (g = 0; g < 3; g++) {
          size_t gl = 0;
          unsigned char* b;
          FILE* o;
          snprintf(src, sizeof src, "%s/checkpoints_tfe/%s", DATA, files[g]);
          snprintf(dst, sizeof dst, "%s/%s", d, files[g]);
          b = slurp(src, &gl);
          CHECK(b != NULL);
          if (g == f && mode == 0) b[pos] ^= 0x5a;
          if (g == f && mode == 1) gl = pos;
          o = fopen(dst, "wb");
          CHECK(o != NULL);
          CHECK(fwrite(b, 1, gl, o) == gl);
          fclose(o);
          free(b);
        }
        {
          TF_Tensor* out[NGOLD - 1];
          TF_Code c = restore_v2(prefix, kGoldNames, NULL, types, NGOLD - 1,
                                 out, msg);
          if (c == TF_OK) {
            for (i = 0; i < NGOLD - 1; i++) TF_DeleteTensor(out[i]);
          } else {
            CHECK(c == TF_DATA_LOSS || c == TF_OUT_OF_RANGE ||
                  c == TF_INVALID_ARGUMENT || c == TF_INTERNAL ||
                  c == TF_NOT_FOUND);
          }
        }
        snprintf(dst, sizeof dst, "%s/v1_ckpt", d);
        for (i = 0; i < 19; i += 3) {
          TF_Tensor* out[1];
          TF_Tensor* w;
          TF_Code c;
          if (!v1_ok(i)) continue;
          w = gold_tensor(i);
          c = restore_v1(dst, kGoldNames[i], NULL, TF_TensorType(w), out, msg);
          TF_DeleteTensor(w);
          if (c == TF_OK) TF_DeleteTensor(out[0]);
          else
            CHECK(c == TF_DATA_LOSS || c == TF_INVALID_ARGUMENT ||
                  c == TF_INTERNAL || c == TF_NOT_FOUND || c == TF_UNIMPLEMENTED);
        }
      }
    }
    free(orig);
  }
  fs_remove_tree(d);
  free(d);
}

/* Shape inference from constant shape_and_slice inputs (TF's shape fns). */
TEST(graph_shape_inference) {
  TF_Graph* g = TF_NewGraph();
  TF_Status* s = TF_NewStatus();
  TF_Operation *pfx, *names, *specs, *r;
  const char* nm[2] = {"a", "b"};
  const char* sp[2] = {"4 5 1,2:-", ""};
  TF_DataType dts[2] = {TF_FLOAT, TF_INT32};
  int64_t dims[4];
  pfx = gt_placeholder(g, "prefix", TF_STRING);
  names = gt_const(g, "names", str_tensor(nm, NULL, 2, 1), NULL);
  specs = gt_const(g, "specs", str_tensor(sp, NULL, 2, 1), NULL);
  {
    TF_OperationDescription* od = TF_NewOperation(g, "RestoreV2", "restore");
    TF_AddInput(od, gt_out(pfx, 0));
    TF_AddInput(od, gt_out(names, 0));
    TF_AddInput(od, gt_out(specs, 0));
    TF_SetAttrTypeList(od, "dtypes", dts, 2);
    r = gt_finish(od);
  }
  CHECK_EQ_INT(TF_GraphGetTensorNumDims(g, gt_out(r, 0), s), 2);
  TF_GraphGetTensorShape(g, gt_out(r, 0), dims, 2, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(dims[0], 2);
  CHECK_EQ_INT(dims[1], 5);
  CHECK_EQ_INT(TF_GraphGetTensorNumDims(g, gt_out(r, 1), s), -1);
  {
    /* A bad constant spec fails when the node is added, as in TF. */
    const char* bad[1] = {"4 5 1,9:-"};
    TF_Operation* bs = gt_const(g, "bad", str_tensor(bad, NULL, 1, 1), NULL);
    TF_Operation* n1 = gt_const(g, "n1", str_tensor(nm, NULL, 1, 1), NULL);
    TF_OperationDescription* od = TF_NewOperation(g, "RestoreV2", "restore_bad");
    TF_AddInput(od, gt_out(pfx, 0));
    TF_AddInput(od, gt_out(n1, 0));
    TF_AddInput(od, gt_out(bs, 0));
    TF_SetAttrTypeList(od, "dtypes", dts, 1);
    TF_FinishOperation(od, s);
    CHECK(TF_GetCode(s) != TF_OK);
    CHECK_STR_CONTAINS(TF_Message(s), "Extent in dimension 0 out of bounds");
  }
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* Filesystem plugins: the ops on testfs:// (a plugin built like a TF
 * plugin) and on docmin:// (the same without get_children, rename_file,
 * copy_file); a plugin's own errors reach the caller unchanged. */
TEST(ops_on_filesystem_plugins) {
  char* root = fs_register_testfs();
  char msg[1024];
  TF_Tensor* out[1];
  float v[3] = {1, 2, 3};
  int64_t d3[1] = {3};
  TF_Status* s = TF_NewStatus();
  TF_RegisterFilesystemPlugin(fs_plugin_path("doctor_fs_minimal"), s);
  CHECK(TF_GetCode(s) == TF_OK || TF_GetCode(s) == TF_ALREADY_EXISTS);
  TF_DeleteStatus(s);
  /* testfs: everything works; RestoreV2 finds the index through the core's
   * glob over the plugin's get_children. */
  {
    /* Like TF's BundleWriter, SaveV2 makes the prefix's folder, not its
     * parents: the plugin's NOT_FOUND comes back as it said it. */
    int64_t one[1] = {1};
    CHECK_EQ_INT(save_v2_1("testfs://h/ckpt_ops/ckpt", "a", "",
                           num_tensor(TF_FLOAT, one, 1, v, 4), msg),
                 TF_NOT_FOUND);
    CHECK_STR_CONTAINS(msg, "/h/ckpt_ops; No such file or directory");
    s = TF_NewStatus();
    TFE_RecursivelyCreateDir("testfs://h", s);
    CHECK_CODE(s, TF_OK);
    TFE_RecursivelyCreateDir("docmin://h", s);
    CHECK_CODE(s, TF_OK);
    TF_DeleteStatus(s);
  }
  save_golden("testfs://h/ckpt_ops/ckpt");
  restore_golden("testfs://h/ckpt_ops/ckpt");
  CHECK_EQ_INT(write_file("testfs://h/files/a/b.bin", "abc", 3, msg), TF_OK);
  CHECK_EQ_INT(read_file("testfs://h/files/a/b.bin", out, msg), TF_OK);
  check_str(out[0], 0, "abc", 3);
  TF_DeleteTensor(out[0]);
  fs_write("testfs://h/files/w.bin", (const char*)v, sizeof v);
  CHECK_EQ_INT(immutable_const("testfs://h/files/w.bin", TF_FLOAT, d3, 1, out, msg),
               TF_OK);
  CHECK(memcmp(TF_TensorData(out[0]), v, sizeof v) == 0);
  TF_DeleteTensor(out[0]);
  /* The plugin's own status: a path component that is a file. */
  CHECK_EQ_INT(write_file("testfs://h/files/w.bin/x/y", "z", 1, msg),
               TF_FAILED_PRECONDITION);
  CHECK_STR_EQ(msg, "testfs: a path component is not a directory");
  /* docmin: saving works (the core renames by copy + delete) and so does
   * restoring (the index is found without listing a folder). */
  save_golden("docmin://h/ckpt_min/ckpt");
  restore_golden("docmin://h/ckpt_min/ckpt");
  fs_remove_tree(root);
  free(root);
}

/* The savers of SavedModels TF 2.21 exported, run by tfe: the TF 1
 * Saver's sharded save (StringJoin, ShardedFilename, SaveV2,
 * MergeV2Checkpoints as graph nodes) and a tf.function save (Keras 3
 * export). The checkpoint they write holds the same tensors as the
 * model's own variables/variables checkpoint TF wrote. */
static void saver_round_trip(const char* model, const char* filename_tensor,
                             const char* save_tensor) {
  char dir[1200], prefix[1300], orig[1300];
  char* d = tmpdir();
  const char* tags[1] = {"serve"};
  TF_Status* s = TF_NewStatus();
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Graph* g = TF_NewGraph();
  TF_Session* sess;
  TF_Output feed, fetch;
  TF_Tensor* fv;
  TF_Tensor* got = NULL;
  TF_CheckpointReader *a, *b;
  int i, n;
  snprintf(dir, sizeof dir, "%s/saved_models/%s", DATA, model);
  snprintf(prefix, sizeof prefix, "%s/ckpt", d);
  snprintf(orig, sizeof orig, "%s/variables/variables", dir);
  sess = TF_LoadSessionFromSavedModel(o, NULL, dir, tags, 1, g, NULL, s);
  if (TF_GetCode(s) != TF_OK) TFE_FAIL("load %s: %s", model, TF_Message(s));
  {
    char name[256];
    char* colon;
    snprintf(name, sizeof name, "%s", filename_tensor);
    colon = strchr(name, ':');
    *colon = '\0';
    feed.oper = TF_GraphOperationByName(g, name);
    feed.index = 0;
    snprintf(name, sizeof name, "%s", save_tensor);
    colon = strchr(name, ':');
    *colon = '\0';
    fetch.oper = TF_GraphOperationByName(g, name);
    fetch.index = 0;
    CHECK(feed.oper != NULL && fetch.oper != NULL);
  }
  fv = str_scalar(prefix);
  TF_SessionRun(sess, NULL, &feed, &fv, 1, &fetch, &got, 1, NULL, 0, NULL, s);
  if (TF_GetCode(s) != TF_OK) TFE_FAIL("save %s: %s", model, TF_Message(s));
  check_str(got, 0, prefix, strlen(prefix));
  TF_DeleteTensor(got);
  TF_DeleteTensor(fv);
  a = TF_NewCheckpointReader(orig, s);
  CHECK_CODE(s, TF_OK);
  b = TF_NewCheckpointReader(prefix, s);
  CHECK_CODE(s, TF_OK);
  n = TF_CheckpointReaderSize(a);
  CHECK(n > 0);
  CHECK_EQ_INT(TF_CheckpointReaderSize(b), n);
  for (i = 0; i < n; i++) {
    const char* name = TF_CheckpointReaderGetVariable(a, i);
    TF_Tensor* x = TF_CheckpointReaderGetTensor(a, name, s);
    TF_Tensor* y;
    CHECK_CODE(s, TF_OK);
    y = TF_CheckpointReaderGetTensor(b, name, s);
    if (TF_GetCode(s) != TF_OK) TFE_FAIL("%s: %s", name, TF_Message(s));
    CHECK_EQ_INT(TF_TensorType(x), TF_TensorType(y));
    CHECK_EQ_SIZE(TF_TensorByteSize(x), TF_TensorByteSize(y));
    if (TF_TensorType(x) != TF_STRING) {
      CHECK(memcmp(TF_TensorData(x), TF_TensorData(y), TF_TensorByteSize(x)) == 0);
    }
    /* Strings: Keras' _CHECKPOINTABLE_OBJECT_GRAPH is the export
     * function's constant, which differs from the one TF's Python wrote
     * in variables/ (TF's own run of the save function writes tfe's
     * value, 1,324 bytes against 1,328). */
    TF_DeleteTensor(x);
    TF_DeleteTensor(y);
  }
  TF_DeleteCheckpointReader(a);
  TF_DeleteCheckpointReader(b);
  if (getenv("TFE_CKPT_SAVER_COPY") != NULL) {
    char cmd[3000];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/%s && cp %s.* %s/%s/",
             getenv("TFE_CKPT_SAVER_COPY"), model, prefix,
             getenv("TFE_CKPT_SAVER_COPY"), model);
    CHECK(system(cmd) == 0);
  }
  gt_close(sess);
  TF_DeleteGraph(g);
  TF_DeleteSessionOptions(o);
  TF_DeleteStatus(s);
  fs_remove_tree(d);
  free(d);
}

TEST(savedmodel_savers_tf1_and_keras) {
  saver_round_trip("tf1_simple_save", "save/Const:0", "save/Identity:0");
  saver_round_trip("keras_mlp", "saver_filename:0", "StatefulPartitionedCall_2:0");
}

/* ------------------------------------------------------------------------
 * Graphs: save and restore through a session, as TF 1 savers do. */

TEST(graph_save_restore_session) {
  char* d = tmpdir();
  char prefix[1100];
  TF_Graph* g = TF_NewGraph();
  TF_Status* s = TF_NewStatus();
  TF_Operation *pfx, *names, *specs, *val, *save, *restore;
  TF_Session* sess;
  float v[3] = {1, 2, 3};
  int64_t dims[1] = {3};
  const char* nm = "v";
  const char* sp = "";
  TF_DataType dt = TF_FLOAT;
  TF_Tensor* got;
  snprintf(prefix, sizeof prefix, "%s/model", d);
  pfx = gt_placeholder(g, "prefix", TF_STRING);
  names = gt_const(g, "names", str_tensor(&nm, NULL, 1, 1), NULL);
  specs = gt_const(g, "specs", str_tensor(&sp, NULL, 1, 1), NULL);
  val = gt_const(g, "val", num_tensor(TF_FLOAT, dims, 1, v, sizeof v), NULL);
  {
    TF_OperationDescription* od = TF_NewOperation(g, "SaveV2", "save");
    TF_Output ins[1];
    TF_AddInput(od, gt_out(pfx, 0));
    TF_AddInput(od, gt_out(names, 0));
    TF_AddInput(od, gt_out(specs, 0));
    ins[0] = gt_out(val, 0);
    TF_AddInputList(od, ins, 1);
    save = gt_finish(od);
  }
  {
    TF_OperationDescription* od = TF_NewOperation(g, "RestoreV2", "restore");
    TF_AddInput(od, gt_out(pfx, 0));
    TF_AddInput(od, gt_out(names, 0));
    TF_AddInput(od, gt_out(specs, 0));
    TF_SetAttrTypeList(od, "dtypes", &dt, 1);
    restore = gt_finish(od);
  }
  sess = gt_session(g);
  {
    TF_Output feed = gt_out(pfx, 0);
    TF_Tensor* fv = str_scalar(prefix);
    TF_SessionRun(sess, NULL, &feed, &fv, 1, NULL, NULL, 0,
                  (const TF_Operation* const*)&save, 1, NULL, s);
    CHECK_CODE(s, TF_OK);
    got = gt_run1(sess, &feed, fv, gt_out(restore, 0), NULL);
    TF_DeleteTensor(fv);
  }
  CHECK(memcmp(TF_TensorData(got), v, sizeof v) == 0);
  TF_DeleteTensor(got);
  gt_close(sess);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  fs_remove_tree(d);
  free(d);
}

TFE_TEST_MAIN
