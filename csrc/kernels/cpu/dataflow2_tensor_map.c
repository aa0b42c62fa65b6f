/* CPU kernels: TensorMap (EmptyTensorMap, TensorMapInsert, TensorMapLookup,
 * TensorMapErase, TensorMapHasKey, TensorMapSize, TensorMapStackKeys) with
 * TensorFlow 2.21's semantics and messages.
 *
 * A map is a tfe_variant of kind TFE_VARIANT_MAP (csrc/core/variant.h)
 * held by a scalar DT_VARIANT tensor: (key, value) pairs in insertion
 * order, keys compared by dtype, shape and values as TF's TensorKey does.
 * Kernels never change an input's map: Insert and Erase build a new one
 * sharing the tensors' buffers (or reuse the input's object when nothing
 * else can see it, as TF forwards a map whose reference count is one).
 * TensorMapStackKeys stacks the keys in insertion order (TF's order is its
 * hash table's). */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tensor_internal.h"
#include "core/variant.h"
#include "kernels/cpu/kutil.h"
#include "kernels/kernel.h"
#include "tensorflow/c/tf_tstring.h"

void tfe_register_cpu_dataflow2_tensor_map_kernels(void);

/* The map held by scalar variant input i, or NULL with k->status set. */
static const tfe_variant* input_map(tfe_kernel_context* k, int i) {
  const TF_Tensor* t = k->inputs[i];
  const tfe_variant* v;
  int ok;
  char buf[256];
  if (t->num_dims != 0) {
    kutil_shape_buf sb;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input map must be a scalar. Saw: %s",
               kutil_tshape(t, &sb));
    return NULL;
  }
  v = tfe_variant_scalar(t, &ok);
  if (!ok || v == NULL || v->kind != TFE_VARIANT_MAP) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input handle is not a map. Saw: '%s'",
               tfe_variant_debug_string(ok ? v : NULL, buf, sizeof buf));
    return NULL;
  }
  return v;
}

static void set_map_output(tfe_kernel_context* k, tfe_variant* v) {
  TF_Tensor* t;
  if (v == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return;
  }
  t = tfe_variant_make_scalar(v);
  if (t == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return;
  }
  tfe_kernel_set_output(k, 0, t);
}

/* ---- TF's Tensor::SummarizeValue(100) for the "Could not find key"
 * messages ---- */

static size_t put(char* buf, size_t cap, size_t len, const char* s) {
  size_t n = strlen(s);
  if (len < cap) {
    size_t room = cap - len - 1;
    memcpy(buf + len, s, n < room ? n : room);
    buf[len + (n < room ? n : room)] = '\0';
  }
  return len + n;
}

/* Shortest of %.{6,9}g (float) or %.{15,17}g (double) that reads back. */
static void fmt_real(double v, int is_double, char* out, size_t cap) {
  int lo = is_double ? DBL_DIG : FLT_DIG, hi = is_double ? 17 : 9;
  snprintf(out, cap, "%.*g", lo, v);
  if (is_double ? (strtod(out, NULL) != v)
                : ((float)strtod(out, NULL) != (float)v)) {
    snprintf(out, cap, "%.*g", hi, v);
  }
}

static void fmt_elem(const TF_Tensor* t, int64_t i, char* out, size_t cap) {
  const void* p = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: fmt_real(((const float*)p)[i], 0, out, cap); break;
    case TF_DOUBLE: fmt_real(((const double*)p)[i], 1, out, cap); break;
    case TF_HALF:
      fmt_real(kutil_f16_to_f32(((const uint16_t*)p)[i]), 0, out, cap);
      break;
    case TF_BFLOAT16:
      fmt_real(kutil_bf16_to_f32(((const uint16_t*)p)[i]), 0, out, cap);
      break;
    case TF_STRING: {
      const TF_TString* s = &((const TF_TString*)p)[i];
      snprintf(out, cap, "%.*s", (int)TF_TString_GetSize(s),
               TF_TString_GetDataPointer(s));
      break;
    }
    case TF_BOOL: snprintf(out, cap, "%d", ((const unsigned char*)p)[i] != 0); break;
    case TF_INT8: snprintf(out, cap, "%d", ((const int8_t*)p)[i]); break;
    case TF_UINT8: snprintf(out, cap, "%u", ((const uint8_t*)p)[i]); break;
    case TF_INT16: snprintf(out, cap, "%d", ((const int16_t*)p)[i]); break;
    case TF_UINT16: snprintf(out, cap, "%u", ((const uint16_t*)p)[i]); break;
    case TF_INT32: snprintf(out, cap, "%d", ((const int32_t*)p)[i]); break;
    case TF_UINT32: snprintf(out, cap, "%u", ((const uint32_t*)p)[i]); break;
    case TF_INT64:
      snprintf(out, cap, "%lld", (long long)((const int64_t*)p)[i]);
      break;
    case TF_UINT64:
      snprintf(out, cap, "%llu", (unsigned long long)((const uint64_t*)p)[i]);
      break;
    default: snprintf(out, cap, "?"); break;
  }
}

/* Elements of dims [d..] from flat position *pos; rank > 1 nests in []. */
static size_t summarize_dim(const TF_Tensor* t, int d, int64_t* pos,
                            int64_t limit, char* buf, size_t cap,
                            size_t len) {
  int64_t i;
  char one[128];
  if (d == t->num_dims - 1 || t->num_dims == 0) {
    int64_t n = t->num_dims == 0 ? 1 : t->dims[d];
    for (i = 0; i < n; i++) {
      if (*pos >= limit) {
        return put(buf, cap, len, "...");
      }
      if (*pos > 0 && (i > 0 || t->num_dims <= 1)) len = put(buf, cap, len, " ");
      fmt_elem(t, *pos, one, sizeof one);
      len = put(buf, cap, len, one);
      (*pos)++;
    }
    return len;
  }
  for (i = 0; i < t->dims[d]; i++) {
    if (*pos >= limit) return put(buf, cap, len, "...");
    len = put(buf, cap, len, "[");
    len = summarize_dim(t, d + 1, pos, limit, buf, cap, len);
    len = put(buf, cap, len, "]");
  }
  return len;
}

static const char* summarize(const TF_Tensor* t, char* buf, size_t cap) {
  int64_t pos = 0;
  buf[0] = '\0';
  if (kutil_num_elements(t) == 0) return buf;
  summarize_dim(t, 0, &pos, 100, buf, cap, 0);
  return buf;
}

/* ---- kernels ---- */

static void k_empty(tfe_kernel_context* k) {
  set_map_output(k, tfe_variant_new_map());
}

static void k_size(tfe_kernel_context* k) {
  const tfe_variant* m = input_map(k, 0);
  TF_Tensor* o;
  if (m == NULL) return;
  o = tfe_kernel_alloc_output(k, 0, TF_INT32, NULL, 0);
  if (o != NULL) *(int32_t*)kutil_data(o) = (int32_t)(m->num_tensors / 2);
}

static void k_has_key(tfe_kernel_context* k) {
  const tfe_variant* m = input_map(k, 0);
  TF_Tensor* o;
  if (m == NULL) return;
  o = tfe_kernel_alloc_output(k, 0, TF_BOOL, NULL, 0);
  if (o != NULL) {
    *(unsigned char*)kutil_data(o) =
        (unsigned char)(tfe_variant_map_find(m, k->inputs[1]) >= 0);
  }
}

static void k_lookup(tfe_kernel_context* k) {
  const tfe_variant* m = input_map(k, 0);
  int64_t at;
  const TF_Tensor* v;
  TF_Tensor* o;
  char buf[4096];
  if (m == NULL) return;
  at = tfe_variant_map_find(m, k->inputs[1]);
  if (at < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Trying to lookup non-existent key. Could not find key "
               "\"%s\".",
               summarize(k->inputs[1], buf, sizeof buf));
    return;
  }
  v = m->tensors[2 * at + 1];
  if (v->dtype != k->output_types[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Type mismatch: actual %s vs. expect %s",
               tfe_variant_dtype_name(v->dtype),
               tfe_variant_dtype_name(k->output_types[0]));
    return;
  }
  o = tfe_tensor_share(v);
  if (o == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return;
  }
  tfe_kernel_set_output(k, 0, o);
}

/* A map to change for output 0: the input's own object when only this
 * kernel can see it (TF's forwarding of a map with one reference), else a
 * copy. NULL on OOM. */
static tfe_variant* writable_map(tfe_kernel_context* k, const tfe_variant* m) {
  tfe_variant* mv = (tfe_variant*)m;
  if ((k->forwardable & 1u) != 0 &&
      atomic_load_explicit(&mv->refcount, memory_order_acquire) == 1) {
    tfe_variant_ref(mv);
    return mv;
  }
  return tfe_variant_copy(m);
}

static void k_insert(tfe_kernel_context* k) {
  const tfe_variant* m = input_map(k, 0);
  tfe_variant* out;
  int64_t at;
  TF_Tensor* v;
  if (m == NULL) return;
  out = writable_map(k, m);
  if (out == NULL) goto oom;
  v = tfe_tensor_share(k->inputs[2]);
  if (v == NULL) goto oom_out;
  at = tfe_variant_map_find(out, k->inputs[1]);
  if (at >= 0) {
    tfe_variant_set(out, 2 * at + 1, v);
  } else {
    TF_Tensor* key = tfe_tensor_share(k->inputs[1]);
    if (key == NULL) {
      TF_DeleteTensor(v);
      goto oom_out;
    }
    if (!tfe_variant_append(out, key)) {
      TF_DeleteTensor(v);
      goto oom_out;
    }
    if (!tfe_variant_append(out, v)) {
      /* drop the key again */
      tfe_variant_resize(out, out->num_tensors - 1);
      goto oom_out;
    }
  }
  set_map_output(k, out);
  return;
oom_out:
  tfe_variant_unref(out);
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
             k->op_def->name);
}

static void k_erase(tfe_kernel_context* k) {
  const tfe_variant* m = input_map(k, 0);
  tfe_variant* out;
  int64_t at, i;
  char buf[4096];
  if (m == NULL) return;
  at = tfe_variant_map_find(m, k->inputs[1]);
  if (at < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Trying to erase non-existent item. Could not find key "
               "\"%s\".",
               summarize(k->inputs[1], buf, sizeof buf));
    return;
  }
  out = writable_map(k, m);
  if (out == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return;
  }
  TF_DeleteTensor(out->tensors[2 * at]);
  TF_DeleteTensor(out->tensors[2 * at + 1]);
  for (i = 2 * at; i + 2 < out->num_tensors; i++) {
    out->tensors[i] = out->tensors[i + 2];
  }
  out->num_tensors -= 2;
  set_map_output(k, out);
}

static void k_stack_keys(tfe_kernel_context* k) {
  const tfe_variant* m = input_map(k, 0);
  TF_DataType want = TF_INT32;
  const TF_Tensor* first;
  int64_t n, i, per;
  int64_t dims[65];
  TF_Tensor* out;
  size_t esz;
  int d;
  if (m == NULL) return;
  tfe_attrs_get_type(k->attrs, "key_dtype", &want, NULL);
  n = m->num_tensors / 2;
  if (n == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "TensorMapStackKeys cannot be called on empty map.");
    return;
  }
  first = m->tensors[0];
  if (first->num_dims > 63) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "TensorMapStackKeys: key rank too large");
    return;
  }
  for (i = 0; i < n; i++) {
    const TF_Tensor* key = m->tensors[2 * i];
    if (key->dtype != want) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Key does not match requested dtype.");
      return;
    }
    if (key->num_dims != first->num_dims) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Keys must all have the same shape.");
      return;
    }
    for (d = 0; d < key->num_dims; d++) {
      if (key->dims[d] != first->dims[d]) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Keys must all have the same shape.");
        return;
      }
    }
  }
  esz = kutil_esize(want);
  if (esz == 0) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "TensorMapStackKeys: keys of dtype %s are not supported",
               tfe_variant_dtype_name(want));
    return;
  }
  dims[0] = n;
  for (d = 0; d < first->num_dims; d++) dims[d + 1] = first->dims[d];
  out = tfe_kernel_alloc_output(k, 0, want, dims, first->num_dims + 1);
  if (out == NULL) return;
  per = kutil_num_elements(first);
  if (per == 0) return;
  for (i = 0; i < n; i++) {
    kutil_copy(want, (char*)kutil_data(out) + (size_t)(i * per) * esz,
               kutil_data(m->tensors[2 * i]), per);
  }
}

void tfe_register_cpu_dataflow2_tensor_map_kernels(void) {
  tfe_kutil_register("EmptyTensorMap", k_empty, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("TensorMapSize", k_size, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("TensorMapHasKey", k_has_key, NULL, NULL, 0, NULL, NULL,
                     0);
  tfe_kutil_register("TensorMapLookup", k_lookup, NULL, NULL, 0, NULL, NULL,
                     0);
  tfe_kutil_register("TensorMapInsert", k_insert, NULL, NULL, 0, NULL, NULL,
                     0);
  tfe_kutil_register("TensorMapErase", k_erase, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("TensorMapStackKeys", k_stack_keys, NULL, NULL, 0, NULL,
                     NULL, 0);
}
