/* Lookup tables (HashTableV2, MutableHashTableV2,
 * MutableHashTableOfTensorsV2, the Anonymous and TF 1 forms, the
 * initializers and access ops) run eagerly and in sessions, with the
 * results, codes and messages TensorFlow 2.21 gives (recorded from TF 2.21
 * by hand with tf.raw_ops; see tools/gen_tf_lookup_data.py for the graph
 * cases checked from Python). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eager_test_util.h"
#include "tensorflow/c/env.h"
#include "tensorflow/c/tf_tstring.h"

/* ---- helpers ---- */

static TFE_TensorHandle* str_tensor(const char* const* v, const int64_t* dims,
                                    int nd, TF_Status* s) {
  int64_t n = 1;
  int i;
  TF_Tensor* t;
  TFE_TensorHandle* h;
  for (i = 0; i < nd; i++) n *= dims[i];
  t = TF_AllocateTensor(TF_STRING, dims, nd, (size_t)n * sizeof(TF_TString));
  CHECK(t != NULL);
  for (i = 0; i < n; i++) {
    TF_TString_Copy((TF_TString*)TF_TensorData(t) + i, v[i], strlen(v[i]));
  }
  h = TFE_NewTensorHandle(t, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  return h;
}

static TFE_TensorHandle* str_vec(const char* const* v, int n, TF_Status* s) {
  int64_t d[1] = {n};
  return str_tensor(v, d, 1, s);
}

static TFE_TensorHandle* str_scalar(const char* v, TF_Status* s) {
  return str_tensor(&v, NULL, 0, s);
}

static TFE_TensorHandle* i64_tensor(const int64_t* v, const int64_t* dims,
                                    int nd, TF_Status* s) {
  int64_t n = 1;
  int i;
  for (i = 0; i < nd; i++) n *= dims[i];
  return make_handle(TF_INT64, dims, nd, v, (size_t)n * 8, s);
}

static TFE_TensorHandle* i64_vec(const int64_t* v, int n, TF_Status* s) {
  int64_t d[1] = {n};
  return i64_tensor(v, d, 1, s);
}

static TFE_TensorHandle* i64_scalar(int64_t v, TF_Status* s) {
  return make_handle(TF_INT64, NULL, 0, &v, 8, s);
}

/* Makes a table: op, dtypes, shared name (NULL: none), value shape (rank
 * -2: leave the default). */
static TFE_TensorHandle* table(TFE_Context* ctx, const char* opname,
                               TF_DataType kt, TF_DataType vt,
                               const char* shared, int vrank,
                               const int64_t* vdims, TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, opname, s);
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  CHECK_CODE(s, TF_OK);
  TFE_OpSetAttrType(op, "key_dtype", kt);
  TFE_OpSetAttrType(op, "value_dtype", vt);
  if (shared != NULL) {
    TFE_OpSetAttrString(op, "shared_name", shared, strlen(shared));
  }
  if (vrank != -2) TFE_OpSetAttrShape(op, "value_shape", vdims, vrank, s);
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  return TF_GetCode(s) == TF_OK ? out[0] : NULL;
}

/* Runs op `name` on inputs; outputs to outs (n_out); Tkeys/Tvalues given
 * for exports. Returns the code. */
static TF_Code run(TFE_Context* ctx, const char* name,
                   TFE_TensorHandle* const* ins, int n_in,
                   TFE_TensorHandle** outs, int n_out, TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  int i, n = n_out;
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < n_in; i++) {
    TFE_OpAddInput(op, ins[i], s);
    CHECK_CODE(s, TF_OK);
  }
  for (i = 0; i < n_out; i++) outs[i] = NULL;
  TFE_Execute(op, outs, &n, s);
  TFE_DeleteOp(op);
  return TF_GetCode(s);
}

static TF_Code export_table(TFE_Context* ctx, TFE_TensorHandle* t,
                            TF_DataType kt, TF_DataType vt,
                            TFE_TensorHandle** outs, TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, "LookupTableExportV2", s);
  int n = 2;
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, t, s);
  TFE_OpSetAttrType(op, "Tkeys", kt);
  TFE_OpSetAttrType(op, "Tvalues", vt);
  outs[0] = outs[1] = NULL;
  TFE_Execute(op, outs, &n, s);
  TFE_DeleteOp(op);
  return TF_GetCode(s);
}

static int64_t table_size(TFE_Context* ctx, TFE_TensorHandle* t,
                          TF_Status* s) {
  TFE_TensorHandle* o;
  TF_Tensor* v;
  int64_t n;
  if (run(ctx, "LookupTableSizeV2", &t, 1, &o, 1, s) != TF_OK) return -1;
  v = TFE_TensorHandleResolve(o, s);
  CHECK_CODE(s, TF_OK);
  n = *(int64_t*)TF_TensorData(v);
  TF_DeleteTensor(v);
  TFE_DeleteTensorHandle(o);
  return n;
}

/* The int64 elements of a handle into v (at most cap); returns count. */
static int64_t read_i64s(TFE_TensorHandle* h, int64_t* v, int64_t cap,
                         TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  int64_t n;
  CHECK_CODE(s, TF_OK);
  CHECK(TF_TensorType(t) == TF_INT64);
  n = TF_TensorElementCount(t);
  CHECK(n <= cap);
  memcpy(v, TF_TensorData(t), (size_t)n * 8);
  TF_DeleteTensor(t);
  return n;
}

/* The strings of a handle joined with ',' into buf. */
static void read_strs(TFE_TensorHandle* h, char* buf, size_t cap,
                      TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  int64_t n, i;
  size_t len = 0;
  CHECK_CODE(s, TF_OK);
  CHECK(TF_TensorType(t) == TF_STRING);
  n = TF_TensorElementCount(t);
  buf[0] = '\0';
  for (i = 0; i < n; i++) {
    const TF_TString* e = (const TF_TString*)TF_TensorData(t) + i;
    len += (size_t)snprintf(buf + len, cap - len, "%s%.*s", i ? "," : "",
                            (int)TF_TString_GetSize(e),
                            TF_TString_GetDataPointer(e));
  }
  TF_DeleteTensor(t);
}

static void free_handles(TFE_TensorHandle** h, int n) {
  int i;
  for (i = 0; i < n; i++) TFE_DeleteTensorHandle(h[i]);
}

/* InitializeTableV2(t, keys strings, values int64). */
static TF_Code init_s_i64(TFE_Context* ctx, TFE_TensorHandle* t,
                          const char* const* keys, const int64_t* vals,
                          int n, TF_Status* s) {
  TF_Status* s2 = TF_NewStatus();
  TFE_TensorHandle* in[3] = {t, str_vec(keys, n, s2), i64_vec(vals, n, s2)};
  TF_Code c = run(ctx, "InitializeTableV2", in, 3, NULL, 0, s);
  TFE_DeleteTensorHandle(in[1]);
  TFE_DeleteTensorHandle(in[2]);
  TF_DeleteStatus(s2);
  return c;
}

/* LookupTableFindV2(t, keys, default) with string keys (dims) and an int64
 * default (ddims); fills got. */
static TF_Code find_s_i64(TFE_Context* ctx, TFE_TensorHandle* t,
                          const char* const* keys, const int64_t* kdims,
                          int knd, const int64_t* def, const int64_t* ddims,
                          int dnd, int64_t* got, int64_t cap, TF_Status* s) {
  TF_Status* s2 = TF_NewStatus();
  TFE_TensorHandle* in[3] = {t, str_tensor(keys, kdims, knd, s2),
                             i64_tensor(def, ddims, dnd, s2)};
  TFE_TensorHandle* out;
  TF_Code c = run(ctx, "LookupTableFindV2", in, 3, &out, 1, s);
  if (c == TF_OK) {
    read_i64s(out, got, cap, s2);
    TFE_DeleteTensorHandle(out);
  }
  TFE_DeleteTensorHandle(in[1]);
  TFE_DeleteTensorHandle(in[2]);
  TF_DeleteStatus(s2);
  return c;
}

/* ---- static HashTableV2 ---- */

TEST(hash_table_string_int64) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* t =
      table(ctx, "HashTableV2", TF_STRING, TF_INT64, "t1", -2, NULL, s);
  static const char* const ka[2] = {"a", "a"};
  static const int64_t va[2] = {1, 2};
  static const char* const kb[3] = {"a", "b", "a"};
  static const int64_t vb[3] = {1, 2, 1};
  static const char* const kx[1] = {"x"};
  static const char* const q[4] = {"a", "q", "b", "a"};
  int64_t d22[2] = {2, 2}, d3[1] = {3}, d2[1] = {2}, got[8];
  int64_t m1 = -1, defs[3] = {-1, -2, -3};
  TFE_TensorHandle* ex[2];
  char buf[256];
  CHECK_CODE(s, TF_OK);
  /* Before initialization. */
  CHECK_EQ_INT(find_s_i64(ctx, t, q, d2, 1, &m1, NULL, 0, got, 8, s),
               TF_FAILED_PRECONDITION);
  CHECK_STR_EQ(TF_Message(s), "Table not initialized.");
  CHECK_EQ_INT(table_size(ctx, t, s), 0);
  CHECK_EQ_INT(export_table(ctx, t, TF_STRING, TF_INT64, ex, s), TF_ABORTED);
  CHECK_STR_EQ(TF_Message(s), "HashTable is not initialized.");
  /* A key with two values. */
  CHECK_EQ_INT(init_s_i64(ctx, t, ka, va, 2, s), TF_FAILED_PRECONDITION);
  CHECK_STR_EQ(TF_Message(s),
               "HashTable has different value for same key. Key a has 1 and "
               "trying to add value 2");
  CHECK_EQ_INT(table_size(ctx, t, s), 0);
  /* Empty keys. */
  CHECK_EQ_INT(init_s_i64(ctx, t, NULL, NULL, 0, s), TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "keys and values cannot be empty tensors.");
  /* A repeated key with the same value is fine; the size counts keys. */
  CHECK_EQ_INT(init_s_i64(ctx, t, kb, vb, 3, s), TF_OK);
  CHECK_EQ_INT(table_size(ctx, t, s), 2);
  /* Initializing again: TF compares the sizes only (3 entries given, 2 in
   * the table, so even the same data is "different"). */
  CHECK_EQ_INT(init_s_i64(ctx, t, kb, vb, 3, s), TF_FAILED_PRECONDITION);
  CHECK_STR_EQ(TF_Message(s),
               "Table was already initialized with different data.");
  CHECK_EQ_INT(init_s_i64(ctx, t, kx, vb, 1, s), TF_FAILED_PRECONDITION);
  {
    static const char* const k2[2] = {"x", "y"};
    CHECK_EQ_INT(init_s_i64(ctx, t, k2, vb, 2, s), TF_OK); /* same size */
  }
  /* Finds. */
  CHECK_EQ_INT(find_s_i64(ctx, t, q, d22, 2, &m1, NULL, 0, got, 8, s), TF_OK);
  CHECK(got[0] == 1 && got[1] == -1 && got[2] == 2 && got[3] == 1);
  /* A default per key: the static table uses the first one. */
  CHECK_EQ_INT(find_s_i64(ctx, t, q, d3, 1, defs, d3, 1, got, 8, s), TF_OK);
  CHECK(got[0] == 1 && got[1] == -1 && got[2] == 2);
  CHECK_EQ_INT(find_s_i64(ctx, t, q, d3, 1, defs, d2, 1, got, 8, s),
               TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "Expected shape [] or [3] for default value, got [2]");
  /* Scalar and empty keys. */
  CHECK_EQ_INT(find_s_i64(ctx, t, q, NULL, 0, &m1, NULL, 0, got, 8, s),
               TF_OK);
  CHECK_EQ_INT(got[0], 1);
  {
    int64_t d0[1] = {0};
    CHECK_EQ_INT(find_s_i64(ctx, t, q, d0, 1, &m1, d0, 1, got, 8, s), TF_OK);
  }
  /* Wrong dtypes: TF's MatchSignature. */
  {
    TFE_TensorHandle* k32 = scalar_i32(1, s);
    TFE_TensorHandle* def = i64_scalar(-1, s);
    TFE_TensorHandle* in[3] = {t, k32, def};
    TFE_TensorHandle* o;
    CHECK_EQ_INT(run(ctx, "LookupTableFindV2", in, 3, &o, 1, s),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(TF_Message(s),
                 "Signature mismatch, have: resource, int32, int64->int64 "
                 "expected: resource, string, int64->int64");
    CHECK_EQ_INT(run(ctx, "LookupTableRemoveV2", in, 2, NULL, 0, s),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(TF_Message(s),
                 "Signature mismatch, have: resource, int32-> expected: "
                 "resource, string->");
    TFE_DeleteTensorHandle(k32);
    TFE_DeleteTensorHandle(def);
  }
  /* Insert and remove are not for static tables. */
  {
    TFE_TensorHandle* k = str_vec(kx, 1, s);
    TFE_TensorHandle* v = i64_vec(vb, 1, s);
    TFE_TensorHandle* in[3] = {t, k, v};
    CHECK_EQ_INT(run(ctx, "LookupTableInsertV2", in, 3, NULL, 0, s),
                 TF_UNIMPLEMENTED);
    CHECK_STR_EQ(TF_Message(s),
                 "Insert not supported by InitializableLookupTable "
                 "implementations");
    CHECK_EQ_INT(run(ctx, "LookupTableRemoveV2", in, 2, NULL, 0, s),
                 TF_UNIMPLEMENTED);
    TFE_DeleteTensorHandle(k);
    TFE_DeleteTensorHandle(v);
  }
  /* Export (insertion order in tfe). */
  CHECK_EQ_INT(export_table(ctx, t, TF_STRING, TF_INT64, ex, s), TF_OK);
  read_strs(ex[0], buf, sizeof buf, s);
  CHECK_STR_EQ(buf, "a,b");
  CHECK_EQ_INT(read_i64s(ex[1], got, 8, s), 2);
  CHECK(got[0] == 1 && got[1] == 2);
  free_handles(ex, 2);
  CHECK_EQ_INT(export_table(ctx, t, TF_INT64, TF_INT64, ex, s),
               TF_INVALID_ARGUMENT);
  /* A second maker with the same shared name and other dtypes. */
  CHECK(table(ctx, "HashTableV2", TF_INT64, TF_INT64, "t1", -2, NULL, s) ==
        NULL);
  CHECK_STR_EQ(TF_Message(s),
               "Conflicting key/value dtypes int64->int64 with string-int64 "
               "for table t1");
  /* The same shared name and dtypes: the same table. */
  {
    TFE_TensorHandle* t2 =
        table(ctx, "HashTableV2", TF_STRING, TF_INT64, "t1", -2, NULL, s);
    CHECK_EQ_INT(table_size(ctx, t2, s), 2);
    TFE_DeleteTensorHandle(t2);
  }
  /* Not a kernel for float keys (TF's list). */
  CHECK(table(ctx, "HashTableV2", TF_FLOAT, TF_INT64, "t9", -2, NULL, s) ==
        NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  TFE_DeleteTensorHandle(t);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(hash_table_import_and_destroy) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* t =
      table(ctx, "HashTableV2", TF_STRING, TF_INT64, "t2", -2, NULL, s);
  static const char* const k[2] = {"a", "b"};
  static const int64_t v[2] = {1, 2};
  int64_t d12[2] = {1, 2}, got[4], m1 = -1, d3[1] = {3};
  static const char* const q[3] = {"a", "b", "c"};
  TFE_TensorHandle* in[3];
  CHECK_CODE(s, TF_OK);
  /* LookupTableImportV2 initializes a static table (any shape). */
  in[0] = t;
  in[1] = str_tensor(k, d12, 2, s);
  in[2] = i64_tensor(v, d12, 2, s);
  CHECK_EQ_INT(run(ctx, "LookupTableImportV2", in, 3, NULL, 0, s), TF_OK);
  CHECK_EQ_INT(find_s_i64(ctx, t, q, d3, 1, &m1, NULL, 0, got, 4, s), TF_OK);
  CHECK(got[0] == 1 && got[1] == 2 && got[2] == -1);
  TFE_DeleteTensorHandle(in[2]);
  in[2] = i64_vec(v, 1, s);
  CHECK_EQ_INT(run(ctx, "LookupTableImportV2", in, 3, NULL, 0, s),
               TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "Expected shape [1,2] for value, got [1]");
  TFE_DeleteTensorHandle(in[1]);
  TFE_DeleteTensorHandle(in[2]);
  /* DestroyResourceOp: later lookups are NOT_FOUND. */
  {
    TFE_Op* op = TFE_NewOp(ctx, "DestroyResourceOp", s);
    int n = 0;
    TFE_OpAddInput(op, t, s);
    TFE_OpSetAttrBool(op, "ignore_lookup_error", 0);
    TFE_Execute(op, NULL, &n, s);
    TFE_DeleteOp(op);
    CHECK_CODE(s, TF_OK);
  }
  CHECK_EQ_INT(table_size(ctx, t, s), -1);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_EQ(TF_Message(s),
               "Resource localhost/t2/N10tensorflow6lookup15LookupInterfaceE "
               "does not exist.");
  TFE_DeleteTensorHandle(t);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* Every (key, value) pair TF registers for HashTableV2: initialize with
 * two entries and find them. */
TEST(hash_table_all_dtype_pairs) {
  static const TF_DataType kt[3] = {TF_STRING, TF_INT64, TF_INT32};
  static const TF_DataType vt[6] = {TF_STRING, TF_INT64, TF_INT32,
                                    TF_FLOAT,  TF_DOUBLE, TF_BOOL};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  int i, j, pairs = 0;
  for (i = 0; i < 3; i++) {
    for (j = 0; j < 6; j++) {
      static const char* const sk[3] = {"k0", "k1", "k2"};
      static const char* const sv[2] = {"v0", "v1"};
      int64_t d2[1] = {2}, d3[1] = {3};
      TFE_TensorHandle *t, *keys, *vals, *q, *def, *out;
      TFE_TensorHandle* in[3];
      TF_Tensor* r;
      char name[32];
      snprintf(name, sizeof name, "pair_%d_%d", i, j);
      t = table(ctx, "HashTableV2", kt[i], vt[j], name, -2, NULL, s);
      if (t == NULL) {
        /* Not registered by TF: int64/int32 -> bool, int32 -> int64. */
        CHECK_CODE(s, TF_NOT_FOUND);
        CHECK((kt[i] != TF_STRING && vt[j] == TF_BOOL) ||
              (kt[i] == TF_INT32 && vt[j] == TF_INT64));
        continue;
      }
      pairs++;
      if (kt[i] == TF_STRING) {
        keys = str_vec(sk, 2, s);
        q = str_vec(sk, 3, s);
      } else {
        int64_t k64[3] = {10, 20, 30};
        int32_t k32[3] = {10, 20, 30};
        keys = make_handle(kt[i], d2, 1, kt[i] == TF_INT64 ? (void*)k64 : k32,
                           2 * (kt[i] == TF_INT64 ? 8 : 4), s);
        q = make_handle(kt[i], d3, 1, kt[i] == TF_INT64 ? (void*)k64 : k32,
                        3 * (kt[i] == TF_INT64 ? 8 : 4), s);
      }
      if (vt[j] == TF_STRING) {
        vals = str_vec(sv, 2, s);
        def = str_scalar("none", s);
      } else {
        unsigned char vb[16], db[8];
        size_t es = TF_DataTypeSize(vt[j]);
        int e;
        for (e = 0; e < 2; e++) {
          if (vt[j] == TF_FLOAT) {
            float f = 1.5f + (float)e;
            memcpy(vb + e * es, &f, es);
          } else if (vt[j] == TF_DOUBLE) {
            double f = 1.5 + e;
            memcpy(vb + e * es, &f, es);
          } else if (vt[j] == TF_BOOL) {
            vb[e] = 1;
          } else if (vt[j] == TF_INT32) {
            int32_t x = 7 + e;
            memcpy(vb + e * es, &x, es);
          } else {
            int64_t x = 7 + e;
            memcpy(vb + e * es, &x, es);
          }
        }
        memset(db, 0, sizeof db);
        vals = make_handle(vt[j], d2, 1, vb, 2 * es, s);
        def = make_handle(vt[j], NULL, 0, db, es, s);
      }
      in[0] = t;
      in[1] = keys;
      in[2] = vals;
      CHECK_EQ_INT(run(ctx, "InitializeTableV2", in, 3, NULL, 0, s), TF_OK);
      in[1] = q;
      in[2] = def;
      CHECK_EQ_INT(run(ctx, "LookupTableFindV2", in, 3, &out, 1, s), TF_OK);
      r = TFE_TensorHandleResolve(out, s);
      CHECK_CODE(s, TF_OK);
      CHECK(TF_TensorType(r) == vt[j]);
      CHECK_EQ_INT(TF_TensorElementCount(r), 3);
      if (vt[j] == TF_STRING) {
        char buf[64];
        read_strs(out, buf, sizeof buf, s);
        CHECK_STR_EQ(buf, "v0,v1,none");
      } else if (vt[j] == TF_FLOAT) {
        const float* f = (const float*)TF_TensorData(r);
        CHECK(f[0] == 1.5f && f[1] == 2.5f && f[2] == 0.0f);
      } else if (vt[j] == TF_DOUBLE) {
        const double* f = (const double*)TF_TensorData(r);
        CHECK(f[0] == 1.5 && f[1] == 2.5 && f[2] == 0.0);
      } else if (vt[j] == TF_BOOL) {
        const unsigned char* b = (const unsigned char*)TF_TensorData(r);
        CHECK(b[0] == 1 && b[1] == 1 && b[2] == 0);
      } else if (vt[j] == TF_INT32) {
        const int32_t* x = (const int32_t*)TF_TensorData(r);
        CHECK(x[0] == 7 && x[1] == 8 && x[2] == 0);
      } else {
        const int64_t* x = (const int64_t*)TF_TensorData(r);
        CHECK(x[0] == 7 && x[1] == 8 && x[2] == 0);
      }
      TF_DeleteTensor(r);
      TFE_DeleteTensorHandle(out);
      TFE_DeleteTensorHandle(keys);
      TFE_DeleteTensorHandle(vals);
      TFE_DeleteTensorHandle(q);
      TFE_DeleteTensorHandle(def);
      TFE_DeleteTensorHandle(t);
    }
  }
  CHECK_EQ_INT(pairs, 15);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* Duplicate keys of each value kind: TF's message renders the values. */
TEST(hash_table_conflict_messages) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  int64_t d2[1] = {2};
  int64_t k64[2] = {3, 3};
  float fv[2] = {1.5f, 2.5f};
  TFE_TensorHandle* t =
      table(ctx, "HashTableV2", TF_INT64, TF_FLOAT, NULL, -2, NULL, s);
  TFE_TensorHandle* in[3] = {t, make_handle(TF_INT64, d2, 1, k64, 16, s),
                             make_handle(TF_FLOAT, d2, 1, fv, 8, s)};
  CHECK_EQ_INT(run(ctx, "InitializeTableV2", in, 3, NULL, 0, s),
               TF_FAILED_PRECONDITION);
  CHECK_STR_EQ(TF_Message(s),
               "HashTable has different value for same key. Key 3 has 1.5 "
               "and trying to add value 2.5");
  TFE_DeleteTensorHandle(in[2]);
  {
    static const char* const sv[2] = {"p", "q"};
    TFE_TensorHandle* t2 =
        table(ctx, "HashTableV2", TF_INT64, TF_STRING, NULL, -2, NULL, s);
    in[0] = t2;
    in[2] = str_vec(sv, 2, s);
    CHECK_EQ_INT(run(ctx, "InitializeTableV2", in, 3, NULL, 0, s),
                 TF_FAILED_PRECONDITION);
    CHECK_STR_EQ(TF_Message(s),
                 "HashTable has different value for same key. Key 3 has p "
                 "and trying to add value q");
    TFE_DeleteTensorHandle(in[2]);
    TFE_DeleteTensorHandle(t2);
  }
  /* Keys must be a vector (InitializeTableV2; ImportV2 takes any shape). */
  {
    int64_t d11[2] = {1, 1};
    in[0] = t;
    TFE_DeleteTensorHandle(in[1]);
    in[1] = make_handle(TF_INT64, d11, 2, k64, 8, s);
    in[2] = make_handle(TF_FLOAT, d11, 2, fv, 4, s);
    CHECK_EQ_INT(run(ctx, "InitializeTableV2", in, 3, NULL, 0, s),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(TF_Message(s),
                 "Keys must be a vector, but received shape[1,1]");
    TFE_DeleteTensorHandle(in[2]);
    in[2] = make_handle(TF_FLOAT, d2, 1, fv, 8, s);
    TFE_DeleteTensorHandle(in[1]);
    in[1] = make_handle(TF_INT64, d2, 1, k64, 16, s);
    TFE_DeleteTensorHandle(in[2]);
    in[2] = make_handle(TF_FLOAT, d11, 1, fv, 4, s);
    CHECK_EQ_INT(run(ctx, "InitializeTableV2", in, 3, NULL, 0, s),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(TF_Message(s), "Keys and values must have the same size 2 vs 1");
  }
  TFE_DeleteTensorHandle(in[1]);
  TFE_DeleteTensorHandle(in[2]);
  TFE_DeleteTensorHandle(t);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ---- mutable tables ---- */

TEST(mutable_hash_table) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* m =
      table(ctx, "MutableHashTableV2", TF_STRING, TF_INT64, "m1", -2, NULL, s);
  static const char* const k4[4] = {"a", "b", "c", "a"};
  static const int64_t v4[4] = {1, 2, 3, 4};
  static const char* const q[3] = {"a", "b", "z"};
  int64_t d22[2] = {2, 2}, d3[1] = {3}, got[8], m1 = -1;
  int64_t defs[3] = {-1, -2, -3};
  TFE_TensorHandle* in[3];
  TFE_TensorHandle* ex[2];
  char buf[128];
  CHECK_CODE(s, TF_OK);
  /* Not initializable. */
  CHECK_EQ_INT(init_s_i64(ctx, m, k4, v4, 1, s), TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "Table localhost m1 is not initializable");
  /* Insert (later values win), find, full-size defaults. */
  in[0] = m;
  in[1] = str_tensor(k4, d22, 2, s);
  in[2] = i64_tensor(v4, d22, 2, s);
  CHECK_EQ_INT(run(ctx, "LookupTableInsertV2", in, 3, NULL, 0, s), TF_OK);
  TFE_DeleteTensorHandle(in[1]);
  TFE_DeleteTensorHandle(in[2]);
  CHECK_EQ_INT(table_size(ctx, m, s), 3);
  CHECK_EQ_INT(find_s_i64(ctx, m, q, d3, 1, &m1, NULL, 0, got, 8, s), TF_OK);
  CHECK(got[0] == 4 && got[1] == 2 && got[2] == -1);
  CHECK_EQ_INT(find_s_i64(ctx, m, q, d3, 1, defs, d3, 1, got, 8, s), TF_OK);
  CHECK(got[0] == 4 && got[1] == 2 && got[2] == -3);
  /* Values of the wrong shape. */
  in[1] = str_vec(k4, 2, s);
  in[2] = i64_vec(v4, 1, s);
  CHECK_EQ_INT(run(ctx, "LookupTableInsertV2", in, 3, NULL, 0, s),
               TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "Expected shape [2] for value, got [1]");
  TFE_DeleteTensorHandle(in[2]);
  /* Remove (a missing key is fine; a scalar key too). */
  CHECK_EQ_INT(run(ctx, "LookupTableRemoveV2", in, 2, NULL, 0, s), TF_OK);
  TFE_DeleteTensorHandle(in[1]);
  in[1] = str_scalar("zz", s);
  CHECK_EQ_INT(run(ctx, "LookupTableRemoveV2", in, 2, NULL, 0, s), TF_OK);
  TFE_DeleteTensorHandle(in[1]);
  CHECK_EQ_INT(table_size(ctx, m, s), 1);
  CHECK_EQ_INT(export_table(ctx, m, TF_STRING, TF_INT64, ex, s), TF_OK);
  read_strs(ex[0], buf, sizeof buf, s);
  CHECK_STR_EQ(buf, "c");
  free_handles(ex, 2);
  /* Import replaces everything. */
  {
    static const char* const kq[2] = {"q", "r"};
    static const int64_t vq[2] = {5, 6};
    in[1] = str_vec(kq, 2, s);
    in[2] = i64_vec(vq, 2, s);
    CHECK_EQ_INT(run(ctx, "LookupTableImportV2", in, 3, NULL, 0, s), TF_OK);
    TFE_DeleteTensorHandle(in[1]);
    TFE_DeleteTensorHandle(in[2]);
  }
  CHECK_EQ_INT(export_table(ctx, m, TF_STRING, TF_INT64, ex, s), TF_OK);
  read_strs(ex[0], buf, sizeof buf, s);
  CHECK_STR_EQ(buf, "q,r");
  CHECK_EQ_INT(read_i64s(ex[1], got, 8, s), 2);
  CHECK(got[0] == 5 && got[1] == 6);
  free_handles(ex, 2);
  TFE_DeleteTensorHandle(m);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(mutable_hash_table_of_tensors) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  int64_t vshape[1] = {2};
  TFE_TensorHandle* mt = table(ctx, "MutableHashTableOfTensorsV2", TF_INT64,
                               TF_FLOAT, "mt", 1, vshape, s);
  int64_t k2[2] = {1, 2}, d2[1] = {2}, d22[2] = {2, 2}, d21[2] = {2, 1};
  float v22[4] = {1, 2, 3, 4}, def[2] = {9, 9}, defs[4] = {9, 8, 7, 6};
  int64_t q[2] = {1, 3};
  TFE_TensorHandle* in[3];
  TFE_TensorHandle *out, *ex[2];
  TF_Tensor* r;
  CHECK_CODE(s, TF_OK);
  in[0] = mt;
  in[1] = make_handle(TF_INT64, d2, 1, k2, 16, s);
  in[2] = make_handle(TF_FLOAT, d22, 2, v22, 16, s);
  CHECK_EQ_INT(run(ctx, "LookupTableInsertV2", in, 3, NULL, 0, s), TF_OK);
  TFE_DeleteTensorHandle(in[2]);
  in[2] = make_handle(TF_FLOAT, d2, 1, v22, 8, s);
  CHECK_EQ_INT(run(ctx, "LookupTableInsertV2", in, 3, NULL, 0, s),
               TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "Expected shape [2,2] for value, got [2]");
  TFE_DeleteTensorHandle(in[1]);
  TFE_DeleteTensorHandle(in[2]);
  /* Keys [2,1] give values [2,1,2]. */
  in[1] = make_handle(TF_INT64, d21, 2, q, 16, s);
  in[2] = make_handle(TF_FLOAT, d2, 1, def, 8, s);
  CHECK_EQ_INT(run(ctx, "LookupTableFindV2", in, 3, &out, 1, s), TF_OK);
  r = TFE_TensorHandleResolve(out, s);
  CHECK_EQ_INT(TF_NumDims(r), 3);
  CHECK_EQ_INT(TF_Dim(r, 2), 2);
  {
    const float* f = (const float*)TF_TensorData(r);
    CHECK(f[0] == 1 && f[1] == 2 && f[2] == 9 && f[3] == 9);
  }
  TF_DeleteTensor(r);
  TFE_DeleteTensorHandle(out);
  TFE_DeleteTensorHandle(in[1]);
  TFE_DeleteTensorHandle(in[2]);
  /* A default per key. */
  in[1] = make_handle(TF_INT64, d2, 1, q, 16, s);
  in[2] = make_handle(TF_FLOAT, d22, 2, defs, 16, s);
  CHECK_EQ_INT(run(ctx, "LookupTableFindV2", in, 3, &out, 1, s), TF_OK);
  r = TFE_TensorHandleResolve(out, s);
  {
    const float* f = (const float*)TF_TensorData(r);
    CHECK(f[0] == 1 && f[1] == 2 && f[2] == 7 && f[3] == 6);
  }
  TF_DeleteTensor(r);
  TFE_DeleteTensorHandle(out);
  TFE_DeleteTensorHandle(in[2]);
  in[2] = make_handle(TF_FLOAT, NULL, 0, defs, 4, s);
  CHECK_EQ_INT(run(ctx, "LookupTableFindV2", in, 3, &out, 1, s),
               TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "Expected shape [2] or [2,2] for default value, got []");
  TFE_DeleteTensorHandle(in[1]);
  TFE_DeleteTensorHandle(in[2]);
  CHECK_EQ_INT(export_table(ctx, mt, TF_INT64, TF_FLOAT, ex, s), TF_OK);
  r = TFE_TensorHandleResolve(ex[1], s);
  CHECK_EQ_INT(TF_NumDims(r), 2);
  CHECK_EQ_INT(TF_Dim(r, 0), 2);
  CHECK_EQ_INT(TF_Dim(r, 1), 2);
  TF_DeleteTensor(r);
  free_handles(ex, 2);
  TFE_DeleteTensorHandle(mt);
  /* The value shape must be a vector. */
  CHECK(table(ctx, "MutableHashTableOfTensorsV2", TF_INT64, TF_FLOAT, "mt2",
              0, NULL, s) == NULL);
  CHECK_STR_EQ(TF_Message(s), "Default value must be a vector, got shape []");
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* Anonymous tables are new per call and survive DestroyResourceOp; a
 * table without a shared name is the node's own (the same one on every
 * eager call). */
TEST(anonymous_and_private_tables) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  static const char* const k[1] = {"a"};
  static const int64_t v[1] = {1};
  TFE_TensorHandle* a1 =
      table(ctx, "AnonymousHashTable", TF_STRING, TF_INT64, NULL, -2, NULL, s);
  TFE_TensorHandle* a2 =
      table(ctx, "AnonymousHashTable", TF_STRING, TF_INT64, NULL, -2, NULL, s);
  TFE_TensorHandle *p1, *p2;
  CHECK_EQ_INT(init_s_i64(ctx, a1, k, v, 1, s), TF_OK);
  CHECK_EQ_INT(table_size(ctx, a1, s), 1);
  CHECK_EQ_INT(table_size(ctx, a2, s), 0);
  {
    TFE_Op* op = TFE_NewOp(ctx, "DestroyResourceOp", s);
    int n = 0;
    TFE_OpAddInput(op, a1, s);
    TFE_Execute(op, NULL, &n, s);
    TFE_DeleteOp(op);
    CHECK_CODE(s, TF_OK);
  }
  CHECK_EQ_INT(table_size(ctx, a1, s), 1);
  p1 = table(ctx, "MutableHashTableV2", TF_STRING, TF_INT64, NULL, -2, NULL,
             s);
  p2 = table(ctx, "MutableHashTableV2", TF_STRING, TF_INT64, NULL, -2, NULL,
             s);
  CHECK_EQ_INT(init_s_i64(ctx, p1, k, v, 1, s), TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "_MutableHashTableV2 is not initializable");
  {
    TFE_TensorHandle* kk = str_vec(k, 1, s);
    TFE_TensorHandle* vv = i64_vec(v, 1, s);
    TFE_TensorHandle* in[3] = {p1, kk, vv};
    CHECK_EQ_INT(run(ctx, "LookupTableInsertV2", in, 3, NULL, 0, s), TF_OK);
    TFE_DeleteTensorHandle(kk);
    TFE_DeleteTensorHandle(vv);
  }
  CHECK_EQ_INT(table_size(ctx, p2, s), 1);
  TFE_DeleteTensorHandle(a1);
  TFE_DeleteTensorHandle(a2);
  TFE_DeleteTensorHandle(p1);
  TFE_DeleteTensorHandle(p2);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ---- text files ---- */

static char g_dir[256];

static const char* write_file(const char* name, const char* data) {
  static char path[8][512];
  static int next;
  char* p = path[next++ % 8];
  FILE* f;
  if (g_dir[0] == '\0') {
    snprintf(g_dir, sizeof g_dir, "/tmp/tfe_lookup_test_%d", (int)getpid());
    CHECK(mkdir(g_dir, 0700) == 0);
  }
  snprintf(p, 512, "%s/%s", g_dir, name);
  f = fopen(p, "wb");
  CHECK(f != NULL);
  fwrite(data, 1, strlen(data), f);
  fclose(f);
  return p;
}

/* Sorted "key:value" entries of a table, ';'-joined. */
static int cmp_str(const void* a, const void* b) {
  return strcmp(*(const char* const*)a, *(const char* const*)b);
}

static void elem_text(const TF_Tensor* t, int64_t i, char* buf, size_t cap) {
  const void* d = TF_TensorData(t);
  switch (TF_TensorType(t)) {
    case TF_STRING: {
      const TF_TString* e = (const TF_TString*)d + i;
      snprintf(buf, cap, "%.*s", (int)TF_TString_GetSize(e),
               TF_TString_GetDataPointer(e));
      break;
    }
    case TF_INT64: snprintf(buf, cap, "%lld", (long long)((const int64_t*)d)[i]); break;
    case TF_INT32: snprintf(buf, cap, "%d", ((const int32_t*)d)[i]); break;
    case TF_FLOAT: snprintf(buf, cap, "%g", (double)((const float*)d)[i]); break;
    case TF_DOUBLE: snprintf(buf, cap, "%g", ((const double*)d)[i]); break;
    default: snprintf(buf, cap, "?"); break;
  }
}

static void dump(TFE_Context* ctx, TFE_TensorHandle* t, TF_DataType kt,
                 TF_DataType vt, char* out, size_t cap, TF_Status* s) {
  TFE_TensorHandle* ex[2];
  TF_Tensor *k, *v;
  char* items[64];
  int64_t n, i;
  size_t len = 0;
  CHECK_EQ_INT(export_table(ctx, t, kt, vt, ex, s), TF_OK);
  k = TFE_TensorHandleResolve(ex[0], s);
  v = TFE_TensorHandleResolve(ex[1], s);
  n = TF_TensorElementCount(k);
  CHECK(n <= 64);
  for (i = 0; i < n; i++) {
    char a[128], b[128];
    items[i] = (char*)malloc(260);
    elem_text(k, i, a, sizeof a);
    elem_text(v, i, b, sizeof b);
    snprintf(items[i], 260, "%s:%s", a, b);
  }
  qsort(items, (size_t)n, sizeof(char*), cmp_str);
  out[0] = '\0';
  for (i = 0; i < n; i++) {
    len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? ";" : "",
                            items[i]);
    free(items[i]);
  }
  TF_DeleteTensor(k);
  TF_DeleteTensor(v);
  free_handles(ex, 2);
}

/* InitializeTableFromTextFileV2 on a new static table; returns the code,
 * the table's dump in got (when OK). */
static TF_Code init_file(TFE_Context* ctx, const char* path, TF_DataType kt,
                         TF_DataType vt, int64_t ki, int64_t vi, int64_t vocab,
                         const char* delim, int64_t offset, char* got,
                         size_t cap, TF_Status* s) {
  static int serial;
  char tname[32];
  TF_Status* s2 = TF_NewStatus();
  TFE_TensorHandle* t;
  TFE_TensorHandle* fn = str_scalar(path, s2);
  /* A table without a shared name is the kernel's own (the same one for
   * every eager call with these attrs, as in TF): name each one. */
  snprintf(tname, sizeof tname, "file_table_%d", serial++);
  t = table(ctx, "HashTableV2", kt, vt, tname, -2, NULL, s2);
  TFE_Op* op = TFE_NewOp(ctx, "InitializeTableFromTextFileV2", s2);
  int n = 0;
  TF_Code c;
  CHECK_CODE(s2, TF_OK);
  TFE_OpAddInput(op, t, s2);
  TFE_OpAddInput(op, fn, s2);
  TFE_OpSetAttrInt(op, "key_index", ki);
  TFE_OpSetAttrInt(op, "value_index", vi);
  TFE_OpSetAttrInt(op, "vocab_size", vocab);
  TFE_OpSetAttrInt(op, "offset", offset);
  TFE_OpSetAttrString(op, "delimiter", delim, strlen(delim));
  TFE_Execute(op, NULL, &n, s);
  TFE_DeleteOp(op);
  c = TF_GetCode(s);
  got[0] = '\0';
  if (c == TF_OK) dump(ctx, t, kt, vt, got, cap, s2);
  TFE_DeleteTensorHandle(fn);
  TFE_DeleteTensorHandle(t);
  TF_DeleteStatus(s2);
  return c;
}

/* Cases and results recorded from TF 2.21 (tf.raw_ops). */
TEST(text_file_initializer) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  char got[1024], want[1024];
  const char* abc = write_file("abc.txt", "a\nb\nc\n");
  const char* csv = write_file("kv.csv", "a,1,2.5\nb,2,3.5\nc,-3,1e3\n");
  const char* p;
#define OK_CASE(path, kt, vt, ki, vi, vocab, delim, off, expect)              \
  do {                                                                       \
    CHECK_EQ_INT(init_file(ctx, path, kt, vt, ki, vi, vocab, delim, off, got, \
                           sizeof got, s),                                   \
                 TF_OK);                                                     \
    CHECK_STR_EQ(got, expect);                                               \
  } while (0)
#define ERR_CASE(path, kt, vt, ki, vi, vocab, delim, off, code, msg)          \
  do {                                                                       \
    CHECK_EQ_INT(init_file(ctx, path, kt, vt, ki, vi, vocab, delim, off, got, \
                           sizeof got, s),                                   \
                 code);                                                      \
    CHECK_STR_EQ(TF_Message(s), msg);                                        \
  } while (0)
  /* -2 is the whole line, -1 the line number (+ offset). */
  OK_CASE(abc, TF_STRING, TF_INT64, -2, -1, -1, "\t", 0, "a:0;b:1;c:2");
  OK_CASE(abc, TF_STRING, TF_INT64, -2, -1, -1, "\t", 10, "a:10;b:11;c:12");
  OK_CASE(abc, TF_INT64, TF_STRING, -1, -2, -1, "\t", 5, "5:a;6:b;7:c");
  OK_CASE(abc, TF_STRING, TF_INT64, -2, -1, 2, "\t", 0, "a:0;b:1");
  OK_CASE(abc, TF_STRING, TF_INT64, -2, -1, 3, "\t", 0, "a:0;b:1;c:2");
  snprintf(want, sizeof want,
           "Invalid vocab_size in %s: expected 5 but got 3", abc);
  ERR_CASE(abc, TF_STRING, TF_INT64, -2, -1, 5, "\t", 0, TF_INVALID_ARGUMENT,
           want);
  snprintf(want, sizeof want, "Finished reading 0 of lines from %s", abc);
  ERR_CASE(abc, TF_STRING, TF_INT64, -2, -1, 0, "\t", 0, TF_OUT_OF_RANGE,
           want);
  /* Columns; TF adds the offset to int32 fields only. */
  OK_CASE(csv, TF_STRING, TF_INT64, 0, 1, -1, ",", 0, "a:1;b:2;c:-3");
  OK_CASE(csv, TF_STRING, TF_INT32, 0, 1, -1, ",", 100, "a:101;b:102;c:97");
  OK_CASE(csv, TF_STRING, TF_INT64, 0, 1, -1, ",", 100, "a:1;b:2;c:-3");
  OK_CASE(csv, TF_STRING, TF_FLOAT, 0, 2, -1, ",", 0, "a:2.5;b:3.5;c:1000");
  OK_CASE(csv, TF_STRING, TF_DOUBLE, 0, 2, -1, ",", 0, "a:2.5;b:3.5;c:1000");
  OK_CASE(csv, TF_INT64, TF_STRING, 1, 0, -1, ",", 0, "-3:c;1:a;2:b");
  OK_CASE(csv, TF_INT32, TF_INT32, 1, 1, -1, ",", 7, "4:4;8:8;9:9");
  OK_CASE(csv, TF_STRING, TF_STRING, 0, 2, -1, ",", 0, "a:2.5;b:3.5;c:1e3");
  ERR_CASE(csv, TF_STRING, TF_BOOL, 0, 1, -1, ",", 0, TF_INVALID_ARGUMENT,
           "Data type bool not supported.");
  snprintf(want, sizeof want,
           "Invalid number of columns in %s line 0 (a,1,2.5) : expected at "
           "least 4 got 3",
           csv);
  ERR_CASE(csv, TF_STRING, TF_INT64, 0, 3, -1, ",", 0, TF_INVALID_ARGUMENT,
           want);
  ERR_CASE(csv, TF_STRING, TF_INT64, 1, 0, -1, ",", 0, TF_INVALID_ARGUMENT,
           "Field a in line 0 is not a valid int64.");
  ERR_CASE(csv, TF_STRING, TF_FLOAT, 0, 0, -1, ",", 0, TF_INVALID_ARGUMENT,
           "Field a in line 0 is not a valid float.");
  ERR_CASE(abc, TF_STRING, TF_STRING, -1, -2, -1, "\t", 0,
           TF_INVALID_ARGUMENT,
           "Key index for line number requires table key dtype of int64, got "
           "string");
  ERR_CASE(abc, TF_STRING, TF_FLOAT, -2, -2, -1, "\t", 0, TF_INVALID_ARGUMENT,
           "Value index for whole line requires table value dtype of integer "
           "or string, got float");
  ERR_CASE(abc, TF_STRING, TF_INT32, -2, -1, -1, "\t", 0, TF_INVALID_ARGUMENT,
           "Value index for line number requires table value dtype of int64, "
           "got int32");
  OK_CASE(write_file("nums.txt", "5\n7\n"), TF_INT32, TF_INT32, -2, -2, -1,
          "\t", 0, "5:5;7:7");
  /* Duplicate keys: the same value is fine, another one is TF's error. */
  ERR_CASE(write_file("dup.txt", "a\nb\na\n"), TF_STRING, TF_INT64, -2, -1, -1,
           "\t", 0, TF_FAILED_PRECONDITION,
           "HashTable has different value for same key. Key a has 0 and "
           "trying to add value 2");
  OK_CASE(write_file("dup2.txt", "a\t1\nb\t2\na\t1\n"), TF_STRING, TF_INT64, 0,
          1, -1, "\t", 0, "a:1;b:2");
  /* Empty lines and files, line ends. */
  p = write_file("el.txt", "a\n\nb\n");
  snprintf(want, sizeof want,
           "Invalid content in %s: empty line found at position 3.", p);
  ERR_CASE(p, TF_STRING, TF_INT64, -2, -1, -1, "\t", 0, TF_INVALID_ARGUMENT,
           want);
  p = write_file("empty.txt", "");
  ERR_CASE(p, TF_STRING, TF_INT64, -2, -1, -1, "\t", 0, TF_OUT_OF_RANGE,
           "Read less bytes than requested");
  snprintf(want, sizeof want,
           "Invalid vocab_size in %s: expected 2 but got 0", p);
  ERR_CASE(p, TF_STRING, TF_INT64, -2, -1, 2, "\t", 0, TF_INVALID_ARGUMENT,
           want);
  OK_CASE(write_file("crlf.txt", "a\r\nb\r\n"), TF_STRING, TF_INT64, -2, -1,
          -1, "\t", 0, "a:0;b:1");
  OK_CASE(write_file("cr.txt", "a\rb\n"), TF_STRING, TF_INT64, -2, -1, -1,
          "\t", 0, "a\rb:0");
  OK_CASE(write_file("nonl.txt", "a\nb"), TF_STRING, TF_INT64, -2, -1, -1,
          "\t", 0, "a:0;b:1");
  /* Number syntax of TF's safe_strto* / safe_strtof. */
  OK_CASE(write_file("isp.txt", "k\t 12 \nl\t+5\n"), TF_STRING, TF_INT64, 0, 1,
          -1, "\t", 0, "k:12;l:5");
  ERR_CASE(write_file("hex.txt", "k\t0x10\n"), TF_STRING, TF_INT64, 0, 1, -1,
           "\t", 0, TF_INVALID_ARGUMENT,
           "Field 0x10 in line 0 is not a valid int64.");
  ERR_CASE(write_file("i32.txt", "k\t3000000000\n"), TF_STRING, TF_INT32, 0, 1,
           -1, "\t", 0, TF_INVALID_ARGUMENT,
           "Field 3000000000 in line 0 is not a valid int32.");
  ERR_CASE(write_file("i64.txt", "k\t9223372036854775808\n"), TF_STRING,
           TF_INT64, 0, 1, -1, "\t", 0, TF_INVALID_ARGUMENT,
           "Field 9223372036854775808 in line 0 is not a valid int64.");
  OK_CASE(write_file("i64m.txt", "k\t-9223372036854775808\n"), TF_STRING,
          TF_INT64, 0, 1, -1, "\t", 0, "k:-9223372036854775808");
  OK_CASE(write_file("i32b.txt", "k\t2147483647\n"), TF_STRING, TF_INT32, 0, 1,
          -1, "\t", 1, "k:-2147483648");
  OK_CASE(write_file("fl2.txt", "a\tinf\nb\tnan\nc\t 1.5 \nd\t1e40\ne\t-INF\n"),
          TF_STRING, TF_FLOAT, 0, 1, -1, "\t", 0,
          "a:inf;b:nan;c:1.5;d:inf;e:-inf");
  OK_CASE(write_file("fl3.txt", "e\t0x1p3\n"), TF_STRING, TF_FLOAT, 0, 1, -1,
          "\t", 0, "e:8");
  ERR_CASE(write_file("fl4.txt", "f\t1.5x\n"), TF_STRING, TF_FLOAT, 0, 1, -1,
           "\t", 0, TF_INVALID_ARGUMENT,
           "Field 1.5x in line 0 is not a valid float.");
  OK_CASE(write_file("td.txt", "a\t1\t\nb\t2\t\n"), TF_STRING, TF_INT64, 0, 1,
          -1, "\t", 0, "a:1;b:2");
  OK_CASE(write_file("et.txt", "\t1\nb\t2\n"), TF_STRING, TF_INT64, 0, 1, -1,
          "\t", 0, ":1;b:2");
  ERR_CASE(write_file("eti.txt", "a\t\n"), TF_STRING, TF_INT64, 0, 1, -1, "\t",
           0, TF_INVALID_ARGUMENT, "Field  in line 0 is not a valid int64.");
  /* Files, names and attrs. */
  snprintf(want, sizeof want, "%s/nope.txt", g_dir);
  CHECK_EQ_INT(init_file(ctx, want, TF_STRING, TF_INT64, -2, -1, -1, "\t", 0,
                         got, sizeof got, s),
               TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "nope.txt");
  ERR_CASE("", TF_STRING, TF_INT64, -2, -1, -1, "\t", 0, TF_INVALID_ARGUMENT,
           "filename cannot be empty.");
  ERR_CASE(abc, TF_STRING, TF_INT64, -2, -1, -1, "ab", 0, TF_INVALID_ARGUMENT,
           "delimiter should be only 1 char");
  ERR_CASE(abc, TF_STRING, TF_INT64, -2, -1, -1, "", 0, TF_INVALID_ARGUMENT,
           "delimiter should be only 1 char");
  /* A vocabulary on another registered filesystem. */
  {
    TF_Status* s2 = TF_NewStatus();
    TF_WritableFileHandle* w = NULL;
    TF_NewWritableFile("ram://lookup/vocab.txt", &w, s2);
    CHECK_CODE(s2, TF_OK);
    TF_AppendWritableFile(w, "x\ny\n", 4, s2);
    TF_CloseWritableFile(w, s2);
    CHECK_CODE(s2, TF_OK);
    TF_DeleteStatus(s2);
    OK_CASE("ram://lookup/vocab.txt", TF_STRING, TF_INT64, -2, -1, -1, "\t", 0,
            "x:0;y:1");
  }
#undef OK_CASE
#undef ERR_CASE
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* A file initializer ignores an initialized table; a tensor initializer
 * compares sizes. */
TEST(text_file_initializer_twice) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const char* abc = write_file("abc2.txt", "a\nb\nc\n");
  const char* other = write_file("other.txt", "p\t1\n");
  TFE_TensorHandle* t =
      table(ctx, "HashTableV2", TF_STRING, TF_INT64, "tf2", -2, NULL, s);
  int i;
  char got[256];
  for (i = 0; i < 2; i++) {
    TFE_TensorHandle* fn = str_scalar(i == 0 ? abc : other, s);
    TFE_Op* op = TFE_NewOp(ctx, "InitializeTableFromTextFileV2", s);
    int n = 0;
    TFE_OpAddInput(op, t, s);
    TFE_OpAddInput(op, fn, s);
    TFE_OpSetAttrInt(op, "key_index", i == 0 ? -2 : 0);
    TFE_OpSetAttrInt(op, "value_index", i == 0 ? -1 : 1);
    TFE_Execute(op, NULL, &n, s);
    TFE_DeleteOp(op);
    TFE_DeleteTensorHandle(fn);
    CHECK_CODE(s, TF_OK);
  }
  dump(ctx, t, TF_STRING, TF_INT64, got, sizeof got, s);
  CHECK_STR_EQ(got, "a:0;b:1;c:2");
  TFE_DeleteTensorHandle(t);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ---- sessions: tables live in the session's context ---- */

static TF_Operation* gop(TF_Graph* g, const char* type, const char* name,
                         TF_Output* ins, int nin, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  int i;
  for (i = 0; i < nin; i++) TF_AddInput(d, ins[i]);
  if (strstr(type, "HashTable") != NULL) {
    TF_SetAttrType(d, "key_dtype", TF_STRING);
    TF_SetAttrType(d, "value_dtype", TF_INT64);
  }
  {
    TF_Operation* o = TF_FinishOperation(d, s);
    CHECK_CODE(s, TF_OK);
    return o;
  }
}

static TF_Operation* gconst(TF_Graph* g, const char* name, TF_Tensor* t,
                            TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Const", name);
  TF_Operation* o;
  TF_SetAttrTensor(d, "value", t, s);
  TF_SetAttrType(d, "dtype", TF_TensorType(t));
  o = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  return o;
}

static TF_Tensor* tstr_vec(const char* const* v, int n) {
  int64_t d[1] = {n};
  int i;
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, d, 1, (size_t)n * sizeof(TF_TString));
  for (i = 0; i < n; i++) {
    TF_TString_Copy((TF_TString*)TF_TensorData(t) + i, v[i], strlen(v[i]));
  }
  return t;
}

static TF_Tensor* ti64(const int64_t* v, int n, int rank) {
  int64_t d[1] = {n};
  TF_Tensor* t = TF_AllocateTensor(TF_INT64, d, rank, (size_t)n * 8);
  memcpy(TF_TensorData(t), v, (size_t)n * 8);
  return t;
}

static void graph_case(int v1) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  static const char* const keys[3] = {"a", "b", "c"};
  static const int64_t vals[3] = {0, 1, 2}, dflt = -1;
  static const char* const q[3] = {"c", "zz", "a"};
  TF_Operation *t, *k, *v, *init, *qk, *def, *find, *size;
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Session *s1, *s2;
  TF_Output fetch[2];
  TF_Tensor* out[2];
  t = gop(g, v1 ? "HashTable" : "HashTableV2", "table", NULL, 0, s);
  k = gconst(g, "keys", tstr_vec(keys, 3), s);
  v = gconst(g, "vals", ti64(vals, 3, 1), s);
  {
    TF_Output ins[3] = {{t, 0}, {k, 0}, {v, 0}};
    init = gop(g, v1 ? "InitializeTable" : "InitializeTableV2", "init", ins, 3,
               s);
  }
  qk = gconst(g, "q", tstr_vec(q, 3), s);
  def = gconst(g, "def", ti64(&dflt, 1, 0), s);
  {
    TF_Output ins[3] = {{t, 0}, {qk, 0}, {def, 0}};
    find = gop(g, v1 ? "LookupTableFind" : "LookupTableFindV2", "find", ins, 3,
               s);
  }
  {
    TF_Output ins[1] = {{t, 0}};
    size = gop(g, v1 ? "LookupTableSize" : "LookupTableSizeV2", "size", ins, 1,
               s);
  }
  CHECK_EQ_INT(TF_OperationOutputType((TF_Output){t, 0}),
               v1 ? TF_STRING + 100 : TF_RESOURCE);
  s1 = TF_NewSession(g, opts, s);
  CHECK_CODE(s, TF_OK);
  fetch[0] = (TF_Output){find, 0};
  fetch[1] = (TF_Output){size, 0};
  /* Not initialized yet. */
  TF_SessionRun(s1, NULL, NULL, NULL, 0, fetch, out, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  CHECK_STR_CONTAINS(TF_Message(s), "Table not initialized.");
  /* The TF 1 pattern: run the initializer once, then the lookups. */
  TF_SessionRun(s1, NULL, NULL, NULL, 0, NULL, NULL, 0, (const TF_Operation* const*)&init, 1, NULL, s);
  CHECK_CODE(s, TF_OK);
  TF_SessionRun(s1, NULL, NULL, NULL, 0, fetch, out, 2, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_OK);
  {
    const int64_t* r = (const int64_t*)TF_TensorData(out[0]);
    CHECK(r[0] == 2 && r[1] == -1 && r[2] == 0);
    CHECK_EQ_INT(*(int64_t*)TF_TensorData(out[1]), 3);
  }
  TF_DeleteTensor(out[0]);
  TF_DeleteTensor(out[1]);
  /* Running the initializer again with the same data is fine. */
  TF_SessionRun(s1, NULL, NULL, NULL, 0, NULL, NULL, 0, (const TF_Operation* const*)&init, 1, NULL, s);
  CHECK_CODE(s, TF_OK);
  /* Another session has its own (uninitialized) table. */
  s2 = TF_NewSession(g, opts, s);
  TF_SessionRun(s2, NULL, NULL, NULL, 0, &fetch[1], out, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(*(int64_t*)TF_TensorData(out[0]), 0);
  TF_DeleteTensor(out[0]);
  TF_CloseSession(s2, s);
  TF_DeleteSession(s2, s);
  TF_CloseSession(s1, s);
  TF_DeleteSession(s1, s);
  TF_DeleteSessionOptions(opts);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(session_hash_table_v2) { graph_case(0); }
TEST(session_hash_table_v1) { graph_case(1); }

/* Static shapes of a graph (TF 2.21's shape functions). */
TEST(graph_shapes) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  static const char* const keys[2] = {"a", "b"};
  static const int64_t vals[3] = {0, 1, 2};
  TF_Operation *t, *k, *v;
  TF_OperationDescription* d;
  t = gop(g, "HashTableV2", "table", NULL, 0, s);
  k = gconst(g, "keys", tstr_vec(keys, 2), s);
  v = gconst(g, "vals", ti64(vals, 3, 1), s);
  d = TF_NewOperation(g, "InitializeTableV2", "init");
  TF_AddInput(d, (TF_Output){t, 0});
  TF_AddInput(d, (TF_Output){k, 0});
  TF_AddInput(d, (TF_Output){v, 0});
  CHECK(TF_FinishOperation(d, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Dimension 0 in both shapes must be equal, but are 2 and "
                     "3. Shapes are [2] and [3].");
  d = TF_NewOperation(g, "LookupTableImportV2", "imp");
  TF_AddInput(d, (TF_Output){t, 0});
  TF_AddInput(d, (TF_Output){k, 0});
  TF_AddInput(d, (TF_Output){v, 0});
  CHECK(TF_FinishOperation(d, s) == NULL);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Dimensions must be equal, but are 2 and 3");
  d = TF_NewOperation(g, "LookupTableRemoveV2", "rm");
  TF_AddInput(d, (TF_Output){t, 0});
  TF_AddInput(d, (TF_Output){gconst(g, "sk", tstr_vec(keys, 1), s), 0});
  CHECK(TF_FinishOperation(d, s) != NULL);
  CHECK_CODE(s, TF_OK);
  {
    TF_Operation* ht = gop(g, "HashTable", "v1t", NULL, 0, s);
    int64_t dims[2];
    CHECK_EQ_INT(TF_GraphGetTensorNumDims(g, (TF_Output){ht, 0}, s), 1);
    TF_GraphGetTensorShape(g, (TF_Output){ht, 0}, dims, 1, s);
    CHECK_EQ_INT(dims[0], 2);
  }
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* ---- dense tables: TF's bucket layout (recorded from TF 2.21) ---- */

static TFE_TensorHandle* dense_table(TFE_Context* ctx, TF_DataType kt,
                                     TF_DataType vt, TFE_TensorHandle* empty,
                                     TFE_TensorHandle* deleted,
                                     const char* shared, int64_t buckets,
                                     int vrank, const int64_t* vdims,
                                     float mlf, TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, "MutableDenseHashTableV2", s);
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, empty, s);
  TFE_OpAddInput(op, deleted, s);
  TFE_OpSetAttrType(op, "key_dtype", kt);
  TFE_OpSetAttrType(op, "value_dtype", vt);
  TFE_OpSetAttrString(op, "shared_name", shared, strlen(shared));
  TFE_OpSetAttrInt(op, "initial_num_buckets", buckets);
  TFE_OpSetAttrFloat(op, "max_load_factor", mlf);
  if (vrank >= 0) TFE_OpSetAttrShape(op, "value_shape", vdims, vrank, s);
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  return TF_GetCode(s) == TF_OK ? out[0] : NULL;
}

/* The exported buckets as "k0|v0 k1|v1 ..." (vector keys/values joined
 * with ','). */
static void dense_dump(TFE_Context* ctx, TFE_TensorHandle* t, TF_DataType kt,
                       TF_DataType vt, char* out, size_t cap, TF_Status* s) {
  TFE_TensorHandle* ex[2];
  TF_Tensor *k, *v;
  int64_t nb, ks, vs, i, j;
  size_t len = 0;
  CHECK_EQ_INT(export_table(ctx, t, kt, vt, ex, s), TF_OK);
  k = TFE_TensorHandleResolve(ex[0], s);
  v = TFE_TensorHandleResolve(ex[1], s);
  CHECK_EQ_INT(TF_NumDims(k), 2);
  CHECK_EQ_INT(TF_NumDims(v), 2);
  nb = TF_Dim(k, 0);
  ks = TF_Dim(k, 1);
  vs = TF_Dim(v, 1);
  out[0] = '\0';
  for (i = 0; i < nb; i++) {
    char e[64];
    len += (size_t)snprintf(out + len, cap - len, "%s", i ? " " : "");
    for (j = 0; j < ks; j++) {
      elem_text(k, i * ks + j, e, sizeof e);
      len += (size_t)snprintf(out + len, cap - len, "%s%s", j ? "," : "", e);
    }
    len += (size_t)snprintf(out + len, cap - len, "|");
    for (j = 0; j < vs; j++) {
      elem_text(v, i * vs + j, e, sizeof e);
      len += (size_t)snprintf(out + len, cap - len, "%s%s", j ? "," : "", e);
    }
  }
  TF_DeleteTensor(k);
  TF_DeleteTensor(v);
  free_handles(ex, 2);
}

static TF_Code run2(TFE_Context* ctx, const char* op, TFE_TensorHandle* t,
                    TFE_TensorHandle* a, TFE_TensorHandle* b, TF_Status* s) {
  TFE_TensorHandle* in[3] = {t, a, b};
  return run(ctx, op, in, b != NULL ? 3 : 2, NULL, 0, s);
}

TEST(dense_hash_table_int64) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* e = i64_scalar(-1, s);
  TFE_TensorHandle* x = i64_scalar(-2, s);
  TFE_TensorHandle* d =
      dense_table(ctx, TF_INT64, TF_FLOAT, e, x, "d1", 8, -1, NULL, 0.8f, s);
  int64_t k5[5] = {3, 11, 19, 5, -7}, k1[1] = {11}, k2[2] = {27, 35};
  float v5[5] = {1, 2, 3, 4, 5}, v2[2] = {6, 7};
  int64_t d5[1] = {5}, d1[1] = {1}, d2[1] = {2};
  TFE_TensorHandle *a, *b, *out;
  char got[1024];
  CHECK_CODE(s, TF_OK);
  a = make_handle(TF_INT64, d5, 1, k5, sizeof k5, s);
  b = make_handle(TF_FLOAT, d5, 1, v5, sizeof v5, s);
  CHECK_EQ_INT(run2(ctx, "LookupTableInsertV2", d, a, b, s), TF_OK);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  dense_dump(ctx, d, TF_INT64, TF_FLOAT, got, sizeof got, s);
  CHECK_STR_EQ(got, "-1|0 -7|5 -1|0 3|1 11|2 5|4 19|3 -1|0");
  a = make_handle(TF_INT64, d1, 1, k1, 8, s);
  CHECK_EQ_INT(run2(ctx, "LookupTableRemoveV2", d, a, NULL, s), TF_OK);
  TFE_DeleteTensorHandle(a);
  dense_dump(ctx, d, TF_INT64, TF_FLOAT, got, sizeof got, s);
  CHECK_STR_EQ(got, "-1|0 -7|5 -1|0 3|1 -2|2 5|4 19|3 -1|0");
  a = make_handle(TF_INT64, d2, 1, k2, sizeof k2, s);
  b = make_handle(TF_FLOAT, d2, 1, v2, sizeof v2, s);
  CHECK_EQ_INT(run2(ctx, "LookupTableInsertV2", d, a, b, s), TF_OK);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  dense_dump(ctx, d, TF_INT64, TF_FLOAT, got, sizeof got, s);
  CHECK_STR_EQ(got, "-1|0 -7|5 35|7 3|1 27|6 5|4 19|3 -1|0");
  CHECK_EQ_INT(table_size(ctx, d, s), 6);
  /* Finds: keys of rank <= 1 only (TF's "Expected key shape"). */
  {
    int64_t q4[4] = {3, 11, 35, 0}, d22[2] = {2, 2}, q2[2] = {3, 0};
    float def = -9.0f, defs[2] = {-9.0f, -8.0f};
    TFE_TensorHandle* in[3];
    in[0] = d;
    in[1] = make_handle(TF_INT64, d22, 2, q4, sizeof q4, s);
    in[2] = make_handle(TF_FLOAT, NULL, 0, &def, 4, s);
    CHECK_EQ_INT(run(ctx, "LookupTableFindV2", in, 3, &out, 1, s),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(TF_Message(s), "Expected key shape [2] got [2,2]");
    TFE_DeleteTensorHandle(in[1]);
    in[1] = i64_scalar(-1, s);
    CHECK_EQ_INT(run(ctx, "LookupTableFindV2", in, 3, &out, 1, s),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(TF_Message(s),
                 "Using the empty_key as a table key is not allowed");
    TFE_DeleteTensorHandle(in[1]);
    in[1] = i64_scalar(-2, s);
    CHECK_EQ_INT(run(ctx, "LookupTableFindV2", in, 3, &out, 1, s),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(TF_Message(s),
                 "Using the deleted_key as a table key is not allowed");
    TFE_DeleteTensorHandle(in[1]);
    in[1] = i64_scalar(3, s);
    CHECK_EQ_INT(run(ctx, "LookupTableFindV2", in, 3, &out, 1, s), TF_OK);
    CHECK(read_f32(out, s) == 1.0f);
    TFE_DeleteTensorHandle(out);
    TFE_DeleteTensorHandle(in[1]);
    TFE_DeleteTensorHandle(in[2]);
    /* A per-key default: the dense table uses its first value. */
    in[1] = make_handle(TF_INT64, d2, 1, q2, sizeof q2, s);
    in[2] = make_handle(TF_FLOAT, d2, 1, defs, sizeof defs, s);
    CHECK_EQ_INT(run(ctx, "LookupTableFindV2", in, 3, &out, 1, s), TF_OK);
    {
      TF_Tensor* r = TFE_TensorHandleResolve(out, s);
      const float* f = (const float*)TF_TensorData(r);
      CHECK(f[0] == 1.0f && f[1] == -9.0f);
      TF_DeleteTensor(r);
    }
    TFE_DeleteTensorHandle(out);
    TFE_DeleteTensorHandle(in[1]);
    TFE_DeleteTensorHandle(in[2]);
  }
  /* Import replaces the buckets as given (TF does not rehash them). */
  {
    int64_t ik[4] = {1, -1, -2, 4}, d41[2] = {4, 1}, q3[3] = {1, 4, 5};
    float iv[4] = {1, 2, 3, 4}, def = -9.0f;
    TFE_TensorHandle* in[3];
    a = make_handle(TF_INT64, d41, 2, ik, sizeof ik, s);
    b = make_handle(TF_FLOAT, d41, 2, iv, sizeof iv, s);
    CHECK_EQ_INT(run2(ctx, "LookupTableImportV2", d, a, b, s), TF_OK);
    TFE_DeleteTensorHandle(a);
    TFE_DeleteTensorHandle(b);
    CHECK_EQ_INT(table_size(ctx, d, s), 2);
    in[0] = d;
    {
      int64_t d3[1] = {3};
      in[1] = make_handle(TF_INT64, d3, 1, q3, sizeof q3, s);
    }
    in[2] = make_handle(TF_FLOAT, NULL, 0, &def, 4, s);
    CHECK_EQ_INT(run(ctx, "LookupTableFindV2", in, 3, &out, 1, s), TF_OK);
    {
      TF_Tensor* r = TFE_TensorHandleResolve(out, s);
      const float* f = (const float*)TF_TensorData(r);
      CHECK(f[0] == -9.0f && f[1] == -9.0f && f[2] == -9.0f);
      TF_DeleteTensor(r);
    }
    TFE_DeleteTensorHandle(out);
    TFE_DeleteTensorHandle(in[1]);
    TFE_DeleteTensorHandle(in[2]);
    a = make_handle(TF_INT64, d2, 1, ik, 16, s);
    b = make_handle(TF_FLOAT, d2, 1, iv, 8, s);
    CHECK_EQ_INT(run2(ctx, "LookupTableImportV2", d, a, b, s),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(TF_Message(s), "Expected shape [1] for value, got [2]");
    TFE_DeleteTensorHandle(a);
    TFE_DeleteTensorHandle(b);
  }
  TFE_DeleteTensorHandle(d);
  TFE_DeleteTensorHandle(e);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(dense_hash_table_strings_vectors_int32) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  char got[1024];
  /* String keys: TF's legacy Hash64 places them. */
  {
    TFE_TensorHandle* e = str_scalar("", s);
    TFE_TensorHandle* x = str_scalar("$", s);
    TFE_TensorHandle* d =
        dense_table(ctx, TF_STRING, TF_INT64, e, x, "d2", 4, -1, NULL, 0.8f, s);
    static const char* const k[4] = {"a", "b", "c", "d"};
    static const int64_t v[4] = {1, 2, 3, 4};
    TFE_TensorHandle* a = str_vec(k, 4, s);
    TFE_TensorHandle* b = i64_vec(v, 4, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(run2(ctx, "LookupTableInsertV2", d, a, b, s), TF_OK);
    dense_dump(ctx, d, TF_STRING, TF_INT64, got, sizeof got, s);
    CHECK_STR_EQ(got, "|0 |0 b|2 d|4 a|1 c|3 |0 |0");
    TFE_DeleteTensorHandle(a);
    TFE_DeleteTensorHandle(b);
    TFE_DeleteTensorHandle(d);
    TFE_DeleteTensorHandle(e);
    TFE_DeleteTensorHandle(x);
  }
  /* Vector keys and values. */
  {
    int64_t ek[2] = {0, 0}, xk[2] = {-1, -1}, d2[1] = {2}, d22[2] = {2, 2};
    int64_t d23[2] = {2, 3}, vshape[1] = {3};
    int64_t keys[4] = {1, 2, 3, 4}, q[4] = {3, 4, 9, 9};
    double vals[6] = {1, 2, 3, 4, 5, 6}, def[3] = {0, 0, -1};
    TFE_TensorHandle* e = make_handle(TF_INT64, d2, 1, ek, 16, s);
    TFE_TensorHandle* x = make_handle(TF_INT64, d2, 1, xk, 16, s);
    TFE_TensorHandle* d = dense_table(ctx, TF_INT64, TF_DOUBLE, e, x, "d3", 4,
                                      1, vshape, 0.8f, s);
    TFE_TensorHandle* a = make_handle(TF_INT64, d22, 2, keys, 32, s);
    TFE_TensorHandle* b = make_handle(TF_DOUBLE, d23, 2, vals, 48, s);
    TFE_TensorHandle *in[3], *out;
    CHECK_EQ_INT(run2(ctx, "LookupTableInsertV2", d, a, b, s), TF_OK);
    dense_dump(ctx, d, TF_INT64, TF_DOUBLE, got, sizeof got, s);
    CHECK_STR_EQ(got, "3,4|4,5,6 0,0|0,0,0 0,0|0,0,0 1,2|1,2,3");
    in[0] = d;
    in[1] = make_handle(TF_INT64, d22, 2, q, 32, s);
    in[2] = make_handle(TF_DOUBLE, vshape, 1, def, 24, s);
    CHECK_EQ_INT(run(ctx, "LookupTableFindV2", in, 3, &out, 1, s), TF_OK);
    {
      TF_Tensor* r = TFE_TensorHandleResolve(out, s);
      const double* f = (const double*)TF_TensorData(r);
      CHECK_EQ_INT(TF_NumDims(r), 2);
      CHECK(f[0] == 4 && f[1] == 5 && f[2] == 6 && f[3] == 0 && f[4] == 0 &&
            f[5] == -1);
      TF_DeleteTensor(r);
    }
    TFE_DeleteTensorHandle(out);
    TFE_DeleteTensorHandle(in[1]);
    {
      int64_t d3[1] = {3};
      in[1] = make_handle(TF_INT64, d3, 1, q, 24, s);
    }
    CHECK_EQ_INT(run(ctx, "LookupTableFindV2", in, 3, &out, 1, s),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(TF_Message(s),
                 "Input key shape [3] must end with the table's key shape [2]");
    TFE_DeleteTensorHandle(in[1]);
    TFE_DeleteTensorHandle(in[2]);
    TFE_DeleteTensorHandle(a);
    TFE_DeleteTensorHandle(b);
    TFE_DeleteTensorHandle(d);
    TFE_DeleteTensorHandle(e);
    TFE_DeleteTensorHandle(x);
  }
  /* int32 keys hash sign-extended. */
  {
    int32_t em = -1, dm = -2, k[3] = {-5, 7, 2}, v[3] = {1, 2, 3}, r7 = 7;
    int64_t d3[1] = {3}, d1[1] = {1};
    TFE_TensorHandle* e = make_handle(TF_INT32, NULL, 0, &em, 4, s);
    TFE_TensorHandle* x = make_handle(TF_INT32, NULL, 0, &dm, 4, s);
    TFE_TensorHandle* d =
        dense_table(ctx, TF_INT32, TF_INT32, e, x, "d10", 4, -1, NULL, 0.8f, s);
    TFE_TensorHandle* a = make_handle(TF_INT32, d3, 1, k, 12, s);
    TFE_TensorHandle* b = make_handle(TF_INT32, d3, 1, v, 12, s);
    TFE_TensorHandle* c = make_handle(TF_INT32, d1, 1, &r7, 4, s);
    CHECK_EQ_INT(run2(ctx, "LookupTableInsertV2", d, a, b, s), TF_OK);
    dense_dump(ctx, d, TF_INT32, TF_INT32, got, sizeof got, s);
    CHECK_STR_EQ(got, "7|2 -1|0 2|3 -5|1");
    CHECK_EQ_INT(run2(ctx, "LookupTableRemoveV2", d, c, NULL, s), TF_OK);
    dense_dump(ctx, d, TF_INT32, TF_INT32, got, sizeof got, s);
    CHECK_STR_EQ(got, "-2|2 -1|0 2|3 -5|1");
    TFE_DeleteTensorHandle(a);
    TFE_DeleteTensorHandle(b);
    TFE_DeleteTensorHandle(c);
    TFE_DeleteTensorHandle(d);
    TFE_DeleteTensorHandle(e);
    TFE_DeleteTensorHandle(x);
  }
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(dense_hash_table_creation_errors) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* e = i64_scalar(-1, s);
  TFE_TensorHandle* x = i64_scalar(-2, s);
  int64_t two[2] = {-1, 2}, d2[1] = {2}, d11[2] = {1, 1}, vs22[2] = {2, 2};
  TFE_TensorHandle* v2 = make_handle(TF_INT64, d2, 1, two, 16, s);
  TFE_TensorHandle* m11 = make_handle(TF_INT64, d11, 2, two, 8, s);
  CHECK(dense_table(ctx, TF_INT64, TF_FLOAT, e, x, "c1", 6, -1, NULL, 0.8f,
                    s) == NULL);
  CHECK_STR_EQ(TF_Message(s),
               "Number of buckets must be at least 4 and a power of 2, got: 6");
  CHECK(dense_table(ctx, TF_INT64, TF_FLOAT, e, e, "c2", 8, -1, NULL, 0.8f,
                    s) == NULL);
  CHECK_STR_EQ(TF_Message(s), "Empty and deleted keys cannot be equal");
  CHECK(dense_table(ctx, TF_INT64, TF_FLOAT, e, v2, "c3", 8, -1, NULL, 0.8f,
                    s) == NULL);
  CHECK_STR_EQ(TF_Message(s),
               "Empty and deleted keys must have same shape, got shapes: [] "
               "and [2]");
  CHECK(dense_table(ctx, TF_INT64, TF_FLOAT, e, x, "c4", 8, -1, NULL, 1.5f,
                    s) == NULL);
  CHECK_STR_EQ(TF_Message(s),
               "max_load_factor must be between 0 and 1, got: 1.5");
  CHECK(dense_table(ctx, TF_INT64, TF_FLOAT, e, x, "c5", 8, 2, vs22, 0.8f,
                    s) == NULL);
  CHECK_STR_EQ(TF_Message(s),
               "Empty value must be a scalar or a vector, got shape [2,2]");
  CHECK(dense_table(ctx, TF_INT64, TF_FLOAT, m11, m11, "c6", 8, -1, NULL, 0.8f,
                    s) == NULL);
  CHECK_STR_EQ(TF_Message(s),
               "Empty key must be a scalar or a vector, got shape [1,1]");
  /* Huge bucket counts fail cleanly. */
  CHECK(dense_table(ctx, TF_INT64, TF_FLOAT, e, x, "c7", (int64_t)1 << 40, -1,
                    NULL, 0.8f, s) == NULL);
  CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
  TFE_DeleteTensorHandle(e);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(v2);
  TFE_DeleteTensorHandle(m11);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ---- the hash map against a reference, and threads ---- */

static uint64_t rng_next(uint64_t* x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

/* Random inserts, removes, imports and finds on a MutableHashTableV2
 * (int64 -> int64 and string -> int64) checked against a plain array. */
TEST(mutable_table_matches_reference) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  int pass;
  for (pass = 0; pass < 2; pass++) {
    int use_str = pass == 1;
    TFE_TensorHandle* m =
        table(ctx, "MutableHashTableV2", use_str ? TF_STRING : TF_INT64,
              TF_INT64, use_str ? "ref_s" : "ref_i", -2, NULL, s);
    static int64_t ref[512];
    static char names[512][16];
    const char* kp[64];
    uint64_t rng = 88172645463325252ull + (uint64_t)pass;
    int64_t i, step, live = 0;
    for (i = 0; i < 512; i++) {
      ref[i] = -1;
      snprintf(names[i], sizeof names[i], "k%lld", (long long)i * 7919);
    }
    CHECK_CODE(s, TF_OK);
    for (step = 0; step < 400; step++) {
      int op = (int)(rng_next(&rng) % 10), n = 1 + (int)(rng_next(&rng) % 40);
      int64_t keys[64], vals[64], d[1];
      TFE_TensorHandle *kh, *vh;
      for (i = 0; i < n; i++) {
        keys[i] = (int64_t)(rng_next(&rng) % 512);
        vals[i] = (int64_t)(rng_next(&rng) % 100000);
        kp[i] = names[keys[i]];
      }
      d[0] = n;
      kh = use_str ? str_vec(kp, n, s) : i64_tensor(keys, d, 1, s);
      vh = i64_tensor(vals, d, 1, s);
      if (op < 5) { /* insert: the last value of a key wins */
        CHECK_EQ_INT(run2(ctx, "LookupTableInsertV2", m, kh, vh, s), TF_OK);
        for (i = 0; i < n; i++) ref[keys[i]] = vals[i];
      } else if (op < 8) { /* remove */
        CHECK_EQ_INT(run2(ctx, "LookupTableRemoveV2", m, kh, NULL, s), TF_OK);
        for (i = 0; i < n; i++) ref[keys[i]] = -1;
      } else if (op == 8 && step % 50 == 0) { /* import replaces all */
        CHECK_EQ_INT(run2(ctx, "LookupTableImportV2", m, kh, vh, s), TF_OK);
        for (i = 0; i < 512; i++) ref[i] = -1;
        for (i = 0; i < n; i++) ref[keys[i]] = vals[i];
      } else { /* find */
        TFE_TensorHandle* in[3] = {m, kh, i64_scalar(-1, s)};
        TFE_TensorHandle* out;
        int64_t got[64];
        CHECK_EQ_INT(run(ctx, "LookupTableFindV2", in, 3, &out, 1, s), TF_OK);
        CHECK_EQ_INT(read_i64s(out, got, 64, s), n);
        for (i = 0; i < n; i++) CHECK_EQ_INT(got[i], ref[keys[i]]);
        TFE_DeleteTensorHandle(out);
        TFE_DeleteTensorHandle(in[2]);
      }
      TFE_DeleteTensorHandle(kh);
      TFE_DeleteTensorHandle(vh);
      live = 0;
      for (i = 0; i < 512; i++) live += ref[i] >= 0;
      CHECK_EQ_INT(table_size(ctx, m, s), live);
    }
    TFE_DeleteTensorHandle(m);
  }
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

typedef struct thread_arg {
  TFE_Context* ctx;
  TFE_TensorHandle* table;
  int id;
  int ok;
} thread_arg;

static void* table_thread(void* p) {
  thread_arg* a = (thread_arg*)p;
  TF_Status* s = TF_NewStatus();
  int round;
  a->ok = 1;
  for (round = 0; round < 50; round++) {
    int64_t keys[20], vals[20], d[1] = {20}, got[20];
    TFE_TensorHandle *kh, *vh, *out;
    TFE_TensorHandle* in[3];
    int i;
    for (i = 0; i < 20; i++) {
      keys[i] = a->id * 100000 + round * 20 + i;
      vals[i] = keys[i] * 3;
    }
    kh = i64_tensor(keys, d, 1, s);
    vh = i64_tensor(vals, d, 1, s);
    in[0] = a->table;
    in[1] = kh;
    in[2] = vh;
    if (run(a->ctx, "LookupTableInsertV2", in, 3, NULL, 0, s) != TF_OK) {
      a->ok = 0;
    }
    in[2] = i64_scalar(-1, s);
    if (run(a->ctx, "LookupTableFindV2", in, 3, &out, 1, s) != TF_OK) {
      a->ok = 0;
    } else {
      read_i64s(out, got, 20, s);
      for (i = 0; i < 20; i++) {
        if (got[i] != vals[i]) a->ok = 0;
      }
      TFE_DeleteTensorHandle(out);
    }
    TFE_DeleteTensorHandle(in[2]);
    TFE_DeleteTensorHandle(kh);
    TFE_DeleteTensorHandle(vh);
  }
  TF_DeleteStatus(s);
  return NULL;
}

/* Four threads insert and find in one table at once. */
TEST(mutable_table_threads) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* m =
      table(ctx, "MutableHashTableV2", TF_INT64, TF_INT64, "thr", -2, NULL, s);
  pthread_t th[4];
  thread_arg args[4];
  int i;
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 4; i++) {
    args[i].ctx = ctx;
    args[i].table = m;
    args[i].id = i;
    CHECK(pthread_create(&th[i], NULL, table_thread, &args[i]) == 0);
  }
  for (i = 0; i < 4; i++) {
    pthread_join(th[i], NULL);
    CHECK(args[i].ok);
  }
  CHECK_EQ_INT(table_size(ctx, m, s), 4 * 50 * 20);
  TFE_DeleteTensorHandle(m);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* int64 -> variant (TF's list for MutableHashTableV2): TensorLists stored
 * and found again. */
static int32_t list_length(TFE_Context* ctx, TFE_TensorHandle* l,
                           TF_Status* s) {
  TFE_TensorHandle* out;
  int32_t n;
  CHECK_EQ_INT(run(ctx, "TensorListLength", &l, 1, &out, 1, s), TF_OK);
  n = read_i32(out, s);
  TFE_DeleteTensorHandle(out);
  return n;
}

static TFE_TensorHandle* make_list(TFE_Context* ctx, int rows, TF_Status* s) {
  float data[12] = {0};
  int64_t d[2] = {rows, 2};
  int32_t es[1] = {2};
  int64_t d1[1] = {1};
  TFE_TensorHandle* t = make_handle(TF_FLOAT, d, 2, data, (size_t)rows * 8, s);
  TFE_TensorHandle* shape = make_handle(TF_INT32, d1, 1, es, 4, s);
  TFE_Op* op = TFE_NewOp(ctx, "TensorListFromTensor", s);
  TFE_TensorHandle* out = NULL;
  int n = 1;
  TFE_OpAddInput(op, t, s);
  TFE_OpAddInput(op, shape, s);
  TFE_OpSetAttrType(op, "element_dtype", TF_FLOAT);
  TFE_OpSetAttrType(op, "shape_type", TF_INT32);
  TFE_Execute(op, &out, &n, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(t);
  TFE_DeleteTensorHandle(shape);
  return out;
}

TEST(mutable_table_variant_values) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* m =
      table(ctx, "MutableHashTableV2", TF_INT64, TF_VARIANT, "var", -2, NULL,
            s);
  TFE_TensorHandle* l3 = make_list(ctx, 3, s);
  TFE_TensorHandle* l1 = make_list(ctx, 1, s);
  TFE_TensorHandle *k5 = i64_scalar(5, s), *k6 = i64_scalar(6, s), *out;
  TFE_TensorHandle* in[3];
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(run2(ctx, "LookupTableInsertV2", m, k5, l3, s), TF_OK);
  in[0] = m;
  in[1] = k5;
  in[2] = l1;
  if (run(ctx, "LookupTableFindV2", in, 3, &out, 1, s) != TF_OK) {
    TFE_FAIL("find: %s", TF_Message(s));
  }
  CHECK_EQ_INT(list_length(ctx, out, s), 3);
  TFE_DeleteTensorHandle(out);
  in[1] = k6;
  CHECK_EQ_INT(run(ctx, "LookupTableFindV2", in, 3, &out, 1, s), TF_OK);
  CHECK_EQ_INT(list_length(ctx, out, s), 1);
  TFE_DeleteTensorHandle(out);
  /* Overwrite, then remove: the objects are released with the table. */
  CHECK_EQ_INT(run2(ctx, "LookupTableInsertV2", m, k5, l1, s), TF_OK);
  CHECK_EQ_INT(run2(ctx, "LookupTableInsertV2", m, k6, l3, s), TF_OK);
  CHECK_EQ_INT(run2(ctx, "LookupTableRemoveV2", m, k5, NULL, s), TF_OK);
  CHECK_EQ_INT(table_size(ctx, m, s), 1);
  {
    /* No keys: an empty variant output. */
    int64_t d0[1] = {0};
    in[1] = i64_tensor(NULL, d0, 1, s);
    CHECK_EQ_INT(run(ctx, "LookupTableFindV2", in, 3, &out, 1, s), TF_OK);
    TFE_DeleteTensorHandle(out);
    TFE_DeleteTensorHandle(in[1]);
  }
  {
    TFE_TensorHandle* ex[2];
    TF_Tensor* v;
    CHECK_EQ_INT(export_table(ctx, m, TF_INT64, TF_VARIANT, ex, s), TF_OK);
    v = TFE_TensorHandleResolve(ex[1], s);
    CHECK_EQ_INT(TF_TensorElementCount(v), 1);
    TF_DeleteTensor(v);
    free_handles(ex, 2);
  }
  TFE_DeleteTensorHandle(k5);
  TFE_DeleteTensorHandle(k6);
  TFE_DeleteTensorHandle(l1);
  TFE_DeleteTensorHandle(l3);
  TFE_DeleteTensorHandle(m);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
