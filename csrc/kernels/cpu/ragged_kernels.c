/* RaggedTensorToTensor CPU kernel (what every RaggedTensor.to_tensor()
 * in an exported model runs).
 *
 * The ragged tensor is given as flat `values` plus row partitions, one per
 * ragged dimension: ROW_SPLITS (row i holds values [s[i], s[i+1])), or
 * FIRST_DIM_SIZE (a scalar row count) followed by VALUE_ROWIDS (the row of
 * every value). The output shape comes from the `shape` input (-1 entries,
 * or a scalar -1 for all of it, are filled in: the first dim is the row
 * count, a ragged dim the longest row, inner dims those of values); rows
 * and columns beyond the output are dropped, missing ones are filled with
 * default_value broadcast to one value row.
 *
 * The kernel maps every value row to its position in the output (or -1
 * when it falls outside), level by level, as TF's kernel does, then fills
 * the output with the default and copies the mapped rows. It checks what
 * TF's kernel trusts: row ids and splits that point past the rows they
 * index, and partitions that describe more values than there are, fail
 * with INVALID_ARGUMENT instead of reading out of bounds. Value row ids
 * that are not sorted (TF requires sorted ones) give a defined result: each
 * run of equal ids starts again at column 0 and later values overwrite
 * earlier ones. */
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/image_kernels.h"
#include "kernels/cpu/kutil.h"

enum { RP_FIRST_DIM_SIZE = 1, RP_VALUE_ROWIDS = 2, RP_ROW_SPLITS = 3 };

typedef struct ragged_ctx {
  tfe_kernel_context* k;
  int types[TFE_MAX_DIMS];
  int ntypes;
  int ragged_rank;
} ragged_ctx;

/* Reads and checks row_partition_types and the partition inputs' ranks. */
static int parse_types(ragged_ctx* rc) {
  tfe_kernel_context* k = rc->k;
  const tfe_attr_value* av =
      k->attrs != NULL ? tfe_attrs_find(k->attrs, "row_partition_types") : NULL;
  int i, n, nparts;
  n = (av != NULL && av->is_list) ? av->list_size : 0;
  if (n > 0 && av->type != TF_ATTR_STRING) n = 0;
  if (n > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Too many row partition types: %d (at most %d)", n,
               TFE_MAX_DIMS);
    return 0;
  }
  for (i = 0; i < n; i++) {
    const char* s = av->list.s.data[i];
    if (strcmp(s, "FIRST_DIM_SIZE") == 0) {
      rc->types[i] = RP_FIRST_DIM_SIZE;
    } else if (strcmp(s, "VALUE_ROWIDS") == 0) {
      rc->types[i] = RP_VALUE_ROWIDS;
    } else if (strcmp(s, "ROW_SPLITS") == 0) {
      rc->types[i] = RP_ROW_SPLITS;
    } else {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Unknown string for partition info type: %s", s);
      return 0;
    }
  }
  rc->ntypes = n;
  if (n == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Partition info types should not be empty");
    return 0;
  }
  for (i = 1; i < n; i++) {
    if (rc->types[i] == RP_FIRST_DIM_SIZE) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "FIRST_DIM_SIZE must be first");
      return 0;
    }
  }
  if (rc->types[0] == RP_FIRST_DIM_SIZE &&
      (n < 2 || rc->types[1] != RP_VALUE_ROWIDS)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "FIRST_DIM_SIZE must be followed by VALUE_ROWIDS");
    return 0;
  }
  if (rc->types[0] == RP_VALUE_ROWIDS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Cannot handle VALUE_ROWIDS in first dimension.");
    return 0;
  }
  nparts = k->num_inputs - 3;
  if (nparts != n) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Number of row partition tensors (%d) does not equal the "
               "number of row partition types(%d).",
               nparts, n);
    return 0;
  }
  for (i = 0; i < n; i++) {
    const TF_Tensor* p = k->inputs[3 + i];
    if (rc->types[i] == RP_FIRST_DIM_SIZE) {
      if (kutil_num_elements(p) != 1) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "FIRST_DIM_SIZE must be a scalar.");
        return 0;
      }
    } else if (p->num_dims != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Row partition must be a vector.");
      return 0;
    }
  }
  rc->ragged_rank = rc->types[0] == RP_FIRST_DIM_SIZE ? n - 1 : n;
  return 1;
}

/* Partition tensor describing dimension d -> d+1 and its type. */
static const TF_Tensor* part_at(const ragged_ctx* rc, int d, int* type) {
  int i = rc->types[0] == RP_FIRST_DIM_SIZE ? d + 1 : d;
  *type = rc->types[i];
  return rc->k->inputs[3 + i];
}

/* s[i+1] - s[i] of a row_splits vector, wrapping like TF's int arithmetic
 * (no undefined overflow); callers check the splits add up. */
static int64_t split_len(const TF_Tensor* p, int64_t i) {
  return (int64_t)((uint64_t)kutil_get_int(p, i + 1) -
                   (uint64_t)kutil_get_int(p, i));
}

/* Longest row a partition describes. */
static int64_t max_width(const TF_Tensor* p, int type) {
  int64_t n = p->dims[0], i, best = 0;
  if (type == RP_ROW_SPLITS) {
    for (i = 0; i + 1 < n; i++) {
      int64_t w = split_len(p, i);
      if (w > best) best = w;
    }
    return best;
  }
  if (n == 0) return 0;
  {
    int64_t first = 0, cur = kutil_get_int(p, 0);
    for (i = 1; i < n; i++) {
      int64_t v = kutil_get_int(p, i);
      if (v != cur) {
        cur = v;
        if (i - first > best) best = i - first;
        first = i;
      }
    }
    if (n - first > best) best = n - first;
  }
  return best;
}

/* The `shape` input as a partial shape: *rank -1 when unknown. */
static int read_shape(tfe_kernel_context* k, const TF_Tensor* t, int64_t* dims,
                      int* rank) {
  int64_t i, n;
  if (t->num_dims == 0) {
    if (kutil_get_int(t, 0) == -1) {
      *rank = -1;
      return 1;
    }
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The only valid scalar shape tensor is the fully unknown shape "
               "specified as -1.");
    return 0;
  }
  if (t->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Shape must be at most rank 1 but is rank %d", t->num_dims);
    return 0;
  }
  n = t->dims[0];
  if (n > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Too many dimensions in tensor");
    return 0;
  }
  for (i = 0; i < n; i++) {
    dims[i] = kutil_get_int(t, i);
    if (dims[i] < -1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension %lld must be >= -1",
                 (long long)dims[i]);
      return 0;
    }
  }
  *rank = (int)n;
  return 1;
}

static const char* partial_str(const int64_t* d, int rank, char* buf,
                               size_t cap) {
  size_t len = 0;
  int i;
  if (rank < 0) {
    snprintf(buf, cap, "<unknown>");
    return buf;
  }
  len += (size_t)snprintf(buf, cap, "[");
  for (i = 0; i < rank && len < cap; i++) {
    if (d[i] < 0) {
      len += (size_t)snprintf(buf + len, cap - len, i ? ",?" : "?");
    } else {
      len += (size_t)snprintf(buf + len, cap - len, i ? ",%lld" : "%lld",
                              (long long)d[i]);
    }
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
  return buf;
}

/* TF's ValidateDefaultValueShape (dims compared from the left). */
static int check_default(tfe_kernel_context* k, const TF_Tensor* dv,
                         const TF_Tensor* vals) {
  kutil_shape_buf a, b;
  int i;
  if (dv->num_dims >= vals->num_dims) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "default_value.shape=%s and rt_input.flat_values.shape=%s are "
               "incompatible: default_value.rank = %d  must be less than "
               "rt_input.flat_values.rank = %d",
               kutil_tshape(dv, &a), kutil_tshape(vals, &b), dv->num_dims,
               vals->num_dims);
    return 0;
  }
  for (i = 0; i < dv->num_dims; i++) {
    int64_t dd = dv->dims[i], vd = vals->dims[i + 1];
    if (dd != 1 && dd != vd) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "default_value.shape=%s and rt_input.flat_values.shape=%s "
                 "are incompatible: default_value.shape[%d] = %lld but "
                 "rt_input.flat_values.shape[%d] = %lld",
                 kutil_tshape(dv, &a), kutil_tshape(vals, &b),
                 i - dv->num_dims, (long long)dd, i - dv->num_dims,
                 (long long)vd);
      return 0;
    }
  }
  return 1;
}

/* Broadcasts default_value (right-aligned) to one value row of `esize`
 * elements with dims vdims[1..vrank). Returns a tfe_malloc'd buffer (string
 * elements initialised) or NULL with status set. */
static void* broadcast_default(tfe_kernel_context* k, const TF_Tensor* dv,
                               const TF_Tensor* vals, int64_t esize) {
  TF_DataType dt = vals->dtype;
  size_t esz = kutil_esize(dt);
  int er = vals->num_dims - 1, off = er - dv->num_dims, i;
  const int64_t* ed = vals->dims + 1;
  char* buf;
  const char* src = (const char*)kutil_data(dv);
  int64_t e;
  for (i = 0; i < dv->num_dims; i++) {
    if (dv->dims[i] != 1 && dv->dims[i] != ed[off + i]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Error broadcasting default_value");
      return NULL;
    }
  }
  buf = (char*)tfe_calloc((size_t)(esize > 0 ? esize : 1), esz);
  if (buf == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "out of memory in RaggedTensorToTensor");
    return NULL;
  }
  if (dt == TF_STRING) {
    for (e = 0; e < esize; e++) TF_TString_Init((TF_TString*)buf + e);
  }
  for (e = 0; e < esize; e++) {
    /* Source offset: walk the element's coordinates from the innermost. */
    int64_t rem = e, so = 0, stride = 1;
    int d;
    for (d = er - 1; d >= 0; d--) {
      int64_t coord = rem % ed[d];
      rem /= ed[d];
      if (d >= off) {
        int64_t dd = dv->dims[d - off];
        if (dd != 1) so += coord * stride;
        stride *= dd;
      }
    }
    kutil_copy1(dt, esz, buf + (size_t)e * esz, src + (size_t)so * esz);
  }
  return buf;
}

static void free_default(void* buf, TF_DataType dt, int64_t esize) {
  int64_t e;
  if (buf == NULL) return;
  if (dt == TF_STRING) {
    for (e = 0; e < esize; e++) TF_TString_Dealloc((TF_TString*)buf + e);
  }
  tfe_free(buf);
}

/* Output positions of the rows at level d+1, from those of level d
 * (`parent`, n_parent entries; parent == NULL means level 0, where row i
 * sits at i * mult0 when i < out0 and nowhere otherwise). */
static int64_t* next_index(ragged_ctx* rc, int d, const int64_t* parent,
                           int64_t n_parent, int64_t out0, int64_t mult0,
                           int64_t mult, int64_t width, int64_t* n_out) {
  tfe_kernel_context* k = rc->k;
  int type;
  const TF_Tensor* p = part_at(rc, d, &type);
  int64_t n = p->dims[0], i, j, total = 0, at = 0;
  int64_t* res;
#define PARENT(r) \
  (parent != NULL ? parent[r] : ((r) < out0 ? (r) * mult0 : -1))
  if (type == RP_ROW_SPLITS) {
    if (n - 1 > n_parent || n == 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Row partition size is greater than output size: %lld > %lld",
                 (long long)(n - 1), (long long)n_parent);
      return NULL;
    }
    int overflow = 0;
    for (i = 0; i + 1 < n && !overflow; i++) {
      int64_t a = kutil_get_int(p, i), b = kutil_get_int(p, i + 1), len;
      if (!tfe_checked_sub_i64(b, a, &len)) {
        overflow = 1;
      } else if (len > 0 && !tfe_checked_add_i64(total, len, &total)) {
        overflow = 1;
      }
    }
    if (overflow || total != kutil_get_int(p, n - 1)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Invalid row split size.");
      return NULL;
    }
    res = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(total > 0 ? total : 1));
    if (res == NULL) goto oom;
    for (i = 0; i + 1 < n; i++) {
      int64_t len = split_len(p, i);
      int64_t cur = PARENT(i);
      int64_t real = len < width ? len : width;
      if (cur < 0) real = 0;
      for (j = 0; j < real; j++) res[at++] = cur + j * mult;
      for (j = real > 0 ? real : 0; j < len; j++) res[at++] = -1;
    }
    *n_out = at;
    return res;
  }
  /* VALUE_ROWIDS */
  res = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
  if (res == NULL) goto oom;
  {
    int64_t cur_id = 0, cur = -1, col = 0;
    for (i = 0; i < n; i++) {
      int64_t id = kutil_get_int(p, i);
      if (i == 0 || id != cur_id) {
        if (id < 0 || id >= n_parent) {
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "Got %s=%lld which is not less than %lld",
                     i == 0 ? "current_value_rowid" : "next_value_rowid",
                     (long long)id, (long long)n_parent);
          tfe_free(res);
          return NULL;
        }
        cur_id = id;
        col = 0;
        cur = PARENT(id);
        if (width <= 0) cur = -1;
      } else if (cur >= 0) {
        col++;
        cur = col < width ? cur + mult : -1;
      }
      res[i] = cur;
    }
  }
  *n_out = n;
  return res;
#undef PARENT
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in RaggedTensorToTensor");
  return NULL;
}

static void ragged_to_tensor_compute(tfe_kernel_context* k) {
  ragged_ctx rc;
  const TF_Tensor* vals;
  const TF_Tensor* dv;
  const TF_Tensor* first;
  int64_t sdims[TFE_MAX_DIMS], od[TFE_MAX_DIMS], mult[TFE_MAX_DIMS];
  int srank, orank, i;
  int64_t first_dim, esize, nrows_out, *idx = NULL, n_idx = 0;
  TF_Tensor* out;
  void* dflt = NULL;
  char buf[512];
  memset(&rc, 0, sizeof rc);
  rc.k = k;
  if (!parse_types(&rc)) return;
  vals = k->inputs[1];
  dv = k->inputs[2];
  first = k->inputs[3];
  if (kutil_num_elements(first) == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Invalid first partition input. Tensor requires at least one "
               "element.");
    return;
  }
  first_dim = rc.types[0] == RP_FIRST_DIM_SIZE ? kutil_get_int(first, 0)
                                              : first->dims[0] - 1;
  if (!check_default(k, dv, vals)) return;
  if (!read_shape(k, k->inputs[0], sdims, &srank)) return;
  if (rc.ragged_rank + vals->num_dims > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Too many dimensions in the output");
    return;
  }
  orank = rc.ragged_rank + vals->num_dims;
  if (srank >= 0 && srank != orank) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "rt_input.shape and shape=%s are incompatible: rt_input.rank "
               "= %d but shape.rank = %d",
               partial_str(sdims, srank, buf, sizeof buf), orank, srank);
    return;
  }
  for (i = 0; i < orank; i++) od[i] = srank >= 0 ? sdims[i] : -1;
  for (i = 1; i < vals->num_dims; i++) {
    int64_t* o = &od[orank - vals->num_dims + i];
    if (*o >= 0 && *o != vals->dims[i]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "rt_input.shape and shape=%s are incompatible: "
                 "rt_input.shape[%d] = %lld but shape[%d] = %lld",
                 partial_str(sdims, srank, buf, sizeof buf),
                 i + rc.ragged_rank, (long long)vals->dims[i],
                 i + rc.ragged_rank, (long long)*o);
      return;
    }
    *o = vals->dims[i];
  }
  if (od[0] < 0) od[0] = first_dim;
  for (i = 1; i <= rc.ragged_rank; i++) {
    if (od[i] < 0) {
      int type;
      const TF_Tensor* p = part_at(&rc, i - 1, &type);
      od[i] = max_width(p, type);
    }
  }
  for (i = 0; i < orank; i++) {
    if (od[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                 (long long)od[i]);
      return;
    }
  }
  out = tfe_kernel_alloc_output(k, 0, vals->dtype, od, orank);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  esize = kutil_dims_prod(od, rc.ragged_rank + 1, orank);
  nrows_out = kutil_dims_prod(od, 0, rc.ragged_rank + 1);
  mult[rc.ragged_rank] = 1;
  for (i = rc.ragged_rank - 1; i >= 0; i--) mult[i] = mult[i + 1] * od[i + 1];
  /* Row positions, level by level. */
  if (first_dim < 0) first_dim = 0;
  for (i = 1; i <= rc.ragged_rank; i++) {
    int64_t n_next = 0;
    int64_t* next = next_index(&rc, i - 1, idx, i == 1 ? first_dim : n_idx,
                               od[0], mult[0], mult[i], od[i], &n_next);
    tfe_free(idx);
    idx = next;
    if (idx == NULL) return;
    n_idx = n_next;
  }
  if (n_idx > vals->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The row partitions describe %lld values but values has only "
               "%lld rows",
               (long long)n_idx, (long long)vals->dims[0]);
    goto done;
  }
  dflt = broadcast_default(k, dv, vals, esize);
  if (dflt == NULL) goto done;
  {
    TF_DataType dt = vals->dtype;
    size_t esz = kutil_esize(dt), row = esz * (size_t)esize;
    char* o = (char*)kutil_data(out);
    const char* v = (const char*)kutil_data(vals);
    int64_t r;
    for (r = 0; r < nrows_out; r++) kutil_copy(dt, o + (size_t)r * row, dflt, esize);
    for (r = 0; r < n_idx; r++) {
      if (idx[r] < 0 || idx[r] >= nrows_out) continue;
      kutil_copy(dt, o + (size_t)idx[r] * row, v + (size_t)r * row, esize);
    }
  }
done:
  free_default(dflt, vals->dtype, esize);
  tfe_free(idx);
}

void tfe_register_cpu_ragged_kernels(void) {
  static const TF_DataType kT[] = {
      KUTIL_POD_TYPES, TF_STRING, TF_QINT8, TF_QUINT8, TF_QINT16,
      TF_QUINT16, TF_QINT32};
  static const TF_DataType kIdx[] = {TF_INT32, TF_INT64};
  tfe_kutil_register("RaggedTensorToTensor", ragged_to_tensor_compute, "T", kT,
                     KUTIL_COUNT(kT), "Tindex", kIdx, 2);
}
