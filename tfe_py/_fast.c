/* tfe_py's dispatch glue: one C call per op execution from Python.
 *
 * build_ffi.py includes this file in the cffi extension's source, after the
 * public headers; see _fast.h for the contract of each function. Only the
 * public TF_* / TFE_* API is used, so the glue works against any runtime
 * implementing TensorFlow's eager C API. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

#include "_fast.h"

#define TFE_PY_FAST_ABI 1

/* This thread's failure that nobody has taken yet. */
static _Thread_local TF_Status* tfe_py_pending_error = NULL;

int tfe_py_fast_abi(void) { return TFE_PY_FAST_ABI; }

TF_Status* tfe_py_take_error(void) {
  TF_Status* s = tfe_py_pending_error;
  tfe_py_pending_error = NULL;
  return s;
}

/* Keeps `s` (a failed status) for tfe_py_take_error. */
static void tfe_py_keep_error(TF_Status* s) {
  if (tfe_py_pending_error != NULL) TF_DeleteStatus(tfe_py_pending_error);
  tfe_py_pending_error = s;
}

/* A status for a failure that happened before any status existed (out of
 * memory). Returns NULL only if even that allocation fails. */
static TF_Status* tfe_py_new_error(TF_Code code, const char* msg) {
  TF_Status* s = TF_NewStatus();
  if (s != NULL) TF_SetStatus(s, code, msg);
  return s;
}

/* ---- attribute blob ---- */

typedef struct tfe_py_reader {
  const unsigned char* p;
  const unsigned char* end;
} tfe_py_reader;

static int rd_bytes(tfe_py_reader* r, void* out, size_t n) {
  if ((size_t)(r->end - r->p) < n) return 0;
  if (n != 0) memcpy(out, r->p, n);
  r->p += n;
  return 1;
}

/* Borrows n bytes in place (no copy). */
static int rd_view(tfe_py_reader* r, const unsigned char** out, size_t n) {
  if ((size_t)(r->end - r->p) < n) return 0;
  *out = r->p;
  r->p += n;
  return 1;
}

static int rd_u32(tfe_py_reader* r, uint32_t* v) {
  return rd_bytes(r, v, sizeof *v);
}

static int rd_i32(tfe_py_reader* r, int32_t* v) {
  return rd_bytes(r, v, sizeof *v);
}

/* Count of list elements, refusing counts the remaining bytes cannot hold
 * (each element needs at least `min_size` bytes) so allocations stay
 * bounded by the blob's size. */
static int rd_count(tfe_py_reader* r, size_t min_size, uint32_t* n) {
  if (!rd_u32(r, n)) return 0;
  if (*n > (uint32_t)INT32_MAX) return 0;
  if (min_size != 0 && (size_t)(r->end - r->p) / min_size < (size_t)*n) {
    return 0;
  }
  return 1;
}

static void bad_blob(TF_Status* s, const char* op_name, const char* what) {
  char msg[256];
  (void)snprintf(msg, sizeof msg,
                 "tfe_py: malformed attribute data for op '%s' (%s)",
                 op_name != NULL ? op_name : "?", what);
  TF_SetStatus(s, TF_INVALID_ARGUMENT, msg);
}

/* Reads one shape (i32 rank + dims) into a freshly malloc'd array; *dims is
 * NULL for rank <= 0. */
static int rd_shape(tfe_py_reader* r, int32_t* rank, int64_t** dims) {
  *dims = NULL;
  if (!rd_i32(r, rank) || *rank < -1) return 0;
  if (*rank <= 0) return 1;
  if ((size_t)(r->end - r->p) / sizeof(int64_t) < (size_t)*rank) return 0;
  *dims = (int64_t*)malloc((size_t)*rank * sizeof(int64_t));
  if (*dims == NULL) return 0;
  return rd_bytes(r, *dims, (size_t)*rank * sizeof(int64_t));
}

static int set_list_attr(TFE_Op* op, const char* name, char kind,
                         tfe_py_reader* r, const char* op_name, TF_Status* s) {
  uint32_t n = 0;
  size_t esize = kind == 'B' ? 1 : kind == 'T' ? 4 : 8;
  if (!rd_count(r, esize, &n)) {
    bad_blob(s, op_name, "list length");
    return 0;
  }
  void* buf = malloc(n != 0 ? (size_t)n * 8 : 1);
  if (buf == NULL) {
    TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "tfe_py: out of memory");
    return 0;
  }
  int ok = 1;
  for (uint32_t i = 0; i < n && ok; ++i) {
    if (kind == 'B') {
      uint8_t v;
      ok = rd_bytes(r, &v, 1);
      ((unsigned char*)buf)[i] = v;
    } else if (kind == 'I') {
      ok = rd_bytes(r, (int64_t*)buf + i, 8);
    } else if (kind == 'F') {
      double v;
      ok = rd_bytes(r, &v, 8);
      ((float*)buf)[i] = (float)v;
    } else {
      int32_t v;
      ok = rd_i32(r, &v);
      ((TF_DataType*)buf)[i] = (TF_DataType)v;
    }
  }
  if (!ok) {
    bad_blob(s, op_name, "list value");
  } else if (kind == 'B') {
    TFE_OpSetAttrBoolList(op, name, (const unsigned char*)buf, (int)n);
  } else if (kind == 'I') {
    TFE_OpSetAttrIntList(op, name, (const int64_t*)buf, (int)n);
  } else if (kind == 'F') {
    TFE_OpSetAttrFloatList(op, name, (const float*)buf, (int)n);
  } else {
    TFE_OpSetAttrTypeList(op, name, (const TF_DataType*)buf, (int)n);
  }
  free(buf);
  return ok;
}

static int set_string_list_attr(TFE_Op* op, const char* name, tfe_py_reader* r,
                                const char* op_name, TF_Status* s) {
  uint32_t n = 0;
  if (!rd_count(r, 4, &n)) {
    bad_blob(s, op_name, "string list length");
    return 0;
  }
  const void** values = (const void**)malloc((n != 0 ? n : 1) * sizeof(void*));
  size_t* lengths = (size_t*)malloc((n != 0 ? n : 1) * sizeof(size_t));
  int ok = values != NULL && lengths != NULL;
  if (!ok) TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "tfe_py: out of memory");
  for (uint32_t i = 0; i < n && ok; ++i) {
    uint32_t len = 0;
    const unsigned char* data = NULL;
    ok = rd_u32(r, &len) && rd_view(r, &data, len);
    if (!ok) bad_blob(s, op_name, "string list value");
    values[i] = data;
    lengths[i] = len;
  }
  if (ok) TFE_OpSetAttrStringList(op, name, values, lengths, (int)n);
  free(values);
  free(lengths);
  return ok;
}

/* A list(func) attr from length-prefixed function names ("N"): each name
 * becomes a TFE_Op naming the function, the form TFE_OpSetAttrFunctionList
 * takes; the functions must be registered in the op's context. */
static int set_func_list_attr(TFE_Op* op, const char* name, tfe_py_reader* r,
                              const char* op_name, TF_Status* s) {
  uint32_t n = 0;
  if (!rd_count(r, 4, &n)) {
    bad_blob(s, op_name, "function list length");
    return 0;
  }
  TFE_Context* ctx = TFE_OpGetContext(op, s);
  if (ctx == NULL) return 0;
  TFE_Op** fns = (TFE_Op**)calloc(n != 0 ? n : 1, sizeof(TFE_Op*));
  int ok = fns != NULL;
  if (!ok) TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "tfe_py: out of memory");
  for (uint32_t i = 0; i < n && ok; ++i) {
    uint32_t len = 0;
    const unsigned char* data = NULL;
    ok = rd_u32(r, &len) && rd_view(r, &data, len);
    if (!ok) {
      bad_blob(s, op_name, "function list value");
      break;
    }
    char* fname = (char*)malloc((size_t)len + 1);
    if (fname == NULL) {
      TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "tfe_py: out of memory");
      ok = 0;
      break;
    }
    memcpy(fname, data, len);
    fname[len] = '\0';
    fns[i] = TFE_NewOp(ctx, fname, s);
    free(fname);
    ok = fns[i] != NULL && TF_GetCode(s) == TF_OK;
  }
  if (ok) TFE_OpSetAttrFunctionList(op, name, (const TFE_Op**)fns, (int)n);
  for (uint32_t i = 0; fns != NULL && i < n; ++i) TFE_DeleteOp(fns[i]);
  free(fns);
  return ok;
}

static int set_shape_list_attr(TFE_Op* op, const char* name, tfe_py_reader* r,
                               const char* op_name, TF_Status* s) {
  uint32_t n = 0;
  if (!rd_count(r, 4, &n)) {
    bad_blob(s, op_name, "shape list length");
    return 0;
  }
  size_t cap = n != 0 ? n : 1;
  int64_t** dims = (int64_t**)calloc(cap, sizeof(int64_t*));
  int* ranks = (int*)calloc(cap, sizeof(int));
  int ok = dims != NULL && ranks != NULL;
  if (!ok) TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "tfe_py: out of memory");
  for (uint32_t i = 0; i < n && ok; ++i) {
    int32_t rank = 0;
    ok = rd_shape(r, &rank, &dims[i]);
    if (!ok) bad_blob(s, op_name, "shape list value");
    ranks[i] = rank;
  }
  if (ok) {
    TFE_OpSetAttrShapeList(op, name, (const int64_t**)dims, ranks, (int)n, s);
  }
  for (uint32_t i = 0; dims != NULL && i < n; ++i) free(dims[i]);
  free(dims);
  free(ranks);
  return ok && TF_GetCode(s) == TF_OK;
}

/* Applies every record of the blob to `op`. */
static int set_attrs(TFE_Op* op, const char* blob, size_t len,
                     const char* op_name, TF_Status* s) {
  tfe_py_reader r = {(const unsigned char*)blob,
                     (const unsigned char*)blob + len};
  char name_buf[256];
  while (r.p < r.end) {
    uint8_t kind;
    uint16_t name_len;
    const unsigned char* name_src = NULL;
    if (!rd_bytes(&r, &kind, 1) || !rd_bytes(&r, &name_len, 2) ||
        name_len == 0 || name_len >= sizeof name_buf ||
        !rd_view(&r, &name_src, name_len)) {
      bad_blob(s, op_name, "attribute name");
      return 0;
    }
    memcpy(name_buf, name_src, name_len);
    name_buf[name_len] = '\0';
    const char* name = name_buf;
    switch (kind) {
      case 'b': {
        uint8_t v;
        if (!rd_bytes(&r, &v, 1)) goto bad;
        TFE_OpSetAttrBool(op, name, v ? 1 : 0);
        break;
      }
      case 'i': {
        int64_t v;
        if (!rd_bytes(&r, &v, 8)) goto bad;
        TFE_OpSetAttrInt(op, name, v);
        break;
      }
      case 'f': {
        double v;
        if (!rd_bytes(&r, &v, 8)) goto bad;
        TFE_OpSetAttrFloat(op, name, (float)v);
        break;
      }
      case 't': {
        int32_t v;
        if (!rd_i32(&r, &v)) goto bad;
        TFE_OpSetAttrType(op, name, (TF_DataType)v);
        break;
      }
      case 's':
      case 'n': {
        uint32_t n;
        const unsigned char* data = NULL;
        if (!rd_u32(&r, &n) || !rd_view(&r, &data, n)) goto bad;
        if (kind == 's') {
          TFE_OpSetAttrString(op, name, data, n);
        } else {
          TFE_OpSetAttrFunctionName(op, name, (const char*)data, n);
        }
        break;
      }
      case 'S': {
        int32_t rank = 0;
        int64_t* dims = NULL;
        if (!rd_shape(&r, &rank, &dims)) {
          free(dims);
          goto bad;
        }
        TFE_OpSetAttrShape(op, name, dims, rank, s);
        free(dims);
        if (TF_GetCode(s) != TF_OK) return 0;
        break;
      }
      case 'B':
      case 'I':
      case 'F':
      case 'T':
        if (!set_list_attr(op, name, (char)kind, &r, op_name, s)) return 0;
        break;
      case 'L':
        if (!set_string_list_attr(op, name, &r, op_name, s)) return 0;
        break;
      case 'P':
        if (!set_shape_list_attr(op, name, &r, op_name, s)) return 0;
        break;
      case 'N':
        if (!set_func_list_attr(op, name, &r, op_name, s)) return 0;
        break;
      case 'X': {
        uint64_t addr;
        if (!rd_bytes(&r, &addr, 8) || addr == 0) goto bad;
        TFE_OpSetAttrTensor(op, name, (TF_Tensor*)(uintptr_t)addr, s);
        if (TF_GetCode(s) != TF_OK) return 0;
        break;
      }
      default:
        bad_blob(s, op_name, "unknown attribute kind");
        return 0;
    }
  }
  return 1;
bad:
  bad_blob(s, op_name, "attribute value");
  return 0;
}

/* ---- execution ---- */

/* Creates the op, sets device, inputs and attrs, executes. Returns the
 * number of outputs or -1; `s` holds the outcome. */
static int run_op(TFE_Context* ctx, const char* op_name, const char* device,
                  const char* attrs, size_t attrs_len,
                  TFE_TensorHandle* const* inputs, const int* arg_lengths,
                  int num_args, TFE_TensorHandle** outputs, int max_outputs,
                  TF_Status* s) {
  const char* bad = NULL;
  if (op_name == NULL) {
    bad = "op_name is NULL";
  } else if (ctx == NULL) {
    bad = "the context is NULL (closed?)";
  } else if (outputs == NULL || max_outputs < 0) {
    bad = "no room for outputs (NULL array or negative capacity)";
  } else if (num_args < 0 || (num_args > 0 && inputs == NULL)) {
    bad = "no input array";
  } else if (attrs_len > 0 && attrs == NULL) {
    bad = "attribute data is NULL";
  }
  if (bad != NULL) {
    char msg[256];
    (void)snprintf(msg, sizeof msg, "tfe_py_fast_execute: op '%s': %s",
                   op_name != NULL ? op_name : "?", bad);
    TF_SetStatus(s, TF_INVALID_ARGUMENT, msg);
    return -1;
  }
  TFE_Op* op = TFE_NewOp(ctx, op_name, s);
  if (op == NULL || TF_GetCode(s) != TF_OK) {
    if (TF_GetCode(s) == TF_OK) {
      TF_SetStatus(s, TF_INTERNAL, "TFE_NewOp returned NULL");
    }
    TFE_DeleteOp(op);
    return -1;
  }
  int n = -1;
  if (device != NULL && device[0] != '\0') {
    TFE_OpSetDevice(op, device, s);
    if (TF_GetCode(s) != TF_OK) goto done;
  }
  /* Attrs first: the first value an attr gets is kept (see _fast.h). */
  if (attrs_len > 0 && !set_attrs(op, attrs, attrs_len, op_name, s)) goto done;
  size_t pos = 0;
  for (int i = 0; i < num_args; ++i) {
    int len = arg_lengths != NULL ? arg_lengths[i] : -1;
    if (len < 0) {
      if (inputs[pos] == NULL) {
        char msg[200];
        (void)snprintf(msg, sizeof msg,
                       "tfe_py: input %d of op '%s' is a closed tensor", i,
                       op_name);
        TF_SetStatus(s, TF_INVALID_ARGUMENT, msg);
        goto done;
      }
      TFE_OpAddInput(op, inputs[pos], s);
      pos += 1;
    } else {
      for (int k = 0; k < len; ++k) {
        if (inputs[pos + (size_t)k] == NULL) {
          char msg[200];
          (void)snprintf(msg, sizeof msg,
                         "tfe_py: element %d of list input %d of op '%s' is a "
                         "closed tensor",
                         k, i, op_name);
          TF_SetStatus(s, TF_INVALID_ARGUMENT, msg);
          goto done;
        }
      }
      TFE_OpAddInputList(op, (TFE_TensorHandle**)(inputs + pos), len, s);
      pos += (size_t)len;
    }
    if (TF_GetCode(s) != TF_OK) goto done;
  }
  int num = max_outputs;
  TFE_Execute(op, outputs, &num, s);
  if (TF_GetCode(s) == TF_OK) n = num;
done:
  TFE_DeleteOp(op);
  return n;
}

int tfe_py_fast_execute(TFE_Context* ctx, const char* op_name,
                        const char* device, const char* attrs,
                        size_t attrs_len, TFE_TensorHandle* const* inputs,
                        const int* arg_lengths, int num_args,
                        TFE_TensorHandle** outputs, int max_outputs) {
  TF_Status* s = TF_NewStatus();
  if (s == NULL) {
    tfe_py_keep_error(
        tfe_py_new_error(TF_RESOURCE_EXHAUSTED, "tfe_py: out of memory"));
    return -1;
  }
  int n = run_op(ctx, op_name, device, attrs, attrs_len, inputs, arg_lengths,
                 num_args, outputs, max_outputs, s);
  if (n < 0) {
    tfe_py_keep_error(s);
    return -1;
  }
  TF_DeleteStatus(s);
  return n;
}

/* The one output of a run with room for one, or NULL with an error kept:
 * a run that succeeded with no output (a misbehaving device) is an error
 * too, so a NULL return always comes with a status (or with none only when
 * not even that could be allocated). */
static TFE_TensorHandle* single_output(int n, TFE_TensorHandle* out,
                                       const char* fn, const char* op_name) {
  char msg[256];
  if (n == 1) return out;
  if (n < 0) return NULL; /* the error is kept already */
  if (n > 1) {
    /* Cannot happen with max_outputs 1, but never leak a handle. */
    TFE_DeleteTensorHandle(out);
    (void)snprintf(msg, sizeof msg, "%s: op '%s' has more than one output",
                   fn, op_name != NULL ? op_name : "?");
  } else {
    (void)snprintf(msg, sizeof msg,
                   "%s: op '%s' succeeded without producing its output", fn,
                   op_name != NULL ? op_name : "?");
  }
  tfe_py_keep_error(tfe_py_new_error(TF_INTERNAL, msg));
  return NULL;
}

TFE_TensorHandle* tfe_py_fast_execute1(TFE_Context* ctx, const char* op_name,
                                       const char* device, const char* attrs,
                                       size_t attrs_len, TFE_TensorHandle* x) {
  TFE_TensorHandle* out = NULL;
  int n = tfe_py_fast_execute(ctx, op_name, device, attrs, attrs_len, &x, NULL,
                              1, &out, 1);
  return single_output(n, out, "tfe_py_fast_execute1", op_name);
}

TFE_TensorHandle* tfe_py_fast_execute2(TFE_Context* ctx, const char* op_name,
                                       const char* device, const char* attrs,
                                       size_t attrs_len, TFE_TensorHandle* x,
                                       TFE_TensorHandle* y) {
  TFE_TensorHandle* in[2] = {x, y};
  TFE_TensorHandle* out = NULL;
  int n = tfe_py_fast_execute(ctx, op_name, device, attrs, attrs_len, in, NULL,
                              2, &out, 1);
  return single_output(n, out, "tfe_py_fast_execute2", op_name);
}

TFE_TensorHandle* tfe_py_new_handle(TF_DataType dtype, const int64_t* dims,
                                    int num_dims, const void* data,
                                    size_t nbytes) {
  TF_Status* s = TF_NewStatus();
  if (s == NULL) {
    tfe_py_keep_error(
        tfe_py_new_error(TF_RESOURCE_EXHAUSTED, "tfe_py: out of memory"));
    return NULL;
  }
  if (dtype == TF_STRING || num_dims < 0 || (num_dims > 0 && dims == NULL) ||
      (nbytes > 0 && data == NULL)) {
    TF_SetStatus(s, TF_INVALID_ARGUMENT, "tfe_py_new_handle: invalid arguments");
    tfe_py_keep_error(s);
    return NULL;
  }
  TF_Tensor* t = TF_AllocateTensor(dtype, dims, num_dims, nbytes);
  if (t == NULL) {
    TF_SetStatus(s, TF_RESOURCE_EXHAUSTED,
                 "tfe_py_new_handle: TF_AllocateTensor failed");
    tfe_py_keep_error(s);
    return NULL;
  }
  if (TF_TensorByteSize(t) != nbytes) {
    TF_DeleteTensor(t);
    TF_SetStatus(s, TF_INVALID_ARGUMENT,
                 "tfe_py_new_handle: byte size does not match the shape");
    tfe_py_keep_error(s);
    return NULL;
  }
  if (nbytes > 0) memcpy(TF_TensorData(t), data, nbytes);
  TFE_TensorHandle* h = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t); /* the handle holds its own reference */
  if (h == NULL || TF_GetCode(s) != TF_OK) {
    TFE_DeleteTensorHandle(h);
    if (TF_GetCode(s) == TF_OK) {
      TF_SetStatus(s, TF_INTERNAL, "TFE_NewTensorHandle returned NULL");
    }
    tfe_py_keep_error(s);
    return NULL;
  }
  TF_DeleteStatus(s);
  return h;
}
