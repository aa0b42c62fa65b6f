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
#include <pthread.h>
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
#include "tfe/saved_model.h"
#include "tfe/tfe.h"
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
  /* Only the text format, with a MetaGraphDef without tags: read, and
   * no MetaGraphDef matches (TF's answer too). */
  p = path_join(dir, "saved_model.pbtxt");
  write_file(p, "meta_graphs { }", 15);
  CHECK(load(dir, kServe, 1, g, NULL, s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "{ serve }");
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

/* session_options make the session (a target tfe has no session factory
 * for is NOT_FOUND, as in TF); run_options go to the restore and init
 * runs (a well-formed RunOptions with a deadline is accepted). */
TEST(session_and_run_options_are_used) {
  char* dir = new_temp_dir();
  meta_opts o = {{"serve"}, 1, 1, NULL, "init_assign", NULL, NULL, 1, 0, 0};
  buf m = meta_graph(&o);
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_SessionOptions* so = TF_NewSessionOptions();
  /* RunOptions {timeout_in_ms: 60000} */
  TF_Buffer run = {"\x10\xe0\xd4\x03", 4, NULL};
  /* ConfigProto {intra_op_parallelism_threads: 1} */
  static const char config[] = "\x10\x01";
  TF_Session* sess;
  write_model(dir, &m, 1, 1);
  TF_SetTarget(so, "grpc://nowhere:1234");
  CHECK(TF_LoadSessionFromSavedModel(so, NULL, dir, kServe, 1, g, NULL, s) ==
        NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_EQ_INT(graph_num_ops(g), 0);
  TF_DeleteSessionOptions(so);
  so = TF_NewSessionOptions();
  TF_SetConfig(so, config, 2, s);
  CHECK_CODE(s, TF_OK);
  sess = TF_LoadSessionFromSavedModel(so, &run, dir, kServe, 1, g, NULL, s);
  CHECK_CODE(s, TF_OK);
  check_mul(sess, g);
  close_session(sess);
  /* NULL session options are the defaults. */
  TF_DeleteGraph(g);
  g = TF_NewGraph();
  sess = TF_LoadSessionFromSavedModel(NULL, NULL, dir, kServe, 1, g, NULL, s);
  CHECK_CODE(s, TF_OK);
  check_mul(sess, g);
  close_session(sess);
  TF_DeleteSessionOptions(so);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  remove_dir(dir);
  free(dir);
}

/* TF reads debug/saved_model_debug_info.pb when present: a damaged one
 * fails the load with TF's codes; a well-formed one is fine. */
TEST(debug_info_is_checked) {
  char* dir = new_temp_dir();
  meta_opts o = {{"serve"}, 1, 1, NULL, "init_assign", NULL, NULL, 1, 0, 0};
  buf m = meta_graph(&o);
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Session* sess;
  char* ddir = path_join(dir, "debug");
  char* dbg = path_join(dir, "debug/saved_model_debug_info.pb");
  unsigned char garbage[64];
  char want[4096];
  int i;
  write_model(dir, &m, 1, 1);
  make_dir(ddir);
  write_file(dbg, "\x0a\x05" "ab", 4);
  CHECK(load(dir, kServe, 1, g, NULL, s) == NULL);
  CHECK_CODE(s, TF_OUT_OF_RANGE);
  for (i = 0; i < 64; i++) garbage[i] = (unsigned char)(0x0f + i);
  write_file(dbg, garbage, sizeof(garbage));
  CHECK(load(dir, kServe, 1, g, NULL, s) == NULL);
  CHECK_CODE(s, TF_DATA_LOSS);
  snprintf(want, sizeof(want), "Can't parse %s as binary proto", dbg);
  CHECK_STR_EQ(TF_Message(s), want);
  CHECK_EQ_INT(graph_num_ops(g), 0);
  write_file(dbg, "\x0a\x02" "ab", 4); /* files: ["ab"] */
  sess = load(dir, kServe, 1, g, NULL, s);
  CHECK_CODE(s, TF_OK);
  close_session(sess);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  free(ddir);
  free(dbg);
  remove_dir(dir);
  free(dir);
}

/* saved_model.pbtxt (protobuf text format), written by hand: comments,
 * '<' '>' and '{' '}' messages, lists, single and double quotes, escapes,
 * enums by name and number, an expanded Any (a TF1 asset). */
static const char kTextModel[] =
    "# a SavedModel in text format\n"
    "saved_model_schema_version: 1\n"
    "meta_graphs {\n"
    "  meta_info_def { tags: 'serve'; tensorflow_version: \"2.21.0\" }\n"
    "  graph_def <\n"
    "    node { name: \"x\" op: \"Placeholder\"\n"
    "           attr { key: \"dtype\" value { type: DT_FLOAT } } }\n"
    "    node { name: \"two\" op: \"Const\"\n"
    "           attr { key: \"dtype\" value { type: 1 } }\n"
    "           attr { key: \"value\" value { tensor { dtype: DT_FLOAT\n"
    "                  tensor_shape { } float_val: [2.0f] } } } }\n"
    "    node { name: \"y\" op: \"Mul\" input: [\"x\", 'two']\n"
    "           attr { key: \"T\" value { type: DT_FLOAT } } }\n"
    "    node { name: \"asset_path\" op: \"Const\"\n"
    "           attr { key: \"dtype\" value { type: DT_STRING } }\n"
    "           attr { key: \"value\" value { tensor { dtype: DT_STRING\n"
    "                  tensor_shape { } string_val: \"not\\x20\" 'fed\\n' } } } }\n"
    "    node { name: \"v\" op: \"VarHandleOp\"\n"
    "           attr { key: \"dtype\" value { type: DT_STRING } }\n"
    "           attr { key: \"shape\" value { shape { } } }\n"
    "           attr { key: \"shared_name\" value { s: \"v\\001\" } } }\n"
    "    node { name: \"init\" op: \"AssignVariableOp\" input: \"v\"\n"
    "           input: \"asset_path\"\n"
    "           attr { key: \"dtype\" value { type: DT_STRING } } }\n"
    "    node { name: \"read\" op: \"ReadVariableOp\" input: \"v\"\n"
    "           attr { key: \"dtype\" value { type: DT_STRING } } }\n"
    "    versions { producer: 1234 }\n"
    "  >\n"
    "  collection_def { key: \"saved_model_main_op\"\n"
    "                   value { node_list { value: \"init\" } } }\n"
    "  collection_def {\n"
    "    key: \"saved_model_assets\"\n"
    "    value { any_list { value {\n"
    "      [type.googleapis.com/tensorflow.AssetFileDef] {\n"
    "        tensor_info { name: \"asset_path:0\" dtype: DT_STRING }\n"
    "        filename: \"vocab.txt\" } } } }\n"
    "  }\n"
    "}\n";

TEST(text_format_saved_model) {
  char* dir = new_temp_dir();
  char* p = path_join(dir, "saved_model.pbtxt");
  char* assets = path_join(dir, "assets");
  char* vocab = path_join(dir, "assets/vocab.txt");
  char expect[4096];
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* mg = TF_NewBuffer();
  TF_Session* sess;
  write_file(p, kTextModel, sizeof(kTextModel) - 1);
  make_dir(assets);
  write_file(vocab, "a\n", 2);
  sess = load(dir, kServe, 1, g, mg, s);
  CHECK_CODE(s, TF_OK);
  CHECK(mg->length > 0);
  check_mul(sess, g);
  snprintf(expect, sizeof(expect), "%s/assets/vocab.txt", dir);
  check_read(sess, g, "read", expect);
  close_session(sess);
  TF_DeleteBuffer(mg);
  TF_DeleteGraph(g);
  /* saved_model.pb wins over saved_model.pbtxt. */
  {
    char* pb = path_join(dir, "saved_model.pb");
    write_file(pb, "", 0);
    g = TF_NewGraph();
    CHECK(load(dir, kServe, 1, g, NULL, s) == NULL);
    CHECK_CODE(s, TF_NOT_FOUND);
    TF_DeleteGraph(g);
    free(pb);
  }
  TF_DeleteStatus(s);
  free(p);
  free(assets);
  free(vocab);
  remove_dir(dir);
  free(dir);
}

/* Malformed text: DATA_LOSS "Can't parse <path> as text proto", or, when
 * TF's tokenizer had read to the end of the text before the failure,
 * OUT_OF_RANGE (each case checked against TF 2.21). */
TEST(text_format_errors) {
  static const struct {
    const char* text;
    TF_Code code;
  } bad[] = {
      {"meta_graphs { bogus: 1 }", TF_DATA_LOSS}, /* unknown field */
      {"meta_graphs { meta_info_def { tags: \"x } }", TF_OUT_OF_RANGE},
      {"meta_graphs { meta_info_def { tags: x } }", TF_DATA_LOSS},
      {"meta_graphs { graph_def { node { attr { value { type: DT_NOPE } } } } }",
       TF_DATA_LOSS},
      {"saved_model_schema_version: 1.5", TF_OUT_OF_RANGE},
      {"saved_model_schema_version: 1.5   ", TF_DATA_LOSS},
      {"meta_graphs { meta_info_def { stripped_default_attrs: maybe } }",
       TF_DATA_LOSS},
      {"meta_graphs { meta_info_def { tags: \"\\q\" } }", TF_OUT_OF_RANGE},
      {"meta_graphs { ", TF_OUT_OF_RANGE},
      {"meta_graphs { } }", TF_OUT_OF_RANGE},
      {"meta_graphs { collection_def { value { any_list { value { "
       "[type.googleapis.com/tensorflow.Nope] { } } } } } }",
       TF_DATA_LOSS},
      {"\" } }", TF_OUT_OF_RANGE},
      {"\"a\" } }", TF_DATA_LOSS},
  };
  char* dir = new_temp_dir();
  char* p = path_join(dir, "saved_model.pbtxt");
  char want[4096];
  size_t i;
  TF_Status* s = TF_NewStatus();
  snprintf(want, sizeof(want), "Can't parse %s as text proto", p);
  for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    TF_Graph* g = TF_NewGraph();
    write_file(p, bad[i].text, strlen(bad[i].text));
    CHECK(load(dir, kServe, 1, g, NULL, s) == NULL);
    if (TF_GetCode(s) != bad[i].code) {
      TFE_FAIL("case %zu: code %d: %s", i, TF_GetCode(s), TF_Message(s));
    }
    if (bad[i].code == TF_DATA_LOSS) {
      CHECK_STR_EQ(TF_Message(s), want);
    } else {
      CHECK_STR_EQ(TF_Message(s), "Read less bytes than requested");
    }
    CHECK_EQ_INT(graph_num_ops(g), 0);
    TF_DeleteGraph(g);
  }
  TF_DeleteStatus(s);
  free(p);
  remove_dir(dir);
  free(dir);
}

/* Allocation failures at every point of a load (SQLite style: the n-th
 * allocation fails in run n): each load fails cleanly with
 * RESOURCE_EXHAUSTED, leaves the graph empty and frees what it made
 * (ASan's leak check and the live-object counts), until one succeeds.
 * Returns the number of allocation points. */
static long sweep_load(const char* dir, void (*check)(TF_Session*, TF_Graph*)) {
  TF_Status* s = TF_NewStatus();
  TF_SessionOptions* so = TF_NewSessionOptions();
  int64_t base_tensors, base_contexts;
  long n, failures = 0;
  int done = 0;
  {
    /* One load first: one-time initialisation is not part of the sweep. */
    TF_Graph* g = TF_NewGraph();
    TF_Session* sess = load(dir, kServe, 1, g, NULL, s);
    CHECK_CODE(s, TF_OK);
    close_session(sess);
    TF_DeleteGraph(g);
  }
  base_tensors = TFE_LiveObjectCount(TFE_OBJ_TENSOR);
  base_contexts = TFE_LiveObjectCount(TFE_OBJ_CONTEXT);
  for (n = 0; n < 100000 && !done; n++) {
    TF_Graph* g = TF_NewGraph();
    TF_Buffer* mg = TF_NewBuffer();
    TF_Session* sess;
    if (g == NULL || mg == NULL) TFE_FAIL("out of memory outside the sweep");
    TFE_TestFailAllocationsAfter(n);
    sess = TF_LoadSessionFromSavedModel(so, NULL, dir, kServe, 1, g, mg, s);
    TFE_TestFailAllocationsAfter(-1);
    if (sess != NULL) {
      CHECK_CODE(s, TF_OK);
      CHECK(mg->length > 0);
      if (check != NULL) check(sess, g);
      close_session(sess);
      done = 1;
    } else {
      if (TF_GetCode(s) != TF_RESOURCE_EXHAUSTED) {
        TFE_FAIL("%s: failing allocation %ld: code %s: %s", dir, n,
                 TFE_CodeName(TF_GetCode(s)), TF_Message(s));
      }
      CHECK_EQ_INT(graph_num_ops(g), 0);
      CHECK(mg->data == NULL);
      failures++;
    }
    TF_DeleteBuffer(mg);
    TF_DeleteGraph(g);
    CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_TENSOR), base_tensors);
    CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_CONTEXT), base_contexts);
  }
  CHECK(done);
  printf("%s: %ld allocation points, each failed cleanly\n", dir, failures);
  TF_DeleteSessionOptions(so);
  TF_DeleteStatus(s);
  return failures;
}

TEST(allocation_failures_during_load) {
  char* dir = new_temp_dir();
  meta_opts o = {{"serve"}, 1, 1, NULL, "init_assign", NULL, NULL, 1, 0, 0};
  buf m = meta_graph(&o);
  write_model(dir, &m, 1, 1);
  CHECK(sweep_load(dir, check_mul) > 50);
  remove_dir(dir);
  free(dir);
}

/* ------------------------------------------------------------------------
 * Part 2: the models exported by TF 2.21. */

#define SM_DIR TFE_TEST_DATA_DIR "/saved_models/"

static char* slurp(const char* path, size_t* n) {
  FILE* f = fopen(path, "rb");
  char* data;
  long len;
  if (f == NULL) TFE_FAIL("cannot open %s", path);
  fseek(f, 0, SEEK_END);
  len = ftell(f);
  fseek(f, 0, SEEK_SET);
  data = (char*)malloc((size_t)len + 1);
  CHECK(data != NULL);
  CHECK(fread(data, 1, (size_t)len, f) == (size_t)len);
  data[len] = '\0';
  fclose(f);
  *n = (size_t)len;
  return data;
}

/* A small JSON reader (objects, arrays, strings without \u escapes
 * beyond ASCII, numbers, true/false/null): enough for manifest.json. */
typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jkind;
typedef struct jv {
  jkind kind;
  double num;
  char* str;
  int n;             /* array / object size */
  struct jv* items;  /* n values */
  char** keys;       /* objects: n keys */
} jv;

static const char* j_ws(const char* p) {
  while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
  return p;
}

static const char* j_parse(const char* p, jv* out);

static const char* j_string(const char* p, char** out) {
  size_t cap = 16, n = 0;
  char* s = (char*)malloc(cap);
  CHECK(*p == '"');
  p++;
  while (*p != '"') {
    char c = *p++;
    CHECK(c != '\0');
    if (c == '\\') {
      c = *p++;
      if (c == 'n') c = '\n';
      else if (c == 't') c = '\t';
      else if (c == 'u') {
        unsigned v = (unsigned)strtoul((char[]){p[0], p[1], p[2], p[3], 0},
                                       NULL, 16);
        p += 4;
        c = (char)(v < 0x80 ? v : '?');
      }
    }
    if (n + 2 > cap) s = (char*)realloc(s, cap *= 2);
    s[n++] = c;
  }
  s[n] = '\0';
  *out = s;
  return p + 1;
}

static const char* j_parse(const char* p, jv* out) {
  memset(out, 0, sizeof(*out));
  p = j_ws(p);
  if (*p == '{' || *p == '[') {
    int obj = *p == '{';
    char close = obj ? '}' : ']';
    out->kind = obj ? J_OBJ : J_ARR;
    p = j_ws(p + 1);
    while (*p != close) {
      out->items = (jv*)realloc(out->items, (size_t)(out->n + 1) * sizeof(jv));
      if (obj) {
        out->keys =
            (char**)realloc(out->keys, (size_t)(out->n + 1) * sizeof(char*));
        p = j_string(j_ws(p), &out->keys[out->n]);
        p = j_ws(p);
        CHECK(*p == ':');
        p++;
      }
      p = j_ws(j_parse(p, &out->items[out->n]));
      out->n++;
      if (*p == ',') p = j_ws(p + 1);
    }
    return p + 1;
  }
  if (*p == '"') {
    out->kind = J_STR;
    return j_string(p, &out->str);
  }
  if (strncmp(p, "true", 4) == 0 || strncmp(p, "false", 5) == 0) {
    out->kind = J_BOOL;
    out->num = *p == 't';
    return p + (*p == 't' ? 4 : 5);
  }
  if (strncmp(p, "null", 4) == 0) return p + 4;
  {
    char* end;
    out->kind = J_NUM;
    out->num = strtod(p, &end);
    CHECK(end != p);
    return end;
  }
}

static void j_free(jv* v) {
  int i;
  for (i = 0; i < v->n; i++) {
    j_free(&v->items[i]);
    if (v->keys != NULL) free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->str);
}

static jv* j_get(jv* obj, const char* key) {
  int i;
  CHECK(obj->kind == J_OBJ);
  for (i = 0; i < obj->n; i++) {
    if (strcmp(obj->keys[i], key) == 0) return &obj->items[i];
  }
  return NULL;
}

/* A .npy file as a TF_Tensor (dtypes <f4 <f8 <i4 <i8 |b1 |u1, and |O:
 * object arrays of bytes, pickled; strings become TF_STRING). The pickle
 * is read by a tiny interpreter of the opcodes numpy writes: it records
 * bytes objects (and the memo, since equal objects such as b'' are
 * pickled once and referenced) pushed after the element list starts. */
static TF_Tensor* read_npy(const char* path) {
  size_t n, hl;
  char* d = slurp(path, &n);
  char* hdr;
  const char* descr;
  int64_t dims[8];
  int nd = 0, i;
  int64_t count = 1;
  TF_Tensor* t;
  CHECK(n > 10 && memcmp(d, "\x93NUMPY", 6) == 0);
  if (d[6] == 1) {
    hl = (unsigned char)d[8] | ((size_t)(unsigned char)d[9] << 8);
    hdr = d + 10;
  } else {
    hl = (unsigned char)d[8] | ((size_t)(unsigned char)d[9] << 8) |
         ((size_t)(unsigned char)d[10] << 16);
    hdr = d + 12;
  }
  CHECK(strstr(hdr, "'fortran_order': False") != NULL);
  {
    const char* sh = strstr(hdr, "'shape': (");
    CHECK(sh != NULL);
    sh += 10;
    while (*sh != ')') {
      char* end;
      dims[nd] = strtoll(sh, &end, 10);
      count *= dims[nd++];
      sh = end;
      while (*sh == ',' || *sh == ' ') sh++;
    }
  }
  descr = strstr(hdr, "'descr': '") + 10;
  {
    const char* body = hdr + hl;
    size_t blen = n - (size_t)(body - d);
    static const struct {
      const char* descr;
      TF_DataType dt;
      size_t size;
    } kinds[] = {{"<f4", TF_FLOAT, 4}, {"<f8", TF_DOUBLE, 8},
                 {"<i4", TF_INT32, 4}, {"<i8", TF_INT64, 8},
                 {"|b1", TF_BOOL, 1},  {"|u1", TF_UINT8, 1}};
    for (i = 0; i < 6; i++) {
      if (strncmp(descr, kinds[i].descr, 3) == 0) {
        size_t bytes = (size_t)count * kinds[i].size;
        CHECK(blen >= bytes);
        t = TF_AllocateTensor(kinds[i].dt, dims, nd, bytes);
        if (bytes > 0) memcpy(TF_TensorData(t), body, bytes);
        free(d);
        return t;
      }
    }
    CHECK(strncmp(descr, "|O", 2) == 0);
    {
      const unsigned char* p = (const unsigned char*)body;
      const unsigned char* end = p + blen;
      const unsigned char* memo_p[4096];
      size_t memo_n[4096];
      int nmemo = 0, in_list = 0;
      int64_t got = 0;
      const unsigned char* last_p = NULL;
      size_t last_n = (size_t)-1;
      TF_TString* ts;
      t = TF_AllocateTensor(TF_STRING, dims, nd,
                            (size_t)count * sizeof(TF_TString));
      ts = (TF_TString*)TF_TensorData(t);
      for (i = 0; i < count; i++) TF_StringInit(&ts[i]);
      /* last_n == (size_t)-1: the object just pushed is not bytes. */
      while (p < end && *p != '.') {
        unsigned char op = *p++;
        size_t len = 0;
        switch (op) {
          case 0x80: p += 1; break;                 /* PROTO */
          case 0x95: p += 8; break;                 /* FRAME */
          case 0x8c: len = *p++; p += len; break;   /* SHORT_BINUNICODE */
          case 'X':                                 /* BINUNICODE */
            len = p[0] | (p[1] << 8) | ((size_t)p[2] << 16) |
                  ((size_t)p[3] << 24);
            p += 4 + len;
            break;
          case 'K': p += 1; break;  /* BININT1 */
          case 'M': p += 2; break;  /* BININT2 */
          case 'J': p += 4; break;  /* BININT */
          case ']': in_list = 1; break;
          default: break; /* no-argument opcodes: ( t R b e a N 0x85.. */
        }
        if (op == 'C' || op == 'B') { /* SHORT_BINBYTES, BINBYTES */
          if (op == 'C') {
            len = *p++;
          } else {
            len = p[0] | (p[1] << 8) | ((size_t)p[2] << 16) |
                  ((size_t)p[3] << 24);
            p += 4;
          }
          CHECK(p + len <= end);
          if (in_list) {
            CHECK(got < count);
            TF_StringCopy(&ts[got++], (const char*)p, len);
          }
          last_p = p;
          last_n = len;
          p += len;
        } else if (op == 'h' || op == 'j') { /* BINGET, LONG_BINGET */
          size_t idx = *p++;
          if (op == 'j') {
            idx |= (size_t)p[0] << 8 | (size_t)p[1] << 16 |
                   (size_t)p[2] << 24;
            p += 3;
          }
          CHECK(idx < (size_t)nmemo);
          last_p = memo_p[idx];
          last_n = memo_n[idx];
          if (last_n != (size_t)-1 && in_list) {
            CHECK(got < count);
            TF_StringCopy(&ts[got++], (const char*)last_p, last_n);
          }
        } else if (op == 0x94) { /* MEMOIZE the object just pushed */
          CHECK(nmemo < 4096);
          memo_p[nmemo] = last_p;
          memo_n[nmemo] = last_n;
          nmemo++;
        } else {
          last_n = (size_t)-1;
        }
      }
      CHECK_EQ_INT(got, count);
      free(d);
      return t;
    }
  }
}

static const char* dtype_name(TF_DataType t) {
  switch (t) {
    case TF_FLOAT: return "float32";
    case TF_DOUBLE: return "float64";
    case TF_INT32: return "int32";
    case TF_INT64: return "int64";
    case TF_BOOL: return "bool";
    case TF_UINT8: return "uint8";
    case TF_STRING: return "string";
    default: return "?";
  }
}

/* Compares TF's output `want` with tfe's `got`: same dtype and shape,
 * floats within atol + rtol * |want|, everything else exactly. */
static void compare(const char* what, TF_Tensor* want, TF_Tensor* got,
                    double rtol, double atol) {
  int i;
  int64_t k, n = 1;
  if (TF_TensorType(want) != TF_TensorType(got)) {
    TFE_FAIL("%s: dtype %s, TF gave %s", what,
             dtype_name(TF_TensorType(got)), dtype_name(TF_TensorType(want)));
  }
  if (TF_NumDims(want) != TF_NumDims(got)) {
    TFE_FAIL("%s: rank %d, TF gave %d", what, TF_NumDims(got),
             TF_NumDims(want));
  }
  for (i = 0; i < TF_NumDims(want); i++) {
    if (TF_Dim(want, i) != TF_Dim(got, i)) {
      TFE_FAIL("%s: dim %d is %lld, TF gave %lld", what, i,
               (long long)TF_Dim(got, i), (long long)TF_Dim(want, i));
    }
    n *= TF_Dim(want, i);
  }
  for (k = 0; k < n; k++) {
    switch (TF_TensorType(want)) {
      case TF_FLOAT:
      case TF_DOUBLE: {
        double a = TF_TensorType(want) == TF_FLOAT
                       ? ((const float*)TF_TensorData(want))[k]
                       : ((const double*)TF_TensorData(want))[k];
        double b = TF_TensorType(want) == TF_FLOAT
                       ? ((const float*)TF_TensorData(got))[k]
                       : ((const double*)TF_TensorData(got))[k];
        if (!(fabs(a - b) <= atol + rtol * fabs(a)) &&
            !(isnan(a) && isnan(b))) {
          TFE_FAIL("%s[%lld]: %.9g, TF gave %.9g", what, (long long)k, b, a);
        }
        break;
      }
      case TF_STRING: {
        const TF_TString* a = (const TF_TString*)TF_TensorData(want) + k;
        const TF_TString* b = (const TF_TString*)TF_TensorData(got) + k;
        if (TF_StringGetSize(a) != TF_StringGetSize(b) ||
            memcmp(TF_StringGetDataPointer(a), TF_StringGetDataPointer(b),
                   TF_StringGetSize(a)) != 0) {
          TFE_FAIL("%s[%lld]: \"%.*s\", TF gave \"%.*s\"", what,
                   (long long)k, (int)TF_StringGetSize(b),
                   TF_StringGetDataPointer(b), (int)TF_StringGetSize(a),
                   TF_StringGetDataPointer(a));
        }
        break;
      }
      default: {
        size_t es = TF_TensorByteSize(want) / (size_t)(n > 0 ? n : 1);
        if (memcmp((const char*)TF_TensorData(want) + (size_t)k * es,
                   (const char*)TF_TensorData(got) + (size_t)k * es,
                   es) != 0) {
          long long a = 0, b = 0;
          memcpy(&a, (const char*)TF_TensorData(want) + (size_t)k * es,
                 es < 8 ? es : 8);
          memcpy(&b, (const char*)TF_TensorData(got) + (size_t)k * es,
                 es < 8 ? es : 8);
          TFE_FAIL("%s[%lld]: %lld, TF gave %lld", what, (long long)k, b, a);
        }
      }
    }
  }
}

/* The tensor named "node:i" of the graph. */
static TF_Output tensor_by_name(TF_Graph* g, const char* name) {
  char node[512];
  const char* colon = strrchr(name, ':');
  TF_Output o;
  size_t n = colon != NULL ? (size_t)(colon - name) : strlen(name);
  CHECK(n < sizeof(node));
  memcpy(node, name, n);
  node[n] = '\0';
  o.oper = TF_GraphOperationByName(g, node);
  o.index = colon != NULL ? atoi(colon + 1) : 0;
  if (o.oper == NULL) TFE_FAIL("no tensor %s in the graph", name);
  return o;
}

/* The tensor name of input/output `key` of signature `sig`. */
static const char* sig_tensor(jv* man, const char* sig, const char* side,
                              const char* key) {
  jv* list = j_get(j_get(j_get(man, "signatures"), sig), side);
  int i;
  for (i = 0; i < list->n; i++) {
    if (strcmp(j_get(&list->items[i], "key")->str, key) == 0) {
      return j_get(&list->items[i], "name")->str;
    }
  }
  TFE_FAIL("signature %s has no %s %s", sig, side, key);
  return NULL;
}

/* Replays every run of the manifest in the session, in order. */
static void replay(const char* name, jv* man, TF_Session* sess,
                   TF_Graph* g) {
  jv* runs = j_get(man, "runs");
  double rtol = j_get(man, "rtol")->num, atol = j_get(man, "atol")->num;
  char dir[1024];
  int r, i;
  snprintf(dir, sizeof(dir), SM_DIR "%s/", name);
  CHECK(runs != NULL && runs->n > 0);
  for (r = 0; r < runs->n; r++) {
    jv* run = &runs->items[r];
    const char* sig = j_get(run, "signature")->str;
    jv* ins = j_get(run, "inputs");
    jv* outs = j_get(run, "outputs");
    TF_Output* fi = (TF_Output*)calloc((size_t)ins->n + 1, sizeof(TF_Output));
    TF_Tensor** fv = (TF_Tensor**)calloc((size_t)ins->n + 1, sizeof(void*));
    TF_Output* fo = (TF_Output*)calloc((size_t)outs->n + 1, sizeof(TF_Output));
    TF_Tensor** got = (TF_Tensor**)calloc((size_t)outs->n + 1, sizeof(void*));
    TF_Status* s = TF_NewStatus();
    char path[2048];
    for (i = 0; i < ins->n; i++) {
      fi[i] = tensor_by_name(g, sig_tensor(man, sig, "inputs", ins->keys[i]));
      snprintf(path, sizeof(path), "%s%s", dir, ins->items[i].str);
      fv[i] = read_npy(path);
    }
    for (i = 0; i < outs->n; i++) {
      fo[i] = tensor_by_name(g, sig_tensor(man, sig, "outputs", outs->keys[i]));
    }
    TF_SessionRun(sess, NULL, fi, fv, ins->n, fo, got, outs->n, NULL, 0, NULL,
                  s);
    if (TF_GetCode(s) != TF_OK) {
      TFE_FAIL("%s run %d (%s): code %d: %s", name, r + 1, sig, TF_GetCode(s),
               TF_Message(s));
    }
    for (i = 0; i < outs->n; i++) {
      char what[512];
      TF_Tensor* want;
      snprintf(path, sizeof(path), "%s%s", dir, outs->items[i].str);
      want = read_npy(path);
      snprintf(what, sizeof(what), "%s run %d %s/%s", name, r + 1, sig,
               outs->keys[i]);
      compare(what, want, got[i], rtol, atol);
      TF_DeleteTensor(want);
      TF_DeleteTensor(got[i]);
    }
    for (i = 0; i < ins->n; i++) TF_DeleteTensor(fv[i]);
    free(fi);
    free(fv);
    free(fo);
    free(got);
    TF_DeleteStatus(s);
  }
}

static jv* read_manifest(const char* name) {
  char path[1024];
  size_t n;
  char* text;
  jv* man = (jv*)calloc(1, sizeof(jv));
  snprintf(path, sizeof(path), SM_DIR "%s/manifest.json", name);
  text = slurp(path, &n);
  j_parse(text, man);
  free(text);
  return man;
}

/* Loads model `name` from `dir` with the manifest's default tags, checks
 * the MetaGraphDef returned, replays the runs. */
static void run_model_from(const char* name, const char* dir) {
  jv* man = read_manifest(name);
  jv* tags = j_get(man, "default_tags");
  const char* tv[8];
  int i;
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* mg = TF_NewBuffer();
  TF_Session* sess;
  CHECK(tags->n <= 8);
  for (i = 0; i < tags->n; i++) tv[i] = tags->items[i].str;
  sess = load(dir, tv, tags->n, g, mg, s);
  if (TF_GetCode(s) != TF_OK) {
    TFE_FAIL("loading %s: code %d: %s", name, TF_GetCode(s), TF_Message(s));
  }
  CHECK(mg->length > 0);
  CHECK(graph_num_ops(g) == (int)j_get(man, "num_graph_nodes")->num);
  replay(name, man, sess, g);
  close_session(sess);
  TF_DeleteBuffer(mg);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  j_free(man);
  free(man);
}

static void run_model(const char* name) {
  char dir[1024];
  snprintf(dir, sizeof(dir), SM_DIR "%s", name);
  run_model_from(name, dir);
}

TEST(model_keras_mlp) { run_model("keras_mlp"); }
TEST(model_keras_cnn_bn) { run_model("keras_cnn_bn"); }
TEST(model_keras_lstm) { run_model("keras_lstm"); }
TEST(model_keras_transformer) { run_model("keras_transformer"); }
TEST(model_module_cond_while) { run_model("module_cond_while"); }
TEST(model_strings) { run_model("strings"); }
TEST(model_tf1_simple_save) { run_model("tf1_simple_save"); }
TEST(model_tf1_builder) { run_model("tf1_builder"); }

/* Not a SavedModel: a GraphDef imported with an empty prefix. */
/* The allocation sweep on a TF1 model: RestoreV2 of real variables. */
TEST(model_tf1_simple_save_allocation_failures) {
  CHECK(sweep_load(SM_DIR "tf1_simple_save", NULL) > 100);
}

TEST(model_frozen_graph) {
  jv* man = read_manifest("frozen_graph");
  size_t n;
  char* data = slurp(SM_DIR "frozen_graph/model.pb", &n);
  TF_Buffer* gd = TF_NewBufferFromString(data, n);
  TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_SessionOptions* so = TF_NewSessionOptions();
  TF_Session* sess;
  TF_GraphImportGraphDef(g, gd, opts, s);
  CHECK_CODE(s, TF_OK);
  sess = TF_NewSession(g, so, s);
  CHECK_CODE(s, TF_OK);
  replay("frozen_graph", man, sess, g);
  close_session(sess);
  TF_DeleteSessionOptions(so);
  TF_DeleteGraph(g);
  TF_DeleteImportGraphDefOptions(opts);
  TF_DeleteBuffer(gd);
  TF_DeleteStatus(s);
  free(data);
  j_free(man);
  free(man);
}

/* Copies the local directory src into dst (any registered filesystem). */
static void copy_tree(const char* src, const char* dst) {
  TF_Status* s = TF_NewStatus();
  TF_StringStream* list = TF_GetChildren(src, s);
  const char* e;
  CHECK_CODE(s, TF_OK);
  make_dir(dst);
  while (TF_StringStreamNext(list, &e)) {
    char* from = path_join(src, e);
    char* to = path_join(dst, e);
    struct stat st;
    CHECK(stat(from, &st) == 0);
    if (S_ISDIR(st.st_mode)) {
      copy_tree(from, to);
    } else {
      size_t n;
      char* data = slurp(from, &n);
      write_file(to, data, n);
      free(data);
    }
    free(from);
    free(to);
  }
  TF_StringStreamDone(list);
  TF_DeleteStatus(s);
}

/* Models whose files are in ram:// (saved_model.pb, variables, assets). */
TEST(model_from_ram_keras_mlp) {
  copy_tree(SM_DIR "keras_mlp", "ram://tfe_sm_models/keras_mlp");
  run_model_from("keras_mlp", "ram://tfe_sm_models/keras_mlp");
  remove_dir("ram://tfe_sm_models");
}

/* ... and from a filesystem plugin's scheme (testfs://, the
 * directory-backed test plugin built from tests/plugins/fs_testfs.c). */
TEST(model_from_plugin_filesystem_keras_mlp) {
  char root[] = "/tmp/tfe_sm_testfs_XXXXXX";
  char plugin[1024];
  TF_Status* s = TF_NewStatus();
  CHECK(mkdtemp(root) != NULL);
  CHECK(setenv("TFE_TESTFS_ROOT", root, 1) == 0);
  snprintf(plugin, sizeof plugin, "%s/fs_testfs.so", TFE_TEST_PLUGIN_DIR);
  TF_RegisterFilesystemPlugin(plugin, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
  copy_tree(SM_DIR "keras_mlp", "testfs://sm/keras_mlp");
  run_model_from("keras_mlp", "testfs://sm/keras_mlp");
  remove_dir("testfs://sm");
  CHECK(rmdir(root) == 0); /* the plugin's files lived under root */
}

/* ... with an asset from the TF1 saved_model_assets collection. */
TEST(model_from_ram_tf1_builder) {
  copy_tree(SM_DIR "tf1_builder", "ram://tfe_sm_models/tf1_builder");
  run_model_from("tf1_builder", "ram://tfe_sm_models/tf1_builder");
  remove_dir("ram://tfe_sm_models");
}

/* The same models with saved_model.pbtxt (tests/data/saved_models_text,
 * tools/gen_saved_model_text_data.py) instead of saved_model.pb. */
static void run_text_model(const char* name) {
  char src[1024], dst[1024], pb[1100], txt[1100];
  size_t n;
  char* text;
  TF_Status* s = TF_NewStatus();
  snprintf(src, sizeof(src), SM_DIR "%s", name);
  snprintf(dst, sizeof(dst), "ram://tfe_sm_text/%s", name);
  copy_tree(src, dst);
  snprintf(pb, sizeof(pb), "%s/saved_model.pb", dst);
  TF_DeleteFile(pb, s);
  CHECK_CODE(s, TF_OK);
  snprintf(txt, sizeof(txt), TFE_TEST_DATA_DIR "/saved_models_text/%s/saved_model.pbtxt", name);
  text = slurp(txt, &n);
  snprintf(txt, sizeof(txt), "%s/saved_model.pbtxt", dst);
  write_file(txt, text, n);
  free(text);
  run_model_from(name, dst);
  remove_dir("ram://tfe_sm_text");
  TF_DeleteStatus(s);
}

TEST(model_tf1_simple_save_text) { run_text_model("tf1_simple_save"); }
TEST(model_module_cond_while_text) { run_text_model("module_cond_while"); }

static int contains(const void* hay, size_t n, const char* needle) {
  size_t k = strlen(needle), i;
  for (i = 0; i + k <= n; i++) {
    if (memcmp((const char*)hay + i, needle, k) == 0) return 1;
  }
  return 0;
}

/* TFE_ReadSavedModel: the whole SavedModel, from .pb as it is, from
 * .pbtxt converted; the loader's reading errors. */
TEST(read_saved_model_helper) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* b = TF_NewBuffer();
  TF_Buffer* full = TF_NewBufferFromString("x", 1);
  size_t n;
  char* file = slurp(SM_DIR "tf1_builder/saved_model.pb", &n);
  TFE_ReadSavedModel(SM_DIR "tf1_builder", b, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_SIZE(b->length, n);
  CHECK(memcmp(b->data, file, n) == 0);
  free(file);
  TF_DeleteBuffer(b);
  b = TF_NewBuffer();
  copy_tree(TFE_TEST_DATA_DIR "/saved_models_text/tf1_simple_save",
            "ram://tfe_sm_read/m");
  TFE_ReadSavedModel("ram://tfe_sm_read/m", b, s);
  CHECK_CODE(s, TF_OK);
  CHECK(contains(b->data, b->length, "save/restore_all"));
  CHECK(contains(b->data, b->length, "serving_default"));
  remove_dir("ram://tfe_sm_read");
  TF_DeleteBuffer(b);
  b = TF_NewBuffer();
  TFE_ReadSavedModel("/nonexistent/tfe/m", b, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK(b->data == NULL);
  TFE_ReadSavedModel(SM_DIR "tf1_builder", full, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ReadSavedModel(NULL, b, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ReadSavedModel(SM_DIR "tf1_builder", NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ReadSavedModel(SM_DIR "tf1_builder", b, NULL);
  CHECK(b->data == NULL);
  TF_DeleteBuffer(full);
  TF_DeleteBuffer(b);
  TF_DeleteStatus(s);
}

static void* load_thread(void* arg) {
  const char* name = (const char*)arg;
  int k;
  for (k = 0; k < 3; k++) run_model(name);
  return NULL;
}

/* Loads in several threads at once, each into its own graph and session. */
TEST(concurrent_loads) {
  static const char* const names[] = {"keras_mlp", "tf1_builder",
                                      "module_cond_while", "strings"};
  pthread_t th[4];
  int i;
  for (i = 0; i < 4; i++) {
    CHECK(pthread_create(&th[i], NULL, load_thread, (void*)names[i]) == 0);
  }
  for (i = 0; i < 4; i++) CHECK(pthread_join(th[i], NULL) == 0);
}

TFE_TEST_MAIN
