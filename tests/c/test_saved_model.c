/* TF_LoadSessionFromSavedModel.
 *
 * Part 1 (always runs): SavedModels written by this test. Their graph is
 * built with the C API and exported with TF_GraphToGraphDef; the test wraps
 * it in MetaGraphDef / SavedModel bytes itself, so each step of the loader
 * can be checked: tag matching, the restore op (here an AssignVariableOp
 * that stores the fed variables prefix into a string variable), asset
 * feeds (stored by the init op into another variable), the precedence of
 * the init op sources, TF's errors, and the graph and memory left as they
 * were after a failed load. Also a load from ram://.
 *
 * Part 2: the SavedModels exported by TF 2.21 in tests/data/saved_models
 * (tools/gen_saved_model_data.py), each loaded, fed the inputs of its
 * manifest.json and compared with TF's outputs (.npy files). */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/env.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/c/tf_tstring.h"
#include "graph_test_util.h"
#include "tfe_test.h"

/* ------------------------------------------------------------------------
 * A small protobuf writer. */

typedef struct buf {
  unsigned char* p;
  size_t n, cap;
} buf;

static void b_put(buf* b, const void* p, size_t n) {
  if (b->n + n > b->cap) {
    b->cap = (b->n + n) * 2 + 64;
    b->p = (unsigned char*)realloc(b->p, b->cap);
    CHECK(b->p != NULL);
  }
  if (n > 0) memcpy(b->p + b->n, p, n);
  b->n += n;
}

static void b_varint(buf* b, uint64_t v) {
  unsigned char c;
  do {
    c = (unsigned char)(v & 0x7f);
    v >>= 7;
    if (v) c |= 0x80;
    b_put(b, &c, 1);
  } while (v);
}

static void b_bytes(buf* b, int field, const void* p, size_t n) {
  b_varint(b, ((uint64_t)field << 3) | 2);
  b_varint(b, n);
  b_put(b, p, n);
}

static void b_str(buf* b, int field, const char* s) {
  b_bytes(b, field, s, strlen(s));
}

/* Appends sub as field `field` and frees it. */
static void b_msg(buf* b, int field, buf* sub) {
  b_bytes(b, field, sub->p, sub->n);
  free(sub->p);
  memset(sub, 0, sizeof(*sub));
}

/* A map<string, M> entry. */
static void b_entry(buf* b, int field, const char* key, buf* value) {
  buf e = {0};
  b_str(&e, 1, key);
  b_msg(&e, 2, value);
  b_msg(b, field, &e);
}

/* TensorInfo {name}. */
static buf tensor_info(const char* name) {
  buf t = {0};
  b_str(&t, 1, name);
  return t;
}

/* CollectionDef {node_list {value...}}. */
static buf node_list(const char* const* names, int n) {
  buf c = {0}, l = {0};
  int i;
  for (i = 0; i < n; i++) b_str(&l, 1, names[i]);
  b_msg(&c, 1, &l);
  return c;
}

/* ------------------------------------------------------------------------
 * The test graph. */

static TF_Operation* var_handle(TF_Graph* g, const char* name,
                                const char* shared) {
  TF_OperationDescription* d = TF_NewOperation(g, "VarHandleOp", name);
  TF_SetAttrType(d, "dtype", TF_STRING);
  TF_SetAttrShape(d, "shape", NULL, 0);
  TF_SetAttrString(d, "shared_name", shared, strlen(shared));
  return gt_finish(d);
}

static TF_Operation* assign(TF_Graph* g, const char* name, TF_Operation* v,
                            TF_Operation* value) {
  TF_OperationDescription* d = TF_NewOperation(g, "AssignVariableOp", name);
  TF_AddInput(d, gt_out(v, 0));
  TF_AddInput(d, gt_out(value, 0));
  TF_SetAttrType(d, "dtype", TF_STRING);
  return gt_finish(d);
}

static TF_Operation* read_var(TF_Graph* g, const char* name,
                              TF_Operation* v) {
  TF_OperationDescription* d = TF_NewOperation(g, "ReadVariableOp", name);
  TF_AddInput(d, gt_out(v, 0));
  TF_SetAttrType(d, "dtype", TF_STRING);
  return gt_finish(d);
}

static TF_Operation* placeholder(TF_Graph* g, const char* name,
                                 TF_DataType t) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_SetAttrType(d, "dtype", t);
  return gt_finish(d);
}

static TF_Operation* str_const(TF_Graph* g, const char* name,
                               const char* v) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, NULL, 0, sizeof(TF_TString));
  TF_OperationDescription* d;
  TF_Operation* op;
  TF_StringInit((TF_TString*)TF_TensorData(t));
  TF_StringCopy((TF_TString*)TF_TensorData(t), v, strlen(v));
  d = TF_NewOperation(g, "Const", name);
  TF_SetAttrTensor(d, "value", t, s);
  CHECK_CODE(s, TF_OK);
  TF_SetAttrType(d, "dtype", TF_STRING);
  op = gt_finish(d);
  TF_DeleteTensor(t);
  TF_DeleteStatus(s);
  return op;
}

/* The GraphDef of:
 *   y = x * 2                                  (the serving computation)
 *   restore_all: prefix_var <- saver_filename  (stands for a restore op)
 *   init_assign: asset_var <- asset_path       (stands for an init op)
 *   read_prefix, read_asset                    (read them back)
 *   bad_read: reads a variable nothing assigns (fails when run)
 *   other_init: asset_var <- "other" */
static buf test_graph_def(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Status* s = TF_NewStatus();
  TF_Buffer* gd = TF_NewBuffer();
  TF_Operation *x, *two, *v1, *v2, *v3, *fname, *asset;
  TF_OperationDescription* d;
  buf out = {0};
  x = placeholder(g, "x", TF_FLOAT);
  {
    TF_Tensor* t = gt_scalar_f32(2.0f);
    d = TF_NewOperation(g, "Const", "two");
    TF_SetAttrTensor(d, "value", t, s);
    TF_SetAttrType(d, "dtype", TF_FLOAT);
    two = gt_finish(d);
    TF_DeleteTensor(t);
  }
  d = TF_NewOperation(g, "Mul", "y");
  TF_AddInput(d, gt_out(x, 0));
  TF_AddInput(d, gt_out(two, 0));
  gt_finish(d);
  v1 = var_handle(g, "prefix_var", "prefix_var");
  v2 = var_handle(g, "asset_var", "asset_var");
  v3 = var_handle(g, "never_var", "never_var");
  fname = placeholder(g, "saver_filename", TF_STRING);
  asset = str_const(g, "asset_path", "not fed");
  assign(g, "restore_all", v1, fname);
  assign(g, "init_assign", v2, asset);
  assign(g, "other_init", v2, str_const(g, "other", "other"));
  read_var(g, "read_prefix", v1);
  read_var(g, "read_asset", v2);
  read_var(g, "bad_read", v3);
  TF_GraphToGraphDef(g, gd, s);
  CHECK_CODE(s, TF_OK);
  b_put(&out, gd->data, gd->length);
  TF_DeleteBuffer(gd);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  return out;
}

/* How a MetaGraphDef of the test is made. */
typedef struct meta_opts {
  const char* tags[3];
  int ntags;
  int saver;                /* saver_def restore_all / saver_filename:0 */
  const char* restore_op;   /* overrides restore_all */
  const char* legacy_init;  /* legacy_init_op collection */
  const char* main_op;      /* saved_model_main_op collection */
  const char* init_sig;     /* __saved_model_init_op signature output */
  int asset;                /* asset_file_def asset_path:0 -> vocab.txt */
  int asset_collection;     /* the same as a TF1 saved_model_assets Any */
  int no_graph;             /* leave graph_def out */
} meta_opts;

static buf meta_graph(const meta_opts* o) {
  buf m = {0}, info = {0};
  int i;
  for (i = 0; i < o->ntags; i++) b_str(&info, 4, o->tags[i]);
  b_msg(&m, 1, &info);
  if (!o->no_graph) {
    buf gd = test_graph_def();
    b_msg(&m, 2, &gd);
  }
  if (o->saver) {
    buf sd = {0};
    b_str(&sd, 1, "saver_filename:0");
    b_str(&sd, 3, o->restore_op != NULL ? o->restore_op : "restore_all");
    b_msg(&m, 3, &sd);
  }
  if (o->legacy_init != NULL) {
    buf c = node_list(&o->legacy_init, 1);
    b_entry(&m, 4, "legacy_init_op", &c);
  }
  if (o->main_op != NULL) {
    buf c = node_list(&o->main_op, 1);
    b_entry(&m, 4, "saved_model_main_op", &c);
  }
  if (o->asset_collection) {
    buf c = {0}, l = {0}, any = {0}, afd = {0}, ti = tensor_info("asset_path:0");
    b_msg(&afd, 1, &ti);
    b_str(&afd, 2, "vocab.txt");
    b_str(&any, 1, "type.googleapis.com/tensorflow.AssetFileDef");
    b_msg(&any, 2, &afd);
    b_msg(&l, 1, &any);
    b_msg(&c, 5, &l);
    b_entry(&m, 4, "saved_model_assets", &c);
  }
  {
    buf sig = {0}, ti = tensor_info("x:0"), to = tensor_info("y:0");
    b_entry(&sig, 1, "x", &ti);
    b_entry(&sig, 2, "y", &to);
    b_str(&sig, 3, "tensorflow/serving/predict");
    b_entry(&m, 5, "serving_default", &sig);
  }
  if (o->init_sig != NULL) {
    buf sig = {0}, ti = tensor_info(o->init_sig);
    b_entry(&sig, 2, "__saved_model_init_op", &ti);
    b_entry(&m, 5, "__saved_model_init_op", &sig);
  }
  if (o->asset) {
    buf afd = {0}, ti = tensor_info("asset_path:0");
    b_msg(&afd, 1, &ti);
    b_str(&afd, 2, "vocab.txt");
    b_msg(&m, 6, &afd);
  }
  return m;
}

/* ------------------------------------------------------------------------
 * Files. */

static void write_file(const char* path, const void* data, size_t n) {
  TF_Status* s = TF_NewStatus();
  TF_WritableFileHandle* h = NULL;
  TF_NewWritableFile(path, &h, s);
  if (TF_GetCode(s) != TF_OK) TFE_FAIL("create %s: %s", path, TF_Message(s));
  TF_AppendWritableFile(h, (const char*)data, n, s);
  CHECK_CODE(s, TF_OK);
  TF_CloseWritableFile(h, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
}

/* Creates path and its missing parents (TF_CreateDir one level at a
 * time; an existing one is fine). */
static void make_dir(const char* path) {
  TF_Status* s = TF_NewStatus();
  char* p = strdup(path);
  char* start = strstr(p, "://");
  char* q = start != NULL ? start + 3 : p + 1;
  for (;;) {
    char* slash = strchr(q, '/');
    if (slash != NULL) *slash = '\0';
    if (*p != '\0') {
      TF_CreateDir(p, s);
      if (TF_GetCode(s) != TF_OK && TF_GetCode(s) != TF_ALREADY_EXISTS) {
        TFE_FAIL("mkdir %s: %s", p, TF_Message(s));
      }
    }
    if (slash == NULL || slash[1] == '\0') break;
    *slash = '/';
    q = slash + 1;
  }
  free(p);
  TF_DeleteStatus(s);
}

static char* new_temp_dir(void) {
  char tmpl[] = "/tmp/tfe_sm_XXXXXX";
  char* d = mkdtemp(tmpl);
  CHECK(d != NULL);
  return strdup(d);
}

static void remove_dir(const char* dir) {
  TF_Status* s = TF_NewStatus();
  int64_t f = 0, d = 0;
  TF_DeleteRecursively(dir, &f, &d, s);
  TF_DeleteStatus(s);
}

static char* path_join(const char* a, const char* b) {
  size_t n = strlen(a) + strlen(b) + 2;
  char* p = (char*)malloc(n);
  CHECK(p != NULL);
  snprintf(p, n, "%s/%s", a, b);
  return p;
}

/* Writes a SavedModel with the given MetaGraphDefs into dir (created):
 * saved_model.pb, variables/variables.index when `variables`, and
 * assets/vocab.txt. */
static void write_model(const char* dir, buf* metas, int n, int variables) {
  buf sm = {0};
  char* p;
  int i;
  b_varint(&sm, 1 << 3);
  b_varint(&sm, 1); /* saved_model_schema_version: 1 */
  for (i = 0; i < n; i++) b_msg(&sm, 2, &metas[i]);
  make_dir(dir);
  p = path_join(dir, "saved_model.pb");
  write_file(p, sm.p, sm.n);
  free(p);
  free(sm.p);
  p = path_join(dir, "variables");
  make_dir(p);
  free(p);
  if (variables) {
    p = path_join(dir, "variables/variables.index");
    write_file(p, "", 0);
    free(p);
  }
  p = path_join(dir, "assets");
  make_dir(p);
  free(p);
  p = path_join(dir, "assets/vocab.txt");
  write_file(p, "a\nb\n", 4);
  free(p);
}

static int graph_num_ops(TF_Graph* g) {
  size_t pos = 0;
  int n = 0;
  while (TF_GraphNextOperation(g, &pos) != NULL) n++;
  return n;
}

static TF_Session* load(const char* dir, const char* const* tags, int ntags,
                        TF_Graph* g, TF_Buffer* mg, TF_Status* s) {
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Session* sess =
      TF_LoadSessionFromSavedModel(o, NULL, dir, tags, ntags, g, mg, s);
  TF_DeleteSessionOptions(o);
  if (TF_GetCode(s) != TF_OK) CHECK(sess == NULL);
  return sess;
}

static void close_session(TF_Session* sess) {
  TF_Status* s = TF_NewStatus();
  TF_CloseSession(sess, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteSession(sess, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
}

/* Runs read op `name` and returns its string value (malloc'd), or NULL
 * with the run's code in *code. */
static char* read_string(TF_Session* sess, TF_Graph* g, const char* name,
                         TF_Code* code) {
  TF_Status* s = TF_NewStatus();
  TF_Output o = gt_out(TF_GraphOperationByName(g, name), 0);
  TF_Tensor* out = NULL;
  char* v = NULL;
  CHECK(o.oper != NULL);
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &o, &out, 1, NULL, 0, NULL, s);
  *code = TF_GetCode(s);
  if (*code == TF_OK) {
    const TF_TString* ts = (const TF_TString*)TF_TensorData(out);
    v = strndup(TF_StringGetDataPointer(ts), TF_StringGetSize(ts));
    TF_DeleteTensor(out);
  }
  TF_DeleteStatus(s);
  return v;
}

static void check_read(TF_Session* sess, TF_Graph* g, const char* name,
                       const char* want) {
  TF_Code code;
  char* v = read_string(sess, g, name, &code);
  CHECK_EQ_INT(code, TF_OK);
  CHECK_STR_EQ(v, want);
  free(v);
}

static void check_mul(TF_Session* sess, TF_Graph* g) {
  TF_Status* s = TF_NewStatus();
  TF_Output in = gt_out(TF_GraphOperationByName(g, "x"), 0);
  TF_Output out = gt_out(TF_GraphOperationByName(g, "y"), 0);
  TF_Tensor* x = gt_scalar_f32(21.0f);
  TF_Tensor* y = NULL;
  TF_SessionRun(sess, NULL, &in, &x, 1, &out, &y, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK(*(float*)TF_TensorData(y) == 42.0f);
  TF_DeleteTensor(x);
  TF_DeleteTensor(y);
  TF_DeleteStatus(s);
}

static const char* const kServe[] = {"serve"};

/* ------------------------------------------------------------------------
 * Part 1. */

TEST(full_load_restores_feeds_assets_and_runs_init) {
  char* dir = new_temp_dir();
  char* model = path_join(dir, "m");
  meta_opts train = {{"train"}, 1, 1, "bad_read", NULL, NULL, NULL, 0, 0, 0};
  meta_opts serve = {{"serve"}, 1, 1, NULL, "init_assign", NULL, NULL, 1, 0, 0};
  buf metas[2];
  buf want;
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* mg = TF_NewBuffer();
  TF_Session* sess;
  char expect[4096];
  metas[0] = meta_graph(&train);
  metas[1] = meta_graph(&serve);
  want = meta_graph(&serve);
  write_model(model, metas, 2, 1);
  sess = load(model, kServe, 1, g, mg, s);
  CHECK_CODE(s, TF_OK);
  CHECK(sess != NULL);
  /* The returned MetaGraphDef is the "serve" one, byte for byte. */
  CHECK_EQ_SIZE(mg->length, want.n);
  CHECK(memcmp(mg->data, want.p, want.n) == 0);
  CHECK(graph_num_ops(g) > 10);
  check_mul(sess, g);
  snprintf(expect, sizeof(expect), "%s/variables/variables", model);
  check_read(sess, g, "read_prefix", expect);
  snprintf(expect, sizeof(expect), "%s/assets/vocab.txt", model);
  check_read(sess, g, "read_asset", expect);
  close_session(sess);
  free(want.p);
  TF_DeleteBuffer(mg);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  remove_dir(dir);
  free(model);
  free(dir);
}

TEST(no_variables_index_skips_restore) {
  char* dir = new_temp_dir();
  meta_opts o = {{"serve"}, 1, 1, "bad_read", "init_assign", NULL, NULL, 1, 0, 0};
  buf m = meta_graph(&o);
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Session* sess;
  TF_Code code;
  char* v;
  write_model(dir, &m, 1, 0);
  /* bad_read would fail: it does not run without variables.index. */
  sess = load(dir, kServe, 1, g, NULL, s);
  CHECK_CODE(s, TF_OK);
  v = read_string(sess, g, "read_prefix", &code);
  CHECK(v == NULL);
  CHECK(code != TF_OK); /* never assigned */
  check_mul(sess, g);
  close_session(sess);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  remove_dir(dir);
  free(dir);
}

TEST(model_without_variables_or_saver) {
  char* dir = new_temp_dir();
  meta_opts o = {{"serve"}, 1, 0, NULL, NULL, NULL, NULL, 0, 0, 0};
  buf m = meta_graph(&o);
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Session* sess;
  /* variables.index exists but there is no saver_def: nothing restored. */
  write_model(dir, &m, 1, 1);
  sess = load(dir, kServe, 1, g, NULL, s);
  CHECK_CODE(s, TF_OK);
  check_mul(sess, g);
  close_session(sess);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  remove_dir(dir);
  free(dir);
}

/* The init signature wins over the collections, saved_model_main_op over
 * legacy_init_op. */
TEST(init_op_precedence) {
  char* dir = new_temp_dir();
  char expect[4096];
  int k;
  snprintf(expect, sizeof(expect), "%s/assets/vocab.txt", dir);
  for (k = 0; k < 3; k++) {
    meta_opts o = {{"serve"}, 1, 0, NULL, NULL, NULL, NULL, 1, 0, 0};
    buf m;
    TF_Status* s = TF_NewStatus();
    TF_Graph* g = TF_NewGraph();
    TF_Session* sess;
    if (k == 0) {
      o.init_sig = "init_assign";
      o.main_op = "other_init";
      o.legacy_init = "nosuch";
    } else if (k == 1) {
      o.main_op = "init_assign";
      o.legacy_init = "other_init";
    } else {
      o.legacy_init = "init_assign";
      o.asset = 0;
      o.asset_collection = 1; /* TF1 assets */
    }
    m = meta_graph(&o);
    write_model(dir, &m, 1, 0);
    sess = load(dir, kServe, 1, g, NULL, s);
    CHECK_CODE(s, TF_OK);
    check_read(sess, g, "read_asset", expect);
    close_session(sess);
    TF_DeleteGraph(g);
    TF_DeleteStatus(s);
  }
  remove_dir(dir);
  free(dir);
}

/* Tags are a set: order and duplicates do not matter, and the set must be
 * equal (not a subset). */
TEST(tag_sets) {
  char* dir = new_temp_dir();
  meta_opts a = {{"serve", "gpu"}, 2, 0, NULL, NULL, NULL, NULL, 0, 0, 0};
  meta_opts b = {{"serve"}, 1, 0, NULL, NULL, NULL, NULL, 0, 0, 1};
  meta_opts c = {{""}, 0, 0, NULL, NULL, NULL, NULL, 0, 0, 0};
  buf metas[3];
  static const char* const gs[] = {"gpu", "serve", "gpu"};
  static const char* const ss[] = {"serve", "serve"};
  static const char* const tr[] = {"serve", "train"};
  TF_Status* s = TF_NewStatus();
  TF_Graph* g;
  TF_Session* sess;
  metas[0] = meta_graph(&a);
  metas[1] = meta_graph(&b);
  metas[2] = meta_graph(&c);
  write_model(dir, metas, 3, 0);
  g = TF_NewGraph();
  sess = load(dir, gs, 3, g, NULL, s);
  CHECK_CODE(s, TF_OK);
  check_mul(sess, g);
  close_session(sess);
  TF_DeleteGraph(g);
  /* {serve} is the second MetaGraphDef (the one with TF1 assets). */
  g = TF_NewGraph();
  sess = load(dir, ss, 2, g, NULL, s);
  CHECK_CODE(s, TF_OK);
  close_session(sess);
  TF_DeleteGraph(g);
  /* No tags: the MetaGraphDef without tags. */
  g = TF_NewGraph();
  sess = load(dir, NULL, 0, g, NULL, s);
  CHECK_CODE(s, TF_OK);
  close_session(sess);
  TF_DeleteGraph(g);
  /* No match: TF's message lists the tags. */
  g = TF_NewGraph();
  sess = load(dir, tr, 2, g, NULL, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Could not find meta graph def matching supplied tags: "
                     "{ serve train }. To inspect available tag-sets in the "
                     "SavedModel, please use the SavedModel CLI: "
                     "`saved_model_cli`");
  CHECK_EQ_INT(graph_num_ops(g), 0);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  remove_dir(dir);
  free(dir);
}

TEST(missing_directory_and_files) {
  char* dir = new_temp_dir();
  char* p;
  char want[4096];
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  CHECK(load("/nonexistent/tfe/model", kServe, 1, g, NULL, s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_EQ(TF_Message(s),
               "Could not find SavedModel .pb or .pbtxt at supplied export "
               "directory path: /nonexistent/tfe/model. Check that the "
               "directory exists and that you have the right permissions "
               "for accessing it.");
  /* An existing directory without saved_model.pb. */
  CHECK(load(dir, kServe, 1, g, NULL, s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  snprintf(want, sizeof(want), "export directory path: %s.", dir);
  CHECK_STR_CONTAINS(TF_Message(s), want);
  /* Only the text format: refused, named. */
  p = path_join(dir, "saved_model.pbtxt");
  write_file(p, "meta_graphs { }", 15);
  CHECK(load(dir, kServe, 1, g, NULL, s) == NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(TF_Message(s), "saved_model.pbtxt");
  CHECK_STR_CONTAINS(TF_Message(s), "text format");
  free(p);
  /* An unregistered scheme. */
  CHECK(load("nosuchscheme://m", kServe, 1, g, NULL, s) == NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK_EQ_INT(graph_num_ops(g), 0);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  remove_dir(dir);
  free(dir);
}

static TF_Code load_bytes(const char* dir, const void* data, size_t n,
                          TF_Status* s) {
  char* p = path_join(dir, "saved_model.pb");
  TF_Graph* g = TF_NewGraph();
  write_file(p, data, n);
  CHECK(load(dir, kServe, 1, g, NULL, s) == NULL);
  CHECK_EQ_INT(graph_num_ops(g), 0);
  TF_DeleteGraph(g);
  free(p);
  return TF_GetCode(s);
}

TEST(bad_bytes) {
  char* dir = new_temp_dir();
  char want[4096];
  TF_Status* s = TF_NewStatus();
  unsigned char garbage[64];
  int i;
  /* Truncated: the parser needs bytes past the end of the file. */
  CHECK_EQ_INT(load_bytes(dir, "\x12\x05\x0a\x03\x0a\x01", 6, s),
               TF_OUT_OF_RANGE);
  CHECK_STR_EQ(TF_Message(s), "Read less bytes than requested");
  CHECK_EQ_INT(load_bytes(dir, "\xff\xff\xff", 3, s), TF_OUT_OF_RANGE);
  /* Malformed otherwise (wire type 7). */
  for (i = 0; i < 64; i++) garbage[i] = (unsigned char)(0x0f + i);
  CHECK_EQ_INT(load_bytes(dir, garbage, sizeof(garbage), s), TF_DATA_LOSS);
  snprintf(want, sizeof(want), "Can't parse %s/saved_model.pb as binary proto",
           dir);
  CHECK_STR_EQ(TF_Message(s), want);
  /* A meta_info_def longer than its MetaGraphDef: TF's stream has read to
   * the end of a file this small (OUT_OF_RANGE); in a longer file the
   * same fault is DATA_LOSS. Both as TF 2.21 reports them. */
  CHECK_EQ_INT(load_bytes(dir, "\x12\x04\x0a\x02\x22\x05xx", 8, s),
               TF_OUT_OF_RANGE);
  {
    unsigned char longer[104] = {0x12, 0x02, 0x0a, 0x05};
    for (i = 4; i < 104; i += 2) {
      longer[i] = 0x08;
      longer[i + 1] = 0x01;
    }
    CHECK_EQ_INT(load_bytes(dir, longer, sizeof(longer), s), TF_DATA_LOSS);
    /* A bad tag 13 bytes before the end: OUT_OF_RANGE; 19: DATA_LOSS. */
    for (i = 0; i < 40; i += 2) {
      longer[i] = 0x08;
      longer[i + 1] = 0x01;
    }
    longer[40] = 0x0f;
    CHECK_EQ_INT(load_bytes(dir, longer, 53, s), TF_OUT_OF_RANGE);
    CHECK_EQ_INT(load_bytes(dir, longer, 59, s), TF_DATA_LOSS);
  }
  /* Empty: a SavedModel without MetaGraphDefs. */
  CHECK_EQ_INT(load_bytes(dir, "", 0, s), TF_NOT_FOUND);
  /* A graph_def that is not a GraphDef: the import fails. */
  {
    buf m = {0}, info = {0}, sm = {0};
    b_str(&info, 4, "serve");
    b_msg(&m, 1, &info);
    b_bytes(&m, 2, "\x0a\x03\xff\xff\xff", 5);
    b_msg(&sm, 2, &m);
    CHECK_EQ_INT(load_bytes(dir, sm.p, sm.n, s), TF_INVALID_ARGUMENT);
    free(sm.p);
  }
  TF_DeleteStatus(s);
  remove_dir(dir);
  free(dir);
}

TEST(null_and_bad_arguments) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_SessionOptions* o = TF_NewSessionOptions();
  static const char* const with_null[] = {"serve", NULL};
  TF_Buffer* full = TF_NewBufferFromString("x", 1);
  TF_Buffer bad_run = {"\xff", 1, NULL};
  CHECK(TF_LoadSessionFromSavedModel(o, NULL, "/x", kServe, 1, NULL, NULL,
                                     s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_LoadSessionFromSavedModel(o, NULL, NULL, kServe, 1, g, NULL, s) ==
        NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_LoadSessionFromSavedModel(o, NULL, "/x", NULL, 1, g, NULL, s) ==
        NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_LoadSessionFromSavedModel(o, NULL, "/x", kServe, -1, g, NULL, s) ==
        NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_LoadSessionFromSavedModel(o, NULL, "/x", with_null, 2, g, NULL,
                                     s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* A meta_graph_def buffer that already holds data (TF's message). */
  CHECK(TF_LoadSessionFromSavedModel(o, NULL, "/x", kServe, 1, g, full, s) ==
        NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "Passing non-empty TF_Buffer is invalid.");
  /* Unparseable RunOptions. */
  CHECK(TF_LoadSessionFromSavedModel(o, &bad_run, "/x", kServe, 1, g, NULL,
                                     s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "Unparseable RunOptions proto");
  /* A graph that already has operations. */
  placeholder(g, "p", TF_FLOAT);
  CHECK(TF_LoadSessionFromSavedModel(o, NULL, "/x", kServe, 1, g, NULL, s) ==
        NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "Graph is non-empty.");
  /* NULL status: nothing to report into, nothing done. */
  CHECK(TF_LoadSessionFromSavedModel(o, NULL, "/x", kServe, 1, g, NULL,
                                     NULL) == NULL);
  TF_DeleteBuffer(full);
  TF_DeleteSessionOptions(o);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* A failure after the import (restore, init, feeds) deletes the session
 * and leaves the graph empty and usable; ASan checks nothing leaks. */
TEST(failures_after_import_leave_graph_empty) {
  char* dir = new_temp_dir();
  int k;
  for (k = 0; k < 7; k++) {
    meta_opts o = {{"serve"}, 1, 1, NULL, NULL, NULL, NULL, 1, 0, 0};
    buf m;
    TF_Status* s = TF_NewStatus();
    TF_Graph* g = TF_NewGraph();
    TF_Buffer* mg = TF_NewBuffer();
    TF_Code want = TF_OK;
    const char* msg = NULL;
    switch (k) {
      case 0: /* the restore op fails when run */
        o.restore_op = "bad_read";
        want = TF_FAILED_PRECONDITION;
        break;
      case 1: /* no such restore op */
        o.restore_op = "nosuch";
        want = TF_NOT_FOUND;
        msg = "PruneForTargets: Some target nodes not found: nosuch ";
        break;
      case 2: /* no such init op */
        o.legacy_init = "nosuch_init";
        want = TF_NOT_FOUND;
        break;
      case 3: /* the init op fails */
        o.main_op = "bad_read";
        want = TF_FAILED_PRECONDITION;
        break;
      case 4: /* an init signature without its output */
        o.init_sig = "";
        want = TF_OK;
        break;
      case 5: /* restore op spelled as a tensor: accepted, as in TF */
        o.restore_op = "restore_all:0";
        want = TF_OK;
        break;
      case 6: /* no graph_def at all: the init op is not found */
        o.no_graph = 1;
        o.saver = 0;
        o.asset = 0;
        o.legacy_init = "init_assign";
        want = TF_NOT_FOUND;
        break;
    }
    m = meta_graph(&o);
    write_model(dir, &m, 1, 1);
    {
      TF_Session* sess = load(dir, kServe, 1, g, mg, s);
      if (k == 4) {
        /* An init signature whose output name is empty: no init op. */
        CHECK_CODE(s, TF_OK);
      }
      CHECK_EQ_INT(TF_GetCode(s), want);
      if (msg != NULL) CHECK_STR_EQ(TF_Message(s), msg);
      if (want == TF_OK) {
        close_session(sess);
      } else {
        CHECK(sess == NULL);
        CHECK_EQ_INT(graph_num_ops(g), 0);
        CHECK(mg->data == NULL);
        /* The graph is usable: a second load into it works. */
        o.restore_op = NULL;
        o.legacy_init = NULL;
        o.main_op = NULL;
        o.no_graph = 0;
        m = meta_graph(&o);
        write_model(dir, &m, 1, 1);
        sess = load(dir, kServe, 1, g, NULL, s);
        CHECK_CODE(s, TF_OK);
        check_mul(sess, g);
        close_session(sess);
      }
    }
    TF_DeleteBuffer(mg);
    TF_DeleteGraph(g);
    TF_DeleteStatus(s);
  }
  remove_dir(dir);
  free(dir);
}

TEST(init_signature_without_output_is_failed_precondition) {
  char* dir = new_temp_dir();
  buf m = {0}, info = {0}, sig = {0}, gd = test_graph_def(), sm = {0};
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  char* p;
  b_str(&info, 4, "serve");
  b_msg(&m, 1, &info);
  b_msg(&m, 2, &gd);
  b_str(&sig, 3, "x"); /* a SignatureDef with no outputs */
  b_entry(&m, 5, "__saved_model_init_op", &sig);
  b_msg(&sm, 2, &m);
  p = path_join(dir, "saved_model.pb");
  write_file(p, sm.p, sm.n);
  CHECK(load(dir, kServe, 1, g, NULL, s) == NULL);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  CHECK_STR_EQ(TF_Message(s), "Could not find output __saved_model_init_op");
  CHECK_EQ_INT(graph_num_ops(g), 0);
  free(p);
  free(sm.p);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  remove_dir(dir);
  free(dir);
}

/* TF's checks of the saved graph (ValidateSavedTensors). */
TEST(saved_tensor_checks) {
  char* dir = new_temp_dir();
  int k;
  for (k = 0; k < 3; k++) {
    buf m = {0}, info = {0}, gd = {0}, node = {0}, sm = {0};
    TF_Status* s = TF_NewStatus();
    TF_Graph* g = TF_NewGraph();
    char* p;
    b_str(&info, 4, "serve");
    b_msg(&m, 1, &info);
    if (k == 0) { /* a Const without value */
      b_str(&node, 1, "c");
      b_str(&node, 2, "Const");
      b_msg(&gd, 1, &node);
    } else if (k == 1) { /* a value of unknown size */
      buf attr = {0}, tensor = {0}, shape = {0}, dim = {0};
      b_str(&node, 1, "c");
      b_str(&node, 2, "Const");
      b_varint(&dim, 1 << 3);
      b_varint(&dim, (uint64_t)-1);
      b_msg(&shape, 2, &dim);
      b_varint(&tensor, 1 << 3);
      b_varint(&tensor, 1); /* DT_FLOAT */
      b_msg(&tensor, 2, &shape);
      b_msg(&attr, 8, &tensor);
      b_entry(&node, 5, "value", &attr);
      b_msg(&gd, 1, &node);
    } else { /* a function calling itself */
      buf lib = {0}, fn = {0}, sig = {0};
      b_str(&sig, 1, "f");
      b_msg(&fn, 1, &sig);
      b_str(&node, 1, "call");
      b_str(&node, 2, "f");
      b_msg(&fn, 3, &node);
      b_msg(&lib, 1, &fn);
      b_msg(&gd, 2, &lib);
    }
    b_msg(&m, 2, &gd);
    b_msg(&sm, 2, &m);
    p = path_join(dir, "saved_model.pb");
    write_file(p, sm.p, sm.n);
    CHECK(load(dir, kServe, 1, g, NULL, s) == NULL);
    CHECK_CODE(s, TF_FAILED_PRECONDITION);
    if (k == 0) {
      CHECK_STR_EQ(TF_Message(s),
                   "Saved model contains node \"c\" which is a constant "
                   "tensor but no value has been provided");
    } else if (k == 1) {
      CHECK_STR_EQ(TF_Message(s),
                   "Saved model contains node \"c\" (op \"Const\") which "
                   "initializes from a tensor with -1 elements");
    } else {
      CHECK_STR_EQ(TF_Message(s),
                   "Function f is self recursive and TensorFlow does not "
                   "support this scenario.");
    }
    CHECK_EQ_INT(graph_num_ops(g), 0);
    free(p);
    free(sm.p);
    TF_DeleteGraph(g);
    TF_DeleteStatus(s);
  }
  remove_dir(dir);
  free(dir);
}

TEST(asset_and_feed_errors) {
  char* dir = new_temp_dir();
  buf m = {0}, info = {0}, gd = test_graph_def(), sm = {0};
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  char* p;
  b_str(&info, 4, "serve");
  b_msg(&m, 1, &info);
  b_msg(&m, 2, &gd);
  {
    buf c = {0}, l = {0}, any = {0};
    b_str(&any, 1, "type.googleapis.com/tensorflow.Foo");
    b_msg(&l, 1, &any);
    b_msg(&c, 5, &l);
    b_entry(&m, 4, "saved_model_assets", &c);
  }
  b_msg(&sm, 2, &m);
  p = path_join(dir, "saved_model.pb");
  write_file(p, sm.p, sm.n);
  free(sm.p);
  CHECK(load(dir, kServe, 1, g, NULL, s) == NULL);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  CHECK_STR_EQ(TF_Message(s),
               "Expected Any type_url for: tensorflow.AssetFileDef. Got: "
               "type.googleapis.com/tensorflow.Foo.");
  CHECK_EQ_INT(graph_num_ops(g), 0);
  free(p);
  /* An asset tensor that is not in the graph. */
  {
    meta_opts o = {{"serve"}, 1, 0, NULL, "init_assign", NULL, NULL, 0, 0, 0};
    buf afd = {0}, ti = tensor_info("nosuch_asset:0");
    m = meta_graph(&o);
    b_msg(&afd, 1, &ti);
    b_str(&afd, 2, "f.txt");
    b_msg(&m, 6, &afd);
    write_model(dir, &m, 1, 0);
    CHECK(load(dir, kServe, 1, g, NULL, s) == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(TF_Message(s),
                 "Tensor nosuch_asset:0, specified in either feed_devices or "
                 "fetch_devices was not found in the Graph");
    CHECK_EQ_INT(graph_num_ops(g), 0);
  }
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  remove_dir(dir);
  free(dir);
}

TEST(load_from_ram_filesystem) {
  const char* dir = "ram://tfe_sm_test/model";
  meta_opts o = {{"serve"}, 1, 1, NULL, "init_assign", NULL, NULL, 1, 0, 0};
  buf m = meta_graph(&o);
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Session* sess;
  write_model(dir, &m, 1, 1);
  sess = load(dir, kServe, 1, g, NULL, s);
  CHECK_CODE(s, TF_OK);
  check_mul(sess, g);
  check_read(sess, g, "read_prefix", "ram://tfe_sm_test/model/variables/variables");
  check_read(sess, g, "read_asset", "ram://tfe_sm_test/model/assets/vocab.txt");
  close_session(sess);
  TF_DeleteGraph(g);
  /* A trailing slash is not doubled in the paths fed. */
  g = TF_NewGraph();
  sess = load("ram://tfe_sm_test/model/", kServe, 1, g, NULL, s);
  CHECK_CODE(s, TF_OK);
  check_read(sess, g, "read_asset", "ram://tfe_sm_test/model/assets/vocab.txt");
  close_session(sess);
  TF_DeleteGraph(g);
  remove_dir("ram://tfe_sm_test");
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
