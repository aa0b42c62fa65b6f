/* TF_CheckpointReader over the checkpoints in tests/data/checkpoints (made
 * by make_checkpoints.py there with TensorFlow 2.21; the expected values
 * below are the ones that script saves), plus damaged copies made in a
 * temporary directory. */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/c/tf_tstring.h"
#include "tfe_test.h"

#define CKPT_DIR TFE_TEST_DATA_DIR "/checkpoints/"

static TF_CheckpointReader* open_ok(const char* prefix) {
  TF_Status* s = TF_NewStatus();
  TF_CheckpointReader* r = TF_NewCheckpointReader(prefix, s);
  if (TF_GetCode(s) != TF_OK) TFE_FAIL("open %s: %s", prefix, TF_Message(s));
  CHECK(r != NULL);
  TF_DeleteStatus(s);
  return r;
}

/* Reads tensor `name`, checks dtype and shape, returns it. */
static TF_Tensor* get(TF_CheckpointReader* r, const char* name,
                      TF_DataType dtype, int nd, const int64_t* dims) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* t = TF_CheckpointReaderGetTensor(r, name, s);
  int i;
  if (TF_GetCode(s) != TF_OK) TFE_FAIL("get %s: %s", name, TF_Message(s));
  CHECK(t != NULL);
  CHECK_EQ_INT(TF_TensorType(t), dtype);
  CHECK_EQ_INT(TF_NumDims(t), nd);
  for (i = 0; i < nd; i++) CHECK_EQ_INT(TF_Dim(t, i), dims[i]);
  CHECK_EQ_INT(TF_CheckpointReaderGetVariableDataType(r, name), dtype);
  CHECK_EQ_INT(TF_CheckpointReaderGetVariableNumDims(r, name), nd);
  {
    int64_t got[8] = {-5, -5, -5, -5, -5, -5, -5, -5};
    TF_CheckpointReaderGetVariableShape(r, name, got, nd, s);
    CHECK_CODE(s, TF_OK);
    for (i = 0; i < nd; i++) CHECK_EQ_INT(got[i], dims[i]);
  }
  TF_DeleteStatus(s);
  return t;
}

static void check_str(const TF_TString* t, const char* want, size_t n) {
  CHECK_EQ_SIZE(TF_StringGetSize(t), n);
  CHECK(memcmp(TF_StringGetDataPointer(t), want, n) == 0);
}

/* Every tensor raw_tensors() in make_checkpoints.py saves. */
static void check_raw(const char* prefix) {
  TF_CheckpointReader* r = open_ok(prefix);
  TF_Tensor* t;
  int i;
  char name[32];
  {
    static const int64_t d[] = {2, 3};
    const float* f;
    t = get(r, "a/weights", TF_FLOAT, 2, d);
    f = (const float*)TF_TensorData(t);
    for (i = 0; i < 6; i++) CHECK(f[i] == (float)i * 0.5f - 1.0f);
    TF_DeleteTensor(t);
  }
  {
    static const int64_t d[] = {3};
    const double* v;
    t = get(r, "b", TF_DOUBLE, 1, d);
    v = (const double*)TF_TensorData(t);
    CHECK(v[0] == 1.5 && v[1] == -2.25 && v[2] == 1e300);
    TF_DeleteTensor(t);
  }
  {
    static const int64_t d[] = {3};
    const int32_t* v;
    t = get(r, "c_int32", TF_INT32, 1, d);
    v = (const int32_t*)TF_TensorData(t);
    CHECK(v[0] == -7 && v[1] == 0 && v[2] == 2147483647);
    TF_DeleteTensor(t);
  }
  {
    static const int64_t d[] = {2, 1};
    const int64_t* v;
    t = get(r, "d_int64", TF_INT64, 2, d);
    v = (const int64_t*)TF_TensorData(t);
    CHECK(v[0] == -((int64_t)1 << 40) && v[1] == ((int64_t)1 << 62));
    TF_DeleteTensor(t);
  }
  {
    static const int64_t d[] = {4};
    const unsigned char* v;
    t = get(r, "e_bool", TF_BOOL, 1, d);
    v = (const unsigned char*)TF_TensorData(t);
    CHECK(v[0] == 1 && v[1] == 0 && v[2] == 1 && v[3] == 1);
    TF_DeleteTensor(t);
  }
  {
    static const int64_t d[] = {4};
    const TF_TString* v;
    char xs[200];
    memset(xs, 'x', sizeof xs);
    t = get(r, "f_str", TF_STRING, 1, d);
    v = (const TF_TString*)TF_TensorData(t);
    check_str(&v[0], "hello", 5);
    check_str(&v[1], "", 0);
    check_str(&v[2], "\xc3\xa9t\xc3\xa9", 5);
    check_str(&v[3], xs, 200);
    TF_DeleteTensor(t);
  }
  {
    static const int64_t d[] = {3};
    const uint16_t* v;
    t = get(r, "g_half", TF_HALF, 1, d);
    v = (const uint16_t*)TF_TensorData(t);
    CHECK(v[0] == 0x3c00 && v[1] == 0xb800 && v[2] == 0x7bff);
    TF_DeleteTensor(t);
  }
  t = get(r, "h_scalar", TF_FLOAT, 0, NULL);
  CHECK(*(const float*)TF_TensorData(t) == 42.0f);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), 4);
  TF_DeleteTensor(t);
  {
    static const int64_t d[] = {2, 3, 4};
    const int32_t* v;
    t = get(r, "i_3d", TF_INT32, 3, d);
    v = (const int32_t*)TF_TensorData(t);
    for (i = 0; i < 24; i++) CHECK_EQ_INT(v[i], i);
    TF_DeleteTensor(t);
  }
  {
    static const int64_t d[] = {0, 3};
    t = get(r, "j_empty", TF_FLOAT, 2, d);
    CHECK_EQ_SIZE(TF_TensorByteSize(t), 0);
    CHECK_EQ_INT(TF_TensorElementCount(t), 0);
    TF_DeleteTensor(t);
  }
  {
    static const int64_t d[] = {3};
    const uint8_t* v;
    t = get(r, "k_uint8", TF_UINT8, 1, d);
    v = (const uint8_t*)TF_TensorData(t);
    CHECK(v[0] == 0 && v[1] == 255 && v[2] == 7);
    TF_DeleteTensor(t);
  }
  {
    static const int64_t d[] = {2};
    const int16_t* v;
    const int8_t* w;
    t = get(r, "l_int16", TF_INT16, 1, d);
    v = (const int16_t*)TF_TensorData(t);
    CHECK(v[0] == -32768 && v[1] == 32767);
    TF_DeleteTensor(t);
    t = get(r, "m_int8", TF_INT8, 1, d);
    w = (const int8_t*)TF_TensorData(t);
    CHECK(w[0] == -128 && w[1] == 127);
    TF_DeleteTensor(t);
  }
  {
    static const int64_t d[] = {2};
    const float* v;
    t = get(r, "n_complex64", TF_COMPLEX64, 1, d);
    v = (const float*)TF_TensorData(t);
    CHECK(v[0] == 1.0f && v[1] == 2.0f && v[2] == 0.0f && v[3] == -3.5f);
    TF_DeleteTensor(t);
  }
  {
    static const int64_t d[] = {3};
    const uint16_t* v;
    t = get(r, "o_bfloat16", TF_BFLOAT16, 1, d);
    v = (const uint16_t*)TF_TensorData(t);
    CHECK(v[0] == 0x3f80 && v[1] == 0xc000 && v[2] == 0x3f00);
    TF_DeleteTensor(t);
  }
  t = get(r, "p_str_scalar", TF_STRING, 0, NULL);
  check_str((const TF_TString*)TF_TensorData(t), "scalar string", 13);
  TF_DeleteTensor(t);
  {
    static const int64_t d[] = {1000};
    const float* v;
    t = get(r, "q_large", TF_FLOAT, 1, d);
    v = (const float*)TF_TensorData(t);
    for (i = 0; i < 1000; i++) CHECK(v[i] == (float)i * 0.25f);
    TF_DeleteTensor(t);
  }
  for (i = 0; i < 40; i++) {
    static const int64_t d[] = {2};
    const int64_t* v;
    snprintf(name, sizeof name, "many/%02d", i);
    t = get(r, name, TF_INT64, 1, d);
    v = (const int64_t*)TF_TensorData(t);
    CHECK(v[0] == i && v[1] == (int64_t)i * i);
    TF_DeleteTensor(t);
  }
  /* 17 named tensors plus 40 "many/NN", listed in byte order. */
  CHECK_EQ_INT(TF_CheckpointReaderSize(r), 57);
  CHECK_STR_EQ(TF_CheckpointReaderGetVariable(r, 0), "a/weights");
  CHECK_STR_EQ(TF_CheckpointReaderGetVariable(r, 13), "many/00");
  CHECK_STR_EQ(TF_CheckpointReaderGetVariable(r, 52), "many/39");
  CHECK_STR_EQ(TF_CheckpointReaderGetVariable(r, 56), "q_large");
  for (i = 1; i < 57; i++) {
    CHECK(strcmp(TF_CheckpointReaderGetVariable(r, i - 1),
                 TF_CheckpointReaderGetVariable(r, i)) < 0);
  }
  TF_DeleteCheckpointReader(r);
}

TEST(raw_savev2_every_dtype) { check_raw(CKPT_DIR "raw/ckpt"); }
TEST(index_with_many_blocks) { check_raw(CKPT_DIR "multiblock/ckpt"); }
TEST(snappy_compressed_index) { check_raw(CKPT_DIR "snappy/ckpt"); }
TEST(two_data_shards) { check_raw(CKPT_DIR "sharded/ckpt"); }

TEST(object_based_checkpoint) {
  static const char* names[] = {
      "_CHECKPOINTABLE_OBJECT_GRAPH",    "big/.ATTRIBUTES/VARIABLE_VALUE",
      "cube/.ATTRIBUTES/VARIABLE_VALUE", "d/.ATTRIBUTES/VARIABLE_VALUE",
      "flag/.ATTRIBUTES/VARIABLE_VALUE", "h/.ATTRIBUTES/VARIABLE_VALUE",
      "n/.ATTRIBUTES/VARIABLE_VALUE",    "none/.ATTRIBUTES/VARIABLE_VALUE",
      "s/.ATTRIBUTES/VARIABLE_VALUE",    "w/.ATTRIBUTES/VARIABLE_VALUE"};
  TF_CheckpointReader* r = open_ok(CKPT_DIR "objgraph/ckpt");
  TF_Tensor* t;
  int i;
  CHECK_EQ_INT(TF_CheckpointReaderSize(r), 10);
  for (i = 0; i < 10; i++) {
    CHECK_STR_EQ(TF_CheckpointReaderGetVariable(r, i), names[i]);
    CHECK_EQ_INT(TF_CheckpointReaderHasTensor(r, names[i]), 1);
  }
  CHECK(TF_CheckpointReaderGetVariable(r, 10) == NULL);
  CHECK(TF_CheckpointReaderGetVariable(r, -1) == NULL);
  /* The returned name is the reader's, stable across calls. */
  CHECK(TF_CheckpointReaderGetVariable(r, 3) ==
        TF_CheckpointReaderGetVariable(r, 3));

  t = get(r, names[0], TF_STRING, 0, NULL);
  CHECK_EQ_SIZE(TF_StringGetSize((const TF_TString*)TF_TensorData(t)), 667);
  TF_DeleteTensor(t);
  {
    static const int64_t d[] = {2};
    const int64_t* v;
    t = get(r, names[1], TF_INT64, 1, d);
    v = (const int64_t*)TF_TensorData(t);
    CHECK(v[0] == ((int64_t)1 << 40) && v[1] == -1);
    TF_DeleteTensor(t);
  }
  {
    static const int64_t d[] = {2, 2, 2};
    const float* v;
    t = get(r, names[2], TF_FLOAT, 3, d);
    v = (const float*)TF_TensorData(t);
    for (i = 0; i < 8; i++) CHECK(v[i] == (float)i);
    TF_DeleteTensor(t);
  }
  {
    static const int64_t d[] = {2};
    const double* v;
    const unsigned char* b;
    const uint16_t* h;
    const TF_TString* s;
    t = get(r, names[3], TF_DOUBLE, 1, d);
    v = (const double*)TF_TensorData(t);
    CHECK(v[0] == 0.1 && v[1] == 0.2);
    TF_DeleteTensor(t);
    t = get(r, names[4], TF_BOOL, 1, d);
    b = (const unsigned char*)TF_TensorData(t);
    CHECK(b[0] == 1 && b[1] == 0);
    TF_DeleteTensor(t);
    t = get(r, names[5], TF_HALF, 1, d);
    h = (const uint16_t*)TF_TensorData(t);
    CHECK(h[0] == 0x3400 && h[1] == 0x4000);
    TF_DeleteTensor(t);
    t = get(r, names[8], TF_STRING, 1, d);
    s = (const TF_TString*)TF_TensorData(t);
    check_str(&s[0], "ab", 2);
    check_str(&s[1], "cde", 3);
    TF_DeleteTensor(t);
  }
  t = get(r, names[6], TF_INT32, 0, NULL);
  CHECK_EQ_INT(*(const int32_t*)TF_TensorData(t), 7);
  TF_DeleteTensor(t);
  {
    static const int64_t d[] = {0};
    t = get(r, names[7], TF_INT32, 1, d);
    CHECK_EQ_SIZE(TF_TensorByteSize(t), 0);
    TF_DeleteTensor(t);
  }
  {
    static const int64_t d[] = {2, 3};
    const float* v;
    t = get(r, names[9], TF_FLOAT, 2, d);
    v = (const float*)TF_TensorData(t);
    for (i = 0; i < 6; i++) CHECK(v[i] == (float)(i + 1));
    TF_DeleteTensor(t);
  }
  TF_DeleteCheckpointReader(r);
}

TEST(unknown_names_and_rank_mismatch) {
  TF_CheckpointReader* r = open_ok(CKPT_DIR "raw/ckpt");
  TF_Status* s = TF_NewStatus();
  int64_t dims[3] = {7, 7, 7};
  CHECK_EQ_INT(TF_CheckpointReaderHasTensor(r, "nope"), 0);
  CHECK_EQ_INT(TF_CheckpointReaderHasTensor(r, "a/weight"), 0);
  CHECK_EQ_INT(TF_CheckpointReaderHasTensor(r, "a/weights"), 1);
  /* As in TensorFlow, the header's key "" is a key of the index. */
  CHECK_EQ_INT(TF_CheckpointReaderHasTensor(r, ""), 1);
  CHECK(TF_CheckpointReaderGetTensor(r, "nope", s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_EQ(TF_Message(s), "Key nope not found in checkpoint");
  CHECK(TF_CheckpointReaderGetTensor(r, "", s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_EQ_INT(TF_CheckpointReaderGetVariableDataType(r, "nope"), 0);
  CHECK_EQ_INT(TF_CheckpointReaderGetVariableNumDims(r, "nope"), -1);
  TF_CheckpointReaderGetVariableShape(r, "nope", dims, 1, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  TF_CheckpointReaderGetVariableShape(r, "a/weights", dims, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "Expected rank is 1 but actual rank is 2");
  CHECK_EQ_INT(dims[0], 7);
  TF_CheckpointReaderGetVariableShape(r, "a/weights", NULL, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_CheckpointReaderGetVariableShape(r, "h_scalar", NULL, 0, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
  TF_DeleteCheckpointReader(r);
}

TEST(null_arguments) {
  TF_CheckpointReader* r = open_ok(CKPT_DIR "raw/ckpt");
  TF_Status* s = TF_NewStatus();
  int64_t dims[2];
  CHECK(TF_NewCheckpointReader(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_NewCheckpointReader(CKPT_DIR "raw/ckpt", NULL) == NULL);
  TF_DeleteCheckpointReader(NULL);
  CHECK_EQ_INT(TF_CheckpointReaderHasTensor(NULL, "b"), 0);
  CHECK_EQ_INT(TF_CheckpointReaderHasTensor(r, NULL), 0);
  CHECK(TF_CheckpointReaderGetVariable(NULL, 0) == NULL);
  CHECK_EQ_INT(TF_CheckpointReaderSize(NULL), 0);
  CHECK_EQ_INT(TF_CheckpointReaderGetVariableDataType(NULL, "b"), 0);
  CHECK_EQ_INT(TF_CheckpointReaderGetVariableDataType(r, NULL), 0);
  CHECK_EQ_INT(TF_CheckpointReaderGetVariableNumDims(NULL, "b"), -1);
  CHECK_EQ_INT(TF_CheckpointReaderGetVariableNumDims(r, NULL), -1);
  TF_CheckpointReaderGetVariableShape(NULL, "b", dims, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_CheckpointReaderGetVariableShape(r, NULL, dims, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_CheckpointReaderGetVariableShape(r, "b", dims, 1, NULL);
  CHECK(TF_CheckpointReaderGetTensor(NULL, "b", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_CheckpointReaderGetTensor(r, NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_CheckpointReaderGetTensor(r, "b", NULL) == NULL);
  TF_DeleteStatus(s);
  TF_DeleteCheckpointReader(r);
}

TEST(missing_prefix) {
  TF_Status* s = TF_NewStatus();
  CHECK(TF_NewCheckpointReader("/nonexistent_dir_tfe/ckpt", s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_EQ(TF_Message(s),
               "Unsuccessful TensorSliceReader constructor: Failed to find "
               "any matching files for /nonexistent_dir_tfe/ckpt");
  /* A file that exists but has no .index next to it would be a V1
   * checkpoint to TensorFlow; tfe does not read those. */
  CHECK(TF_NewCheckpointReader(CKPT_DIR "raw/ckpt.index", s) == NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(TF_Message(s), "V1");
  TF_DeleteStatus(s);
}

/* ---------------------------------------------------------------- damage */

static char g_tmp[256];

static unsigned char* slurp(const char* path, size_t* n) {
  FILE* f = fopen(path, "rb");
  unsigned char* buf;
  long len;
  CHECK(f != NULL);
  CHECK(fseek(f, 0, SEEK_END) == 0);
  len = ftell(f);
  CHECK(len >= 0);
  rewind(f);
  buf = (unsigned char*)malloc((size_t)len + 1);
  CHECK(buf != NULL);
  CHECK(fread(buf, 1, (size_t)len, f) == (size_t)len);
  fclose(f);
  *n = (size_t)len;
  return buf;
}

static void spit(const char* path, const unsigned char* p, size_t n) {
  FILE* f = fopen(path, "wb");
  CHECK(f != NULL);
  CHECK(fwrite(p, 1, n, f) == n);
  CHECK(fclose(f) == 0);
}

/* Copies raw/ckpt into a new temporary directory; returns its prefix. */
static const char* copy_raw(void) {
  static char prefix[300];
  unsigned char* p;
  size_t n;
  char path[320];
  snprintf(g_tmp, sizeof g_tmp, "/tmp/tfe_ckpt_XXXXXX");
  CHECK(mkdtemp(g_tmp) != NULL);
  snprintf(prefix, sizeof prefix, "%s/ckpt", g_tmp);
  p = slurp(CKPT_DIR "raw/ckpt.index", &n);
  snprintf(path, sizeof path, "%s.index", prefix);
  spit(path, p, n);
  free(p);
  p = slurp(CKPT_DIR "raw/ckpt.data-00000-of-00001", &n);
  snprintf(path, sizeof path, "%s.data-00000-of-00001", prefix);
  spit(path, p, n);
  free(p);
  return prefix;
}

static void remove_copy(const char* prefix) {
  char path[320];
  snprintf(path, sizeof path, "%s.index", prefix);
  unlink(path);
  snprintf(path, sizeof path, "%s.data-00000-of-00001", prefix);
  unlink(path);
  rmdir(g_tmp);
}

/* Rewrites file `suffix` of the copy with byte `at` flipped (at >= 0) or
 * cut to `keep` bytes. */
static void damage(const char* prefix, const char* suffix, long at,
                   long keep) {
  char path[320];
  unsigned char* p;
  size_t n;
  snprintf(path, sizeof path, "%s%s", prefix, suffix);
  p = slurp(path, &n);
  if (at >= 0) {
    CHECK((size_t)at < n);
    p[at] ^= 0x01;
  }
  if (keep >= 0 && (size_t)keep < n) n = (size_t)keep;
  spit(path, p, n);
  free(p);
}

static long find_bytes(const char* path, const char* needle) {
  size_t n, k = strlen(needle), i;
  unsigned char* p = slurp(path, &n);
  long at = -1;
  for (i = 0; i + k <= n; i++) {
    if (memcmp(p + i, needle, k) == 0) {
      at = (long)i;
      break;
    }
  }
  free(p);
  CHECK(at >= 0);
  return at;
}

TEST(corrupted_numeric_data_is_data_loss) {
  const char* prefix = copy_raw();
  TF_CheckpointReader* r;
  TF_Status* s = TF_NewStatus();
  TF_Tensor* t;
  char msg[512];
  /* "a/weights" sorts first, so its 24 bytes start the data file. */
  damage(prefix, ".data-00000-of-00001", 0, -1);
  r = open_ok(prefix);
  CHECK(TF_CheckpointReaderGetTensor(r, "a/weights", s) == NULL);
  CHECK_CODE(s, TF_DATA_LOSS);
  snprintf(msg, sizeof msg,
           "TensorBundle at %s shard 0 (24 bytes): Checksum does not match: "
           "stored ",
           prefix);
  CHECK_STR_CONTAINS(TF_Message(s), msg);
  CHECK_STR_CONTAINS(TF_Message(s), " vs. calculated on the restored bytes ");
  /* Other tensors are unaffected. */
  t = TF_CheckpointReaderGetTensor(r, "b", s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  TF_DeleteCheckpointReader(r);
  TF_DeleteStatus(s);
  remove_copy(prefix);
}

TEST(corrupted_string_data_is_data_loss) {
  const char* prefix = copy_raw();
  char data[320];
  long at;
  TF_CheckpointReader* r;
  TF_Status* s = TF_NewStatus();
  snprintf(data, sizeof data, "%s.data-00000-of-00001", prefix);
  at = find_bytes(data, "hello");
  /* A flipped string byte fails the entry checksum ... */
  damage(prefix, ".data-00000-of-00001", at + 1, -1);
  r = open_ok(prefix);
  CHECK(TF_CheckpointReaderGetTensor(r, "f_str", s) == NULL);
  CHECK_CODE(s, TF_DATA_LOSS);
  CHECK_STR_CONTAINS(TF_Message(s), "Checksum does not match");
  TF_DeleteCheckpointReader(r);
  /* ... and a flipped byte of the length checksum (just before the first
   * string) fails that one first. */
  damage(prefix, ".data-00000-of-00001", at + 1, -1); /* undo */
  damage(prefix, ".data-00000-of-00001", at - 1, -1);
  r = open_ok(prefix);
  CHECK(TF_CheckpointReaderGetTensor(r, "f_str", s) == NULL);
  CHECK_CODE(s, TF_DATA_LOSS);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "The length checksum does not match: expected ");
  TF_DeleteCheckpointReader(r);
  TF_DeleteStatus(s);
  remove_copy(prefix);
}

TEST(missing_and_truncated_data_shard) {
  const char* prefix = copy_raw();
  char data[320];
  TF_CheckpointReader* r;
  TF_Status* s = TF_NewStatus();
  TF_Tensor* t;
  snprintf(data, sizeof data, "%s.data-00000-of-00001", prefix);
  /* Truncated: the last tensor ("q_large", stored last) is cut short. */
  damage(prefix, ".data-00000-of-00001", -1, 4000);
  r = open_ok(prefix);
  t = TF_CheckpointReaderGetTensor(r, "a/weights", s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  CHECK(TF_CheckpointReaderGetTensor(r, "q_large", s) == NULL);
  CHECK(TF_GetCode(s) == TF_OUT_OF_RANGE || TF_GetCode(s) == TF_DATA_LOSS);
  TF_DeleteCheckpointReader(r);
  /* Missing: the index opens (as in TensorFlow), reads fail. */
  CHECK(unlink(data) == 0);
  r = open_ok(prefix);
  CHECK_EQ_INT(TF_CheckpointReaderSize(r), 57);
  CHECK(TF_CheckpointReaderGetTensor(r, "b", s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "ckpt.data-00000-of-00001");
  TF_DeleteCheckpointReader(r);
  TF_DeleteStatus(s);
  remove_copy(prefix);
}

TEST(damaged_index) {
  const char* prefix = copy_raw();
  char index[320];
  unsigned char* orig;
  size_t n;
  TF_Status* s = TF_NewStatus();
  snprintf(index, sizeof index, "%s.index", prefix);
  orig = slurp(index, &n);

  spit(index, orig, 30);
  CHECK(TF_NewCheckpointReader(prefix, s) == NULL);
  CHECK_CODE(s, TF_DATA_LOSS);
  CHECK_STR_EQ(TF_Message(s), "file is too short to be an sstable");

  spit(index, orig, 0);
  CHECK(TF_NewCheckpointReader(prefix, s) == NULL);
  CHECK_CODE(s, TF_DATA_LOSS);

  spit(index, orig, n - 10);
  CHECK(TF_NewCheckpointReader(prefix, s) == NULL);
  CHECK_CODE(s, TF_DATA_LOSS);
  CHECK_STR_EQ(TF_Message(s), "not an sstable (bad magic number)");

  /* A flipped byte in the (first) data block of the index. */
  spit(index, orig, n);
  damage(prefix, ".index", 20, -1);
  CHECK(TF_NewCheckpointReader(prefix, s) == NULL);
  CHECK_CODE(s, TF_DATA_LOSS);
  CHECK_STR_CONTAINS(TF_Message(s), "(failed to seek to header entry): "
                                    "block checksum mismatch");
  CHECK_STR_CONTAINS(TF_Message(s), index);

  /* Every single-byte flip and every truncation fails cleanly (or, for
   * bytes no check covers such as footer padding, still opens). */
  {
    size_t i;
    for (i = 0; i < n; i++) {
      TF_CheckpointReader* r;
      spit(index, orig, n);
      damage(prefix, ".index", (long)i, -1);
      r = TF_NewCheckpointReader(prefix, s);
      CHECK((r == NULL) == (TF_GetCode(s) != TF_OK));
      TF_DeleteCheckpointReader(r);
      spit(index, orig, i);
      r = TF_NewCheckpointReader(prefix, s);
      CHECK(r == NULL);
      CHECK(TF_GetCode(s) != TF_OK);
    }
  }
  spit(index, orig, n);
  free(orig);
  TF_DeleteStatus(s);
  remove_copy(prefix);
}

TFE_TEST_MAIN
