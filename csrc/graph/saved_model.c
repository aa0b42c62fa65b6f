/* TF_LoadSessionFromSavedModel: loads a SavedModel directory the way TF
 * 2.21's loader does, through the filesystem registry (so ram:// and
 * plugin schemes work):
 *   1. the graph must be empty and run_options well formed;
 *   2. <dir>/saved_model.pb is read, else <dir>/saved_model.pbtxt (text
 *      format, saved_model_text.c); neither present is NOT_FOUND;
 *   3. the MetaGraphDef whose tag set equals `tags` is chosen; a
 *      <dir>/debug/saved_model_debug_info.pb, when present, must parse;
 *   4. a session is made with `session_options`; TF's checks of the saved
 *      graph (constants with values of known size, no self-recursive
 *      function) run; the graph_def (with its function library) is
 *      imported into `graph` with the default import options;
 *   5. the asset tensors are collected (asset_file_def, else the TF1
 *      "saved_model_assets" collection), each fed <dir>/assets/<file>;
 *   6. if the MetaGraphDef has a saver_def and <dir>/variables/
 *      variables.index exists, saver_def.restore_op_name runs with
 *      saver_def.filename_tensor_name fed <dir>/variables/variables
 *      (plus the asset feeds);
 *   7. the init op runs with the asset feeds: the output of the
 *      "__saved_model_init_op" signature, else the one node of the
 *      "saved_model_main_op" collection, else of "legacy_init_op";
 *   8. meta_graph_def (when given) receives the chosen MetaGraphDef.
 * Runs 6 and 7 use `run_options`. On failure the session is deleted and
 * `graph` is left as it was (TF imports only after a successful load; tfe
 * imports first because the session runs on `graph`, and undoes it).
 *
 * Ownership: the returned session is the caller's (TF_CloseSession +
 * TF_DeleteSession), and holds `graph` as TF_NewSession does. The
 * meta_graph_def buffer must be empty (data NULL); it receives memory that
 * its data_deallocator frees.
 *
 * Also TFE_ReadSavedModel (tfe/saved_model.h): steps 2's reading alone,
 * returning the whole serialized SavedModel. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/pb.h"
#include "core/status_internal.h"
#include "fs/fs.h"
#include "graph/function_lib.h"
#include "graph/graph_internal.h"
#include "graph/import_internal.h"
#include "graph/saved_model_internal.h"
#include "graph/session_priv.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/tf_tstring.h"
#include "tfe/saved_model.h"

#define FN "TF_LoadSessionFromSavedModel"

static void oom(TF_Status* s) {
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, FN ": out of memory");
}

/* a + "/" + b, as TF's io::JoinPath (no doubled slash; an empty part is
 * left out). b is n bytes. */
static char* join(const char* a, const char* b, size_t n) {
  size_t na = strlen(a);
  int slash;
  char* out;
  if (n > 0 && b[0] == '/' && na > 0) {
    b++;
    n--;
  }
  slash = na > 0 && n > 0 && a[na - 1] != '/';
  out = (char*)tfe_malloc(na + (size_t)slash + n + 1);
  if (out == NULL) return NULL;
  memcpy(out, a, na);
  if (slash) out[na] = '/';
  if (n > 0) memcpy(out + na + (size_t)slash, b, n);
  out[na + (size_t)slash + n] = '\0';
  return out;
}

/* 1 exists, 0 does not (NOT_FOUND), -1 another error (in s). */
static int file_exists(const char* uri, TF_Status* s) {
  tfe_fs_exists(uri, s);
  if (TF_GetCode(s) == TF_OK) return 1;
  if (TF_GetCode(s) == TF_NOT_FOUND) {
    tfe_status_ok(s);
    return 0;
  }
  return -1;
}

/* Reads the whole file at uri through the registry. */
static unsigned char* read_all(const char* uri, size_t* len, TF_Status* s) {
  int64_t size = tfe_fs_file_size(uri, s);
  unsigned char* buf;
  tfe_raf* f;
  if (size < 0 || TF_GetCode(s) != TF_OK) return NULL;
  if ((uint64_t)size > (uint64_t)SIZE_MAX - 1) {
    oom(s);
    return NULL;
  }
  buf = (unsigned char*)tfe_malloc((size_t)size + 1);
  if (buf == NULL) {
    oom(s);
    return NULL;
  }
  f = tfe_fs_open_raf(uri, s);
  if (f == NULL) {
    tfe_free(buf);
    return NULL;
  }
  if (size > 0 &&
      tfe_fs_raf_read(f, 0, (size_t)size, (char*)buf, s) != size) {
    if (TF_GetCode(s) == TF_OK) {
      tfe_status_setf(s, TF_OUT_OF_RANGE, "Read less bytes than requested");
    }
    tfe_fs_raf_release(f);
    tfe_free(buf);
    return NULL;
  }
  tfe_fs_raf_release(f);
  tfe_status_ok(s);
  *len = (size_t)size;
  return buf;
}

/* Reads <dir>/saved_model.pb, else saved_model.pbtxt turned into the
 * binary form (TF's ReadSavedModel). */
static unsigned char* read_saved_model(const char* dir, char** path_out,
                                       size_t* len, TF_Status* s) {
  char* pb = join(dir, "saved_model.pb", 14);
  char* txt = NULL;
  unsigned char* data = NULL;
  int e;
  *path_out = NULL;
  if (pb == NULL) {
    oom(s);
    return NULL;
  }
  e = file_exists(pb, s);
  if (e > 0) {
    data = read_all(pb, len, s);
    if (data != NULL) {
      *path_out = pb;
      return data;
    }
    tfe_free(pb);
    return NULL;
  }
  tfe_free(pb);
  if (e < 0) return NULL;
  txt = join(dir, "saved_model.pbtxt", 17);
  if (txt == NULL) {
    oom(s);
    return NULL;
  }
  e = file_exists(txt, s);
  if (e > 0) {
    unsigned char* text = read_all(txt, len, s);
    if (text != NULL) {
      data = tfe_sm_text_to_binary((const char*)text, *len, txt, len, s);
      tfe_free(text);
      if (data != NULL) {
        *path_out = txt;
        return data;
      }
    }
  } else if (e == 0) {
    tfe_status_setf(s, TF_NOT_FOUND,
                    "Could not find SavedModel .pb or .pbtxt at supplied "
                    "export directory path: %s. Check that the directory "
                    "exists and that you have the right permissions for "
                    "accessing it.",
                    dir);
  }
  tfe_free(txt);
  return NULL;
}

/* TF reads <dir>/debug/saved_model_debug_info.pb when it exists (a
 * GraphDebugInfo); a damaged one fails the load. tfe does not use its
 * contents (source locations for error messages), so it is only checked. */
static int check_debug_info(const char* dir, TF_Status* s) {
  char* path = join(dir, "debug/saved_model_debug_info.pb", 31);
  unsigned char* data;
  size_t len = 0;
  int e, ok;
  if (path == NULL) {
    oom(s);
    return 0;
  }
  e = file_exists(path, s);
  if (e <= 0) {
    tfe_free(path);
    return e == 0;
  }
  if (tfe_fs_is_directory(path, s)) {
    /* TF reads a directory there as an empty message. */
    tfe_free(path);
    tfe_status_ok(s);
    return 1;
  }
  data = read_all(path, &len, s);
  ok = data != NULL && tfe_sm_check_message(data, len, path, s);
  tfe_free(data);
  tfe_free(path);
  return ok;
}

/* ------------------------------------------------------------------------
 * Runs. */

/* A NUL-terminated copy of a view. */
static char* dup_str(tfe_sm_str v) {
  return tfe_strndup(v.p != NULL ? v.p : "", v.n);
}

/* "name:3" -> (name, 3); "name" (or a suffix that is not all digits) ->
 * (name, 0), as TF's ParseTensorName. 1 found, 0 not in the graph (or no
 * such output), -1 out of memory. */
static int find_tensor(TF_Graph* g, const char* name, TF_Output* o) {
  const char* colon = strrchr(name, ':');
  o->oper = NULL;
  o->index = 0;
  if (colon != NULL && colon[1] != '\0' &&
      strspn(colon + 1, "0123456789") == strlen(colon + 1) &&
      strlen(colon + 1) <= 9) {
    char* base = tfe_strndup(name, (size_t)(colon - name));
    if (base == NULL) return -1;
    o->oper = TF_GraphOperationByName(g, base);
    o->index = atoi(colon + 1);
    tfe_free(base);
  } else {
    o->oper = TF_GraphOperationByName(g, name);
  }
  if (o->oper != NULL && o->index >= TF_OperationNumOutputs(o->oper)) {
    o->oper = NULL;
  }
  return o->oper != NULL;
}

static TF_Tensor* string_scalar(const char* v) {
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, NULL, 0, sizeof(TF_TString));
  TF_TString* ts;
  if (t == NULL) return NULL;
  ts = (TF_TString*)TF_TensorData(t);
  TF_StringInit(ts);
  TF_StringCopy(ts, v, strlen(v));
  return t;
}

typedef struct feeds {
  TF_Output* outs;
  TF_Tensor** vals;
  int n;
} feeds;

static void feeds_free(feeds* f) {
  int i;
  for (i = 0; i < f->n; i++) TF_DeleteTensor(f->vals[i]);
  tfe_free(f->outs);
  tfe_free(f->vals);
  memset(f, 0, sizeof(*f));
}

/* Adds a feed of the string `value` to tensor `name`. */
static int feeds_add(feeds* f, TF_Graph* g, const char* name,
                     const char* value, TF_Status* s) {
  TF_Output o;
  TF_Output* outs;
  TF_Tensor** vals;
  TF_Tensor* t;
  int found = find_tensor(g, name, &o);
  if (found < 0) {
    oom(s);
    return 0;
  }
  if (!found) {
    /* TF names the tensor as it parsed it: "node:index". */
    const char* colon = strrchr(name, ':');
    size_t base = strlen(name);
    long index = 0;
    if (colon != NULL && colon[1] != '\0' &&
        strspn(colon + 1, "0123456789") == strlen(colon + 1) &&
        strlen(colon + 1) <= 9) {
      base = (size_t)(colon - name);
      index = atol(colon + 1);
    }
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Tensor %.*s:%ld, specified in either feed_devices or "
                    "fetch_devices was not found in the Graph",
                    (int)base, name, index);
    return 0;
  }
  outs = (TF_Output*)tfe_realloc(f->outs, (size_t)(f->n + 1) * sizeof(*outs));
  if (outs == NULL) {
    oom(s);
    return 0;
  }
  f->outs = outs;
  vals = (TF_Tensor**)tfe_realloc(f->vals, (size_t)(f->n + 1) * sizeof(*vals));
  if (vals == NULL) {
    oom(s);
    return 0;
  }
  f->vals = vals;
  t = string_scalar(value);
  if (t == NULL) {
    oom(s);
    return 0;
  }
  f->outs[f->n] = o;
  f->vals[f->n] = t;
  f->n++;
  return 1;
}

/* The asset feeds: <dir>/assets/<filename> for every asset tensor. */
static int asset_feeds(feeds* f, TF_Graph* g, const char* dir,
                       const tfe_sm_meta* m, TF_Status* s) {
  int i;
  char* assets = join(dir, "assets", 6);
  if (assets == NULL) {
    oom(s);
    return 0;
  }
  for (i = 0; i < m->num_assets; i++) {
    const tfe_sm_asset* a = &m->assets[i];
    char* name = dup_str(a->tensor_name);
    char* path = join(assets, a->filename.p != NULL ? a->filename.p : "",
                      a->filename.n);
    int ok = name != NULL && path != NULL;
    if (!ok) {
      oom(s);
    } else {
      ok = feeds_add(f, g, name, path, s);
    }
    tfe_free(name);
    tfe_free(path);
    if (!ok) {
      tfe_free(assets);
      return 0;
    }
  }
  tfe_free(assets);
  return 1;
}

/* Runs target node `target` with the feeds (TF's RunOnce). As in TF, a
 * target may be spelled like a tensor ("name:1", "^name"): only the node
 * name counts. */
static int run_target(TF_Session* sess, const TF_Buffer* run_options,
                      const feeds* f, const char* target, TF_Status* s) {
  TF_Graph* g = sess->graph;
  const char* base = target[0] == '^' ? target + 1 : target;
  const char* colon = strrchr(base, ':');
  TF_Operation* op;
  const TF_Operation* tg[1];
  if (colon != NULL && colon[1] != '\0' &&
      strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
    char* node = tfe_strndup(base, (size_t)(colon - base));
    if (node == NULL) {
      oom(s);
      return 0;
    }
    op = TF_GraphOperationByName(g, node);
    tfe_free(node);
  } else {
    op = TF_GraphOperationByName(g, base);
  }
  if (op == NULL) {
    tfe_status_setf(s, TF_NOT_FOUND,
                    "PruneForTargets: Some target nodes not found: %s ",
                    target);
    return 0;
  }
  tg[0] = op;
  TF_SessionRun(sess, run_options, f->outs, f->vals, f->n, NULL, NULL, 0, tg,
                1, NULL, s);
  return TF_GetCode(s) == TF_OK;
}

/* Step 6 (TF's RunRestore). */
static int restore(TF_Session* sess, const TF_Buffer* run_options,
                   const char* dir, const tfe_sm_meta* m, TF_Status* s) {
  char* vdir = join(dir, "variables", 9);
  char* index = vdir != NULL ? join(vdir, "variables.index", 15) : NULL;
  char* prefix = vdir != NULL ? join(vdir, "variables", 9) : NULL;
  char* fname = dup_str(m->saver_filename_tensor);
  char* op = dup_str(m->saver_restore_op);
  feeds f;
  int ok = 0, e;
  memset(&f, 0, sizeof(f));
  if (index == NULL || prefix == NULL || fname == NULL || op == NULL) {
    oom(s);
    goto out;
  }
  e = file_exists(index, s);
  if (e < 0) goto out;
  if (e == 0) { /* no variables: nothing to restore */
    ok = 1;
    goto out;
  }
  ok = feeds_add(&f, sess->graph, fname, prefix, s) &&
       asset_feeds(&f, sess->graph, dir, m, s) &&
       run_target(sess, run_options, &f, op, s);
out:
  feeds_free(&f);
  tfe_free(vdir);
  tfe_free(index);
  tfe_free(prefix);
  tfe_free(fname);
  tfe_free(op);
  return ok;
}

/* Step 7 (TF's GetInitOp and RunInitOp). */
static int run_init(TF_Session* sess, const TF_Buffer* run_options,
                    const char* dir, const tfe_sm_meta* m, TF_Status* s) {
  tfe_sm_str name = {NULL, 0};
  char* target;
  feeds f;
  int ok;
  if (m->has_init_sig) {
    if (!m->init_sig_has_output) {
      tfe_status_setf(s, TF_FAILED_PRECONDITION,
                      "Could not find output __saved_model_init_op");
      return 0;
    }
    name = m->init_sig_name;
  } else {
    const tfe_sm_node_list* l =
        m->main_op.present ? &m->main_op : &m->legacy_op;
    if (l->present) {
      if (l->count != 1) {
        tfe_status_setf(s, TF_FAILED_PRECONDITION,
                        "Expected exactly one main op in : %s", dir);
        return 0;
      }
      name = l->first;
    }
  }
  if (name.n == 0) return 1; /* no init op */
  target = dup_str(name);
  if (target == NULL) {
    oom(s);
    return 0;
  }
  memset(&f, 0, sizeof(f));
  ok = asset_feeds(&f, sess->graph, dir, m, s) &&
       run_target(sess, run_options, &f, target, s);
  feeds_free(&f);
  tfe_free(target);
  return ok;
}

/* ------------------------------------------------------------------------
 * The entry point. */

typedef struct graph_mark {
  int num_ops;
  int num_functions;
  int producer, min_consumer;
} graph_mark;

static void mark_graph(TF_Graph* g, graph_mark* mk) {
  mk->num_ops = g->num_ops;
  mk->num_functions = g->flib != NULL ? tfe_flib_count(g->flib) : 0;
  mk->producer = g->producer;
  mk->min_consumer = g->min_consumer;
}

/* Puts the graph back as it was at `mk` (g->mu held). */
static void undo_import(TF_Graph* g, const graph_mark* mk) {
  if (g->num_ops > mk->num_ops) tfe_graph_remove_ops_from(g, mk->num_ops);
  while (g->flib != NULL && tfe_flib_count(g->flib) > mk->num_functions) {
    const TF_Function* fn =
        tfe_flib_at(g->flib, tfe_flib_count(g->flib) - 1);
    TF_Status* sink = TF_NewStatus();
    int removed = fn != NULL && sink != NULL &&
                  tfe_flib_remove(g->flib, TF_FunctionName((TF_Function*)fn),
                                  sink);
    TF_DeleteStatus(sink);
    if (!removed) break;
  }
  g->producer = mk->producer;
  g->min_consumer = mk->min_consumer;
}

static int check_args(const char* export_dir, const char* const* tags,
                      int tags_len, TF_Graph* graph,
                      const TF_Buffer* meta_graph_def, TF_Status* s) {
  int i;
  if (graph == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, FN ": graph is NULL");
    return 0;
  }
  if (export_dir == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, FN ": export_dir is NULL");
    return 0;
  }
  if (tags_len < 0 || (tags_len > 0 && tags == NULL)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    FN ": tags must be an array of tags_len strings");
    return 0;
  }
  for (i = 0; i < tags_len; i++) {
    if (tags[i] == NULL) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT, FN ": tags[%d] is NULL", i);
      return 0;
    }
  }
  if (meta_graph_def != NULL && meta_graph_def->data != NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Passing non-empty TF_Buffer is invalid.");
    return 0;
  }
  return 1;
}

static int graph_empty(TF_Graph* g, TF_Status* s) {
  int empty;
  pthread_mutex_lock(&g->mu);
  empty = g->num_ops == 0;
  pthread_mutex_unlock(&g->mu);
  if (!empty) tfe_status_setf(s, TF_INVALID_ARGUMENT, "Graph is non-empty.");
  return empty;
}

TF_Session* TF_LoadSessionFromSavedModel(
    const TF_SessionOptions* session_options, const TF_Buffer* run_options,
    const char* export_dir, const char* const* tags, int tags_len,
    TF_Graph* graph, TF_Buffer* meta_graph_def, TF_Status* status) {
  unsigned char* data = NULL;
  size_t len = 0;
  char* path = NULL;
  tfe_sm_meta m;
  TF_Session* sess = NULL;
  graph_mark mk;
  int imported = 0;
  memset(&m, 0, sizeof(m));
  if (status == NULL) return NULL;
  if (!check_args(export_dir, tags, tags_len, graph, meta_graph_def,
                  status) ||
      !graph_empty(graph, status) ||
      !tfe_session_check_run_options(run_options, status)) {
    return NULL;
  }
  data = read_saved_model(export_dir, &path, &len, status);
  if (data == NULL) return NULL;
  if (!tfe_sm_find_meta_graph(data, len, path, tags, tags_len, &m, status) ||
      !check_debug_info(export_dir, status)) {
    goto fail;
  }
  sess = tfe_session_new(graph, session_options, status);
  if (sess == NULL) goto fail;
  if (!tfe_sm_validate_graph_def(m.graph_def, m.graph_def_len, status)) {
    goto fail;
  }
  pthread_mutex_lock(&graph->mu);
  if (graph->num_ops != 0) {
    pthread_mutex_unlock(&graph->mu);
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "Graph is non-empty.");
    goto fail;
  }
  mark_graph(graph, &mk);
  imported = tfe_graph_import_locked(graph, m.graph_def, m.graph_def_len,
                                     NULL, NULL, status);
  pthread_mutex_unlock(&graph->mu);
  if (!imported) goto fail;
  if (m.has_saver_def &&
      !restore(sess, run_options, export_dir, &m, status)) {
    goto fail;
  }
  if (!run_init(sess, run_options, export_dir, &m, status)) goto fail;
  if (meta_graph_def != NULL) {
    tfe_pbw w;
    memset(&w, 0, sizeof(w));
    tfe_pbw_bytes(&w, m.bytes, m.len);
    tfe_graph_put_buffer(&w, meta_graph_def, status, FN);
    if (TF_GetCode(status) != TF_OK) goto fail;
  }
  tfe_sm_meta_free(&m);
  tfe_free(data);
  tfe_free(path);
  tfe_status_ok(status);
  return sess;
fail:
  if (sess != NULL) tfe_session_free(sess);
  if (imported) {
    pthread_mutex_lock(&graph->mu);
    undo_import(graph, &mk);
    pthread_mutex_unlock(&graph->mu);
  }
  tfe_sm_meta_free(&m);
  tfe_free(data);
  tfe_free(path);
  return NULL;
}

void TFE_ReadSavedModel(const char* export_dir, TF_Buffer* out,
                        TF_Status* status) {
  unsigned char* data;
  size_t len = 0;
  char* path = NULL;
  if (status == NULL) return;
  if (export_dir == NULL || out == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_ReadSavedModel: %s is NULL",
                    export_dir == NULL ? "export_dir" : "out");
    return;
  }
  if (out->data != NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Passing non-empty TF_Buffer is invalid.");
    return;
  }
  data = read_saved_model(export_dir, &path, &len, status);
  if (data == NULL) return;
  if (tfe_sm_check_message(data, len, path, status)) {
    tfe_pbw w;
    memset(&w, 0, sizeof(w));
    tfe_pbw_bytes(&w, data, len);
    tfe_graph_put_buffer(&w, out, status, "TFE_ReadSavedModel");
  }
  tfe_free(data);
  tfe_free(path);
}
