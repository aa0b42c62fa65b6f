/* CPU kernels: the checkpoint ops SaveV2, RestoreV2, MergeV2Checkpoints
 * (V2 "tensor bundle" format) and Save, SaveSlices, Restore, RestoreSlice
 * (V1 format), with TensorFlow 2.21's checks, codes and messages. The
 * formats are in csrc/graph/checkpoint_*.c (see checkpoint_ops.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "fs/fs.h"
#include "graph/checkpoint_ops.h"
#include "kernels/cpu/io_kernels.h"
#include "kernels/cpu/kutil.h"
#include "tensorflow/c/tf_tstring.h"

static const char* pbw_cstr(tfe_pbw* b) {
  tfe_pbw_bytes(b, "", 1);
  return b->oom || b->data == NULL ? "" : (const char*)b->data;
}

static void oom(tfe_kernel_context* k) {
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s", k->op_def->name);
}

static int same_dims(const int64_t* a, int na, const TF_Tensor* t) {
  int i;
  if (na != t->num_dims) return 0;
  for (i = 0; i < na; i++)
    if (a[i] != t->dims[i]) return 0;
  return 1;
}

/* TF's ValidateInputs of SaveV2 / RestoreV2. */
static int validate_v2(tfe_kernel_context* k, int is_save) {
  const TF_Tensor* prefix = k->inputs[0];
  const TF_Tensor* names = k->inputs[1];
  const TF_Tensor* sas = k->inputs[2];
  int64_t n = kutil_num_elements(names);
  kutil_shape_buf a, b;
  if (kutil_num_elements(prefix) != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input prefix should have a single element, got %lld instead.",
               (long long)kutil_num_elements(prefix));
    return 0;
  }
  if (names->num_dims != 1 || sas->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input tensor_names and shape_and_slices should be an 1-D "
               "tensors, got %s and %s instead.",
               kutil_tshape(names, &a), kutil_tshape(sas, &b));
    return 0;
  }
  if (n != kutil_num_elements(sas)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "tensor_names and shape_and_slices have different number of "
               "elements: %lld vs. %lld",
               (long long)n, (long long)kutil_num_elements(sas));
    return 0;
  }
  if (n + 3 >= INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Too many inputs to the op");
    return 0;
  }
  if (is_save && k->num_inputs != n + 3) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Got %lld tensor names but %d tensors.",
               (long long)n, k->num_inputs - 3);
    return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------------
 * SaveV2. */

static void save_v2_compute(tfe_kernel_context* k) {
  char* prefix;
  tfe_bundle_writer* w;
  int64_t n, i;
  if (!validate_v2(k, 1)) return;
  n = kutil_num_elements(k->inputs[1]);
  prefix = tfe_io_cstr(k->inputs[0], 0);
  if (prefix == NULL) {
    oom(k);
    return;
  }
  w = tfe_bundle_writer_new(prefix, k->status);
  tfe_free(prefix);
  if (w == NULL) return;
  for (i = 0; i < n; i++) {
    const TF_TString* name = tfe_io_str(k->inputs[1], i);
    const TF_TString* spec = tfe_io_str(k->inputs[2], i);
    const TF_Tensor* t = k->inputs[3 + i];
    int ok;
    if (TF_TString_GetSize(spec) > 0) {
      int64_t *full = NULL, *sdims = NULL;
      int rank;
      tfe_tslice sl;
      if (!tfe_parse_shape_and_slice(TF_TString_GetDataPointer(spec),
                                     TF_TString_GetSize(spec), &full, &rank,
                                     &sl, &sdims, k->status))
        break;
      if (!same_dims(sdims, rank, t)) {
        kutil_shape_buf b;
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Slice in shape_and_slice specification does not match the "
                   "shape of the tensor to  save: %.*s, tensor: %s",
                   (int)TF_TString_GetSize(spec),
                   TF_TString_GetDataPointer(spec), kutil_tshape(t, &b));
        ok = 0;
      } else {
        ok = tfe_bundle_writer_add_slice(w, TF_TString_GetDataPointer(name),
                                         TF_TString_GetSize(name), full, rank,
                                         &sl, t, k->status);
      }
      tfe_free(full);
      tfe_free(sdims);
      tfe_tslice_free(&sl);
    } else {
      ok = tfe_bundle_writer_add(w, TF_TString_GetDataPointer(name),
                                 TF_TString_GetSize(name), t, k->status);
    }
    if (!ok) break;
  }
  if (KUTIL_OK(k)) tfe_bundle_writer_finish(w, k->status);
  tfe_bundle_writer_free(w);
}

/* ------------------------------------------------------------------------
 * V1 restores (Restore, RestoreSlice and RestoreV2's fallback). */

/* Dtypes V1 restores (TF_CALL_SAVE_RESTORE_TYPES). */
static int v1_restore_type(TF_DataType dt) {
  switch (dt) {
    case TF_UINT64: case TF_INT64: case TF_UINT32: case TF_UINT16:
    case TF_INT16: case TF_UINT8: case TF_INT8: case TF_INT32:
    case TF_HALF: case TF_FLOAT: case TF_DOUBLE: case TF_COMPLEX64:
    case TF_COMPLEX128: case TF_QINT8: case TF_QUINT8: case TF_QINT32:
    case TF_BOOL: case TF_STRING:
      return 1;
    default:
      return 0;
  }
}

/* TF's RestoreTensor: output `index` from tensor_names[index] (and
 * shape_and_slices[index] when restore_slice). `reader` may be NULL (it is
 * opened then; *reader keeps it for later calls). */
static int restore_tensor(tfe_kernel_context* k, tfe_v1_reader** reader,
                          int restore_slice, int index) {
  const TF_Tensor* pat = k->inputs[0];
  const TF_Tensor* names = k->inputs[1];
  const TF_TString* name;
  TF_DataType saved_type, want = k->output_types[index];
  const int64_t* saved_dims;
  int saved_rank;
  int64_t *out_dims = NULL, *full = NULL;
  int out_rank, rank = 0, ok = 0;
  tfe_tslice slice = {0, NULL};
  TF_Tensor* out;
  char* pattern;
  if (kutil_num_elements(pat) != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input 0 (file_pattern) must be a string scalar; got a tensor "
               "of %lld elements",
               (long long)kutil_num_elements(pat));
    return 0;
  }
  if (kutil_num_elements(names) <= index) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input 1 (file_pattern) must be a have at least %d elements",
               index + 1);
    return 0;
  }
  if (restore_slice && kutil_num_elements(k->inputs[2]) <= index) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected %d elements for the tensor shape and slice but got "
               "%lld",
               index + 1, (long long)kutil_num_elements(k->inputs[2]));
    return 0;
  }
  name = tfe_io_str(names, index);
  pattern = tfe_io_cstr(pat, 0);
  if (pattern == NULL) {
    oom(k);
    return 0;
  }
  if (*reader == NULL) {
    *reader = tfe_v1_reader_open(pattern, k->status);
    if (*reader == NULL) {
      tfe_free(pattern);
      return 0;
    }
  }
  if (!tfe_v1_reader_has(*reader, TF_TString_GetDataPointer(name),
                         TF_TString_GetSize(name), &saved_type, &saved_dims,
                         &saved_rank)) {
    KUTIL_FAIL(k, TF_NOT_FOUND,
               "Tensor name \"%.*s\" not found in checkpoint files %s",
               (int)TF_TString_GetSize(name), TF_TString_GetDataPointer(name),
               pattern);
    tfe_free(pattern);
    return 0;
  }
  tfe_free(pattern);
  if (saved_type != want) {
    /* TF names output 0's dtype here, whatever the index. */
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected to restore a tensor of type %s, got a tensor of type "
               "%s instead: tensor_name = %.*s",
               tfe_ckpt_dtype_name(k->output_types[0]),
               tfe_ckpt_dtype_name(saved_type), (int)TF_TString_GetSize(name),
               TF_TString_GetDataPointer(name));
    return 0;
  }
  if (restore_slice &&
      TF_TString_GetSize(tfe_io_str(k->inputs[2], index)) > 0) {
    const TF_TString* spec = tfe_io_str(k->inputs[2], index);
    if (!tfe_parse_shape_and_slice(TF_TString_GetDataPointer(spec),
                                   TF_TString_GetSize(spec), &full, &rank,
                                   &slice, &out_dims, k->status))
      return 0;
    out_rank = rank;
    if (rank != saved_rank ||
        (rank > 0 && memcmp(full, saved_dims, (size_t)rank * sizeof(int64_t)) != 0)) {
      tfe_pbw a = {0}, b = {0};
      tfe_ckpt_shape_str(full, rank, &a);
      tfe_ckpt_shape_str(saved_dims, saved_rank, &b);
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Shape in shape_and_slice spec does not match the shape in "
                 "the save file: %s, save file shape: %s",
                 pbw_cstr(&a), pbw_cstr(&b));
      tfe_pbw_free(&a);
      tfe_pbw_free(&b);
      goto done;
    }
  } else {
    if (!tfe_tslice_init_full(&slice, saved_rank)) {
      oom(k);
      goto done;
    }
    out_rank = saved_rank;
    if (saved_rank > 0) {
      out_dims = (int64_t*)tfe_malloc((size_t)saved_rank * sizeof(int64_t));
      if (out_dims == NULL) {
        oom(k);
        goto done;
      }
      memcpy(out_dims, saved_dims, (size_t)saved_rank * sizeof(int64_t));
    }
  }
  out = tfe_kernel_alloc_output(k, index, saved_type, out_dims, out_rank);
  if (out == NULL) goto done;
  if (kutil_num_elements(out) == 0) {
    ok = 1;
    goto done;
  }
  if (!v1_restore_type(saved_type)) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Restoring data type %s not yet supported",
               tfe_ckpt_dtype_name(saved_type));
    goto done;
  }
  ok = tfe_v1_reader_copy(*reader, TF_TString_GetDataPointer(name),
                          TF_TString_GetSize(name), &slice, out, k->status);
done:
  tfe_free(full);
  tfe_free(out_dims);
  tfe_tslice_free(&slice);
  return ok;
}

static int preferred_shard_ok(tfe_kernel_context* k) {
  int32_t v;
  if (!kutil_attr_int32(k, "preferred_shard", -1, &v)) return 0;
  if (v < -1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Attribute 'preferred_shard' must be greater or equal to -1");
    return 0;
  }
  return 1;
}

static void restore_compute(tfe_kernel_context* k) {
  tfe_v1_reader* r = NULL;
  if (!preferred_shard_ok(k)) return;
  restore_tensor(k, &r, 0, 0);
  tfe_v1_reader_free(r);
}

static void restore_slice_compute(tfe_kernel_context* k) {
  tfe_v1_reader* r = NULL;
  if (!preferred_shard_ok(k)) return;
  restore_tensor(k, &r, 1, 0);
  tfe_v1_reader_free(r);
}

/* ------------------------------------------------------------------------
 * RestoreV2. */

static void restore_v2_compute(tfe_kernel_context* k) {
  int64_t n = kutil_num_elements(k->inputs[1]), i;
  char* prefix;
  char* index;
  tfe_strvec m = {NULL, 0, 0};
  tfe_bundle_reader* r;
  tfe_pbw mismatched = {0};
  int nmis = 0;
  if (n != k->num_outputs) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Got %lld tensor names, but %d expected dtypes.", (long long)n,
               k->num_outputs);
    return;
  }
  if (!validate_v2(k, 0)) return;
  prefix = tfe_io_cstr(k->inputs[0], 0);
  index = prefix != NULL ? tfe_ckpt_index_filename(prefix) : NULL;
  if (index == NULL) {
    tfe_free(prefix);
    oom(k);
    return;
  }
  {
    TF_Status st;
    tfe_scratch_init(&st);
    tfe_fs_glob(index, &m, &st);
    if (st.code != TF_OK) m.count = 0;
    tfe_scratch_release(&st);
  }
  tfe_free(index);
  if (m.count == 0) {
    /* Not a V2 checkpoint: read it as V1. */
    tfe_v1_reader* v1 = NULL;
    tfe_strvec_free(&m);
    tfe_free(prefix);
    for (i = 0; i < n; i++) {
      if (!restore_tensor(k, &v1, 1, (int)i)) break;
    }
    tfe_v1_reader_free(v1);
    return;
  }
  tfe_strvec_free(&m);
  r = tfe_bundle_reader_open(prefix, k->status);
  tfe_free(prefix);
  if (r == NULL) return;
  /* Every name must exist, with the dtype asked for (all mismatches are
   * reported together, as TF does). */
  for (i = 0; i < n; i++) {
    const TF_TString* name = tfe_io_str(k->inputs[1], i);
    TF_DataType dt;
    int64_t* dims = NULL;
    int rank;
    if (!tfe_bundle_reader_meta(r, TF_TString_GetDataPointer(name),
                                TF_TString_GetSize(name), &dt, &dims, &rank,
                                k->status))
      goto done;
    tfe_free(dims);
    if (dt != k->output_types[i]) {
      char buf[512];
      snprintf(buf, sizeof buf,
               "%stensor_name = %.*s; expected dtype %s does not equal "
               "original dtype %s",
               nmis ? "\n" : "", (int)TF_TString_GetSize(name),
               TF_TString_GetDataPointer(name),
               tfe_ckpt_dtype_name(k->output_types[i]),
               tfe_ckpt_dtype_name(dt));
      tfe_pbw_bytes(&mismatched, buf, strlen(buf));
      nmis++;
    }
  }
  if (nmis > 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s", pbw_cstr(&mismatched));
    goto done;
  }
  for (i = 0; i < n; i++) {
    const TF_TString* name = tfe_io_str(k->inputs[1], i);
    const TF_TString* spec = tfe_io_str(k->inputs[2], i);
    const char* np = TF_TString_GetDataPointer(name);
    size_t nl = TF_TString_GetSize(name);
    TF_DataType dt;
    int64_t* dims = NULL;
    int rank, ok;
    TF_Tensor* out;
    if (!tfe_bundle_reader_meta(r, np, nl, &dt, &dims, &rank, k->status))
      goto done;
    if (TF_TString_GetSize(spec) == 0) {
      out = tfe_kernel_alloc_output(k, (int)i, dt, dims, rank);
      ok = out != NULL && tfe_bundle_reader_read(r, np, nl, NULL, out, k->status);
    } else {
      int64_t *full = NULL, *sdims = NULL;
      int srank;
      tfe_tslice sl;
      ok = tfe_parse_shape_and_slice(TF_TString_GetDataPointer(spec),
                                     TF_TString_GetSize(spec), &full, &srank,
                                     &sl, &sdims, k->status);
      if (ok && (srank != rank ||
                 (rank > 0 && memcmp(full, dims, (size_t)rank * sizeof(int64_t)) != 0))) {
        tfe_pbw a = {0}, b = {0};
        tfe_ckpt_shape_str(full, srank, &a);
        tfe_ckpt_shape_str(dims, rank, &b);
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "tensor_name = %.*s; shape in shape_and_slice spec %s does "
                   "not match the shape stored in checkpoint: %s",
                   (int)nl, np, pbw_cstr(&a), pbw_cstr(&b));
        tfe_pbw_free(&a);
        tfe_pbw_free(&b);
        ok = 0;
      }
      if (ok) {
        out = tfe_kernel_alloc_output(k, (int)i, dt, sdims, srank);
        ok = out != NULL && tfe_bundle_reader_read(r, np, nl, &sl, out, k->status);
      }
      tfe_free(full);
      tfe_free(sdims);
      tfe_tslice_free(&sl);
    }
    tfe_free(dims);
    if (!ok) goto done;
  }
done:
  tfe_pbw_free(&mismatched);
  tfe_bundle_reader_free(r);
}

/* ------------------------------------------------------------------------
 * MergeV2Checkpoints. */

static void merge_v2_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* dst = k->inputs[1];
  int64_t n = kutil_num_elements(in), i;
  char** prefixes = NULL;
  char* merged = NULL;
  char* merged_dir = NULL;
  kutil_shape_buf b;
  int del = kutil_attr_bool(k, "delete_old_dirs", 1);
  int allow = kutil_attr_bool(k, "allow_missing_files", 0);
  if (in->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input checkpoint_prefixes should be an 1-D tensor, got %s "
               "instead.",
               kutil_tshape(in, &b));
    return;
  }
  if (dst->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input destination_prefix should be a scalar tensor, got %s "
               "instead.",
               kutil_tshape(dst, &b));
    return;
  }
  if (n > INT32_MAX / 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Too many checkpoint prefixes");
    return;
  }
  prefixes = (char**)tfe_calloc((size_t)n + 1, sizeof(char*));
  merged = tfe_io_cstr(dst, 0);
  if (prefixes == NULL || merged == NULL) goto oom;
  for (i = 0; i < n; i++) {
    prefixes[i] = tfe_io_cstr(in, i);
    if (prefixes[i] == NULL) goto oom;
  }
  if (!tfe_bundle_merge((const char* const*)prefixes, (int)n, merged, allow,
                        k->status))
    goto done;
  if (del) {
    merged_dir = tfe_ckpt_dirname(merged);
    if (merged_dir == NULL) goto oom;
    for (i = 0; i < n; i++) {
      char* dir = tfe_ckpt_dirname(prefixes[i]);
      if (dir != NULL && strcmp(dir, merged_dir) != 0) {
        /* Best effort, as in TF: only an emptied directory goes. */
        TF_Status st;
        tfe_scratch_init(&st);
        tfe_fs_delete_dir(dir, &st);
        tfe_scratch_release(&st);
      }
      tfe_free(dir);
    }
  }
  goto done;
oom:
  oom(k);
done:
  if (prefixes != NULL)
    for (i = 0; i < n; i++) tfe_free(prefixes[i]);
  tfe_free(prefixes);
  tfe_free(merged);
  tfe_free(merged_dir);
}

/* ------------------------------------------------------------------------
 * Save / SaveSlices (V1). */

typedef struct {
  int index;
  const TF_TString* name;
} named_input;

static int cmp_named(const void* a, const void* b) {
  const named_input* x = (const named_input*)a;
  const named_input* y = (const named_input*)b;
  size_t nx = TF_TString_GetSize(x->name), ny = TF_TString_GetSize(y->name);
  size_t m = nx < ny ? nx : ny;
  int c = m ? memcmp(TF_TString_GetDataPointer(x->name),
                     TF_TString_GetDataPointer(y->name), m)
            : 0;
  if (c != 0) return c;
  if (nx != ny) return nx < ny ? -1 : 1;
  return x->index - y->index;
}

static void save_tensors(tfe_kernel_context* k, int save_slices) {
  const TF_Tensor* fname = k->inputs[0];
  const TF_Tensor* names = k->inputs[1];
  int fixed = save_slices ? 3 : 2;
  int64_t n = kutil_num_elements(names), i;
  named_input* order = NULL;
  tfe_v1_item* items = NULL;
  tfe_tslice* slices = NULL;
  int64_t** fulls = NULL;
  char* path = NULL;
  if (kutil_num_elements(fname) != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input 0 (filename) must be a string scalar; got a tensor of "
               "%lldelements",
               (long long)kutil_num_elements(fname));
    return;
  }
  if (n + fixed >= INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Too many inputs to SaveTensors");
    return;
  }
  if (save_slices && kutil_num_elements(k->inputs[2]) != n) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected %lld elements for the tensor shapes and slices but "
               "got %lld",
               (long long)n, (long long)kutil_num_elements(k->inputs[2]));
    return;
  }
  if (k->num_inputs != n + fixed) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected totally %lld inputs as input #1 (which is a string "
               "tensor of saved names) contains %lld names, but received %d "
               "inputs",
               (long long)(n + fixed), (long long)n, k->num_inputs);
    return;
  }
  order = (named_input*)tfe_calloc((size_t)n + 1, sizeof(*order));
  items = (tfe_v1_item*)tfe_calloc((size_t)n + 1, sizeof(*items));
  slices = (tfe_tslice*)tfe_calloc((size_t)n + 1, sizeof(*slices));
  fulls = (int64_t**)tfe_calloc((size_t)n + 1, sizeof(*fulls));
  path = tfe_io_cstr(fname, 0);
  if (order == NULL || items == NULL || slices == NULL || fulls == NULL ||
      path == NULL) {
    oom(k);
    goto done;
  }
  for (i = 0; i < n; i++) {
    order[i].index = (int)i;
    order[i].name = tfe_io_str(names, i);
  }
  /* TF processes the tensors in name order. */
  qsort(order, (size_t)n, sizeof(*order), cmp_named);
  for (i = 0; i < n; i++) {
    int idx = order[i].index;
    const TF_Tensor* t = k->inputs[fixed + idx];
    tfe_v1_item* it = &items[i];
    it->name = TF_TString_GetDataPointer(order[i].name);
    it->name_len = TF_TString_GetSize(order[i].name);
    it->t = t;
    it->slice = &slices[i];
    if (save_slices && TF_TString_GetSize(tfe_io_str(k->inputs[2], idx)) > 0) {
      const TF_TString* spec = tfe_io_str(k->inputs[2], idx);
      int64_t* sdims = NULL;
      int rank;
      if (!tfe_parse_shape_and_slice(TF_TString_GetDataPointer(spec),
                                     TF_TString_GetSize(spec), &fulls[i], &rank,
                                     &slices[i], &sdims, k->status))
        goto done;
      if (!same_dims(sdims, rank, t)) {
        kutil_shape_buf b;
        tfe_free(sdims);
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Slice in shape_and_slice specification does not match the "
                   "shape of the tensor to  save: %.*s, tensor: %s",
                   (int)TF_TString_GetSize(spec),
                   TF_TString_GetDataPointer(spec), kutil_tshape(t, &b));
        goto done;
      }
      tfe_free(sdims);
      it->full_dims = fulls[i];
      it->rank = rank;
    } else {
      if (!tfe_tslice_init_full(&slices[i], t->num_dims)) {
        oom(k);
        goto done;
      }
      it->full_dims = t->dims;
      it->rank = t->num_dims;
    }
  }
  tfe_v1_save(path, items, (int)n, k->status);
done:
  if (slices != NULL)
    for (i = 0; i < n; i++) tfe_tslice_free(&slices[i]);
  if (fulls != NULL)
    for (i = 0; i < n; i++) tfe_free(fulls[i]);
  tfe_free(fulls);
  tfe_free(slices);
  tfe_free(items);
  tfe_free(order);
  tfe_free(path);
}

static void save_compute(tfe_kernel_context* k) { save_tensors(k, 0); }
static void save_slices_compute(tfe_kernel_context* k) { save_tensors(k, 1); }

void tfe_register_cpu_io_checkpoint_kernels(void) {
  tfe_kutil_register("SaveV2", save_v2_compute, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("RestoreV2", restore_v2_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("MergeV2Checkpoints", merge_v2_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("Save", save_compute, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("SaveSlices", save_slices_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("Restore", restore_compute, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("RestoreSlice", restore_slice_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
}
