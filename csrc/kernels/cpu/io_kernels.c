/* CPU kernels: file ops (ReadFile, WriteFile, MatchingFiles,
 * ImmutableConst) and sharded file names (ShardedFilename,
 * ShardedFilespec), with TensorFlow 2.21's semantics and messages. Files
 * go through the filesystem registry (csrc/fs), so local paths, ram:// and
 * every plugin scheme work, and a filesystem's own status (NOT_FOUND for a
 * missing file, FAILED_PRECONDITION for a directory, a plugin's code and
 * message) reaches the caller unchanged. The checkpoint ops are in
 * io_checkpoint_kernels.c; both register here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "fs/fs.h"
#include "graph/checkpoint_ops.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/io_kernels.h"
#include "kernels/cpu/kutil.h"
#include "tensorflow/c/tf_tstring.h"

const TF_TString* tfe_io_str(const TF_Tensor* t, int64_t i) {
  return &((const TF_TString*)kutil_data(t))[i];
}

char* tfe_io_cstr(const TF_Tensor* t, int64_t i) {
  const TF_TString* s = tfe_io_str(t, i);
  size_t n = TF_TString_GetSize(s);
  char* c = (char*)tfe_malloc(n + 1);
  if (c == NULL) return NULL;
  if (n) memcpy(c, TF_TString_GetDataPointer(s), n);
  c[n] = '\0';
  return c;
}


/* ------------------------------------------------------------------------
 * ShardedFilename / ShardedFilespec. */

static int all_scalars(tfe_kernel_context* k, const char* const* names) {
  int i;
  for (i = 0; i < k->num_inputs; i++) {
    if (k->inputs[i]->num_dims != 0) {
      kutil_shape_buf b;
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must be a scalar, got shape %s",
                 names[i], kutil_tshape(k->inputs[i], &b));
      return 0;
    }
  }
  return 1;
}

/* The basename as C's "%s" sees it: up to its first NUL byte. */
static void set_name(tfe_kernel_context* k, const char* fmt, int32_t a,
                     int32_t b, int two) {
  const TF_TString* base = tfe_io_str(k->inputs[0], 0);
  size_t n = TF_TString_GetSize(base);
  const char* p = TF_TString_GetDataPointer(base);
  const char* nul = n ? (const char*)memchr(p, '\0', n) : NULL;
  size_t blen = nul != NULL ? (size_t)(nul - p) : n;
  char tail[64];
  char* out;
  TF_Tensor* t = tfe_kernel_alloc_output(k, 0, TF_STRING, NULL, 0);
  if (t == NULL) return;
  if (two) snprintf(tail, sizeof tail, fmt, a, b);
  else snprintf(tail, sizeof tail, fmt, a);
  out = (char*)tfe_malloc(blen + strlen(tail) + 1);
  if (out == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return;
  }
  if (blen) memcpy(out, p, blen);
  memcpy(out + blen, tail, strlen(tail) + 1);
  TF_TString_Copy((TF_TString*)kutil_data(t), out, blen + strlen(tail));
  tfe_free(out);
}

static void sharded_filename_compute(tfe_kernel_context* k) {
  static const char* const names[] = {"basename", "shard", "num_shards"};
  if (!all_scalars(k, names)) return;
  set_name(k, "-%05d-of-%05d", ((const int32_t*)kutil_data(k->inputs[1]))[0],
           ((const int32_t*)kutil_data(k->inputs[2]))[0], 1);
}

static void sharded_filespec_compute(tfe_kernel_context* k) {
  static const char* const names[] = {"basename", "num_shards"};
  if (!all_scalars(k, names)) return;
  set_name(k, "-?\?\?\?\?-of-%05d", ((const int32_t*)kutil_data(k->inputs[1]))[0],
           0, 0);
}

/* ------------------------------------------------------------------------
 * ReadFile / WriteFile. */

/* Reads a whole file by reading until its end (as TF's ReadAll does, so
 * a file whose size a filesystem cannot tell still reads). */
static int read_all(const char* path, char** out, size_t* out_len,
                    TF_Status* status) {
  tfe_raf* f = tfe_fs_open_raf(path, status);
  char* buf = NULL;
  size_t len = 0, cap = 0;
  if (f == NULL) return 0;
  for (;;) {
    int64_t got;
    size_t want;
    if (cap - len < (1u << 16)) {
      size_t nc = cap ? cap * 2 : (1u << 16);
      char* nb;
      if (nc < cap) nc = SIZE_MAX; /* overflow */
      nb = (char*)tfe_realloc(buf, nc);
      if (nb == NULL) {
        tfe_free(buf);
        tfe_fs_raf_release(f);
        tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                        "out of memory reading '%s'", path);
        return 0;
      }
      buf = nb;
      cap = nc;
    }
    want = cap - len;
    got = tfe_fs_raf_read(f, (uint64_t)len, want, buf + len, status);
    if (got > 0) len += (size_t)got;
    if (TF_GetCode(status) == TF_OUT_OF_RANGE) break; /* the end */
    if (TF_GetCode(status) != TF_OK) {
      tfe_free(buf);
      tfe_fs_raf_release(f);
      return 0;
    }
    if (got == 0) break;
  }
  tfe_fs_raf_release(f);
  tfe_status_ok(status);
  *out = buf;
  *out_len = len;
  return 1;
}

static void read_file_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  TF_Tensor* out;
  char* path;
  char* data = NULL;
  size_t len = 0;
  if (in->num_dims != 0) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input filename tensor must be scalar, but had shape: %s",
               kutil_tshape(in, &b));
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, TF_STRING, NULL, 0);
  if (out == NULL) return;
  path = tfe_io_cstr(in, 0);
  if (path == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ReadFile");
    return;
  }
  if (read_all(path, &data, &len, k->status))
    TF_TString_Copy((TF_TString*)kutil_data(out), data != NULL ? data : "", len);
  tfe_free(data);
  tfe_free(path);
}

static void write_file_compute(tfe_kernel_context* k) {
  const TF_Tensor* name = k->inputs[0];
  const TF_Tensor* contents = k->inputs[1];
  const TF_TString* c;
  char* path;
  char* dir;
  kutil_shape_buf b;
  if (name->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input filename tensor must be scalar, but had shape: %s",
               kutil_tshape(name, &b));
    return;
  }
  if (contents->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Contents tensor must be scalar, but had shape: %s",
               kutil_tshape(contents, &b));
    return;
  }
  path = tfe_io_cstr(name, 0);
  dir = path != NULL ? tfe_ckpt_dirname(path) : NULL;
  if (dir == NULL) {
    tfe_free(path);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in WriteFile");
    return;
  }
  if (dir[0] != '\0') {
    TF_Status st;
    int exists;
    tfe_scratch_init(&st);
    tfe_fs_exists(dir, &st);
    exists = st.code == TF_OK;
    tfe_scratch_release(&st);
    if (!exists) {
      tfe_fs_recursively_create_dir(dir, k->status);
      if (!KUTIL_OK(k)) goto done;
    }
  }
  c = tfe_io_str(contents, 0);
  tfe_ckpt_write_file(path, TF_TString_GetDataPointer(c),
                      TF_TString_GetSize(c), k->status);
done:
  tfe_free(dir);
  tfe_free(path);
}

/* ------------------------------------------------------------------------
 * MatchingFiles. */

static int cmp_cstr(const void* a, const void* b) {
  return strcmp(*(char* const*)a, *(char* const*)b);
}

static void matching_files_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  tfe_strvec all = {NULL, 0, 0};
  int64_t n, i, dims[1];
  TF_Tensor* out;
  if (in->num_dims > 1) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input patterns tensor must be scalar or vector, but had "
               "shape: %s",
               kutil_tshape(in, &b));
    return;
  }
  n = kutil_num_elements(in);
  for (i = 0; i < n; i++) {
    tfe_strvec m = {NULL, 0, 0};
    char* pat = tfe_io_cstr(in, i);
    size_t j;
    if (pat == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in MatchingFiles");
      goto done;
    }
    tfe_fs_glob(pat, &m, k->status);
    tfe_free(pat);
    if (!KUTIL_OK(k)) {
      tfe_strvec_free(&m);
      goto done;
    }
    for (j = 0; j < m.count; j++) {
      if (tfe_strvec_take(&all, m.items[j]) != 0) {
        m.items[j] = NULL;
        for (j = j + 1; j < m.count; j++) tfe_free(m.items[j]);
        tfe_free(m.items);
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in MatchingFiles");
        goto done;
      }
      m.items[j] = NULL;
    }
    tfe_free(m.items);
  }
  if (all.count > 1) qsort(all.items, all.count, sizeof(char*), cmp_cstr);
  dims[0] = (int64_t)all.count;
  out = tfe_kernel_alloc_output(k, 0, TF_STRING, dims, 1);
  if (out == NULL) goto done;
  for (i = 0; i < (int64_t)all.count; i++)
    TF_TString_Copy(&((TF_TString*)kutil_data(out))[i], all.items[i],
                    strlen(all.items[i]));
done:
  tfe_strvec_free(&all);
}

/* ------------------------------------------------------------------------
 * ImmutableConst. */

static void release_region(void* data, size_t len, void* arg) {
  (void)data;
  (void)len;
  tfe_fs_romr_release((tfe_romr*)arg);
}

static void free_buffer(void* data, size_t len, void* arg) {
  (void)len;
  (void)arg;
  tfe_free(data);
}

static void immutable_const_compute(tfe_kernel_context* k) {
  TF_DataType dtype = TF_FLOAT;
  const tfe_shape* shape = NULL;
  const char* name = NULL;
  size_t name_len = 0;
  char* path;
  tfe_romr* region;
  size_t esize, need;
  int64_t count = 1;
  int d;
  TF_Tensor* t;
  if (k->attrs == NULL || !tfe_attrs_get_type(k->attrs, "dtype", &dtype, NULL) ||
      !tfe_attrs_get_shape(k->attrs, "shape", &shape, NULL) ||
      !tfe_attrs_get_string(k->attrs, "memory_region_name", &name, &name_len,
                            NULL)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "ImmutableConst: missing attrs");
    return;
  }
  if (dtype == TF_RESOURCE || dtype == TF_VARIANT) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Resource and variant dtypes are invalid for this op.");
    return;
  }
  {
    /* The shape must be fully defined ("Shape [?,2] is not fully
     * defined", as TF says). */
    int partial = shape->num_dims < 0;
    for (d = 0; d < shape->num_dims; d++) {
      if (shape->dims[d] < 0) partial = 1;
      if (shape->dims[d] > 0 && count > INT64_MAX / shape->dims[d]) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Encountered overflow when multiplying shape dimensions");
        return;
      }
      if (shape->dims[d] >= 0) count *= shape->dims[d];
    }
    if (partial) {
      char buf[512];
      size_t len = 0;
      if (shape->num_dims < 0) {
        snprintf(buf, sizeof buf, "<unknown>");
      } else {
        len += (size_t)snprintf(buf, sizeof buf, "[");
        for (d = 0; d < shape->num_dims && len < sizeof buf - 24; d++) {
          if (shape->dims[d] < 0)
            len += (size_t)snprintf(buf + len, sizeof buf - len, d ? ",?" : "?");
          else
            len += (size_t)snprintf(buf + len, sizeof buf - len,
                                    d ? ",%lld" : "%lld",
                                    (long long)shape->dims[d]);
        }
        snprintf(buf + len, sizeof buf - len, "]");
      }
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Shape %s is not fully defined", buf);
      return;
    }
  }
  path = (char*)tfe_malloc(name_len + 1);
  if (path == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ImmutableConst");
    return;
  }
  memcpy(path, name, name_len);
  path[name_len] = '\0';
  region = tfe_fs_open_romr(path, k->status);
  if (region == NULL && TF_GetCode(k->status) == TF_UNIMPLEMENTED) {
    /* The filesystem has no memory regions: read the file instead. */
    char* data = NULL;
    size_t len = 0;
    tfe_status_ok(k->status);
    if (!read_all(path, &data, &len, k->status)) {
      tfe_free(path);
      return;
    }
    tfe_free(path);
    if (dtype == TF_STRING) {
      tfe_free(data);
      KUTIL_FAIL(k, TF_UNIMPLEMENTED,
                 "Sorry, DT_STRING is not currently supported for "
                 "ImmutableConstOp.");
      return;
    }
    esize = TF_DataTypeSize(dtype);
    if (esize == 0 || (uint64_t)count > (uint64_t)(SIZE_MAX / esize)) {
      tfe_free(data);
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "ImmutableConst: unsupported dtype or size");
      return;
    }
    need = (size_t)count * esize;
    if (need > len) {
      tfe_free(data);
      KUTIL_FAIL(k, TF_INTERNAL,
                 "Readonly memory region has wrong length (%zu) when "
                 "allocating %zu",
                 len, need);
      return;
    }
    if (data == NULL) data = (char*)tfe_malloc(1);
    t = TF_NewTensor(dtype, shape->dims, shape->num_dims, data, need,
                     free_buffer, NULL);
    if (t == NULL) {
      tfe_free(data);
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ImmutableConst");
      return;
    }
    tfe_kernel_set_output(k, 0, t);
    return;
  }
  tfe_free(path);
  if (region == NULL) return;
  if (dtype == TF_STRING) {
    tfe_fs_romr_release(region);
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "Sorry, DT_STRING is not currently supported for "
               "ImmutableConstOp.");
    return;
  }
  esize = TF_DataTypeSize(dtype);
  if (esize == 0 || (uint64_t)count > (uint64_t)(SIZE_MAX / esize)) {
    tfe_fs_romr_release(region);
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "ImmutableConst: unsupported dtype or size");
    return;
  }
  need = (size_t)count * esize;
  {
    const void* data = region->fs->romr_ops.data(&region->region);
    uint64_t len = region->fs->romr_ops.length(&region->region);
    if ((uint64_t)need > len) {
      tfe_fs_romr_release(region);
      KUTIL_FAIL(k, TF_INTERNAL,
                 "Readonly memory region has wrong length (%llu) when "
                 "allocating %zu",
                 (unsigned long long)len, need);
      return;
    }
    if ((uintptr_t)data % 64 != 0 && need > 0) {
      /* TF refuses a region that is not 64-byte aligned (INTERNAL "Readonly
       * memory region has wrong alignment"); tfe copies it instead (ram://
       * regions are heap buffers). */
      t = TF_AllocateTensor(dtype, shape->dims, shape->num_dims, need);
      if (t != NULL) memcpy(TF_TensorData(t), data, need);
      tfe_fs_romr_release(region);
      if (t == NULL) {
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ImmutableConst");
        return;
      }
      tfe_kernel_set_output(k, 0, t);
      return;
    }
    /* The tensor borrows the mapping; releasing the tensor unmaps it. */
    t = TF_NewTensor(dtype, shape->dims, shape->num_dims, (void*)data, need,
                     release_region, region);
    if (t == NULL) {
      tfe_fs_romr_release(region);
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ImmutableConst");
      return;
    }
  }
  tfe_kernel_set_output(k, 0, t);
}

/* ------------------------------------------------------------------------
 * Registration. */

void tfe_register_cpu_io_kernels(void) {
  tfe_kutil_register("ShardedFilename", sharded_filename_compute, NULL, NULL,
                     0, NULL, NULL, 0);
  tfe_kutil_register("ShardedFilespec", sharded_filespec_compute, NULL, NULL,
                     0, NULL, NULL, 0);
  tfe_kutil_register("ReadFile", read_file_compute, NULL, NULL, 0, NULL, NULL,
                     0);
  tfe_kutil_register("WriteFile", write_file_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("MatchingFiles", matching_files_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("ImmutableConst", immutable_const_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_register_cpu_io_checkpoint_kernels();
}
