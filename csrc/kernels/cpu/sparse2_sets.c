/* CPU kernels of the sparse2 group: set operations along the last
 * dimension (DenseToDenseSetOperation, DenseToSparseSetOperation,
 * SparseToSparseSetOperation) and SetSize. A "group" is one position of the
 * leading n-1 dimensions; its set is the distinct values found there.
 * Results list each group's set in ascending order (strings bytewise), as
 * TF 2.21 does; checks and messages follow TF's set kernels. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/sparse2_common.h"

/* One set element: an integer value widened to int64, or a string. */
typedef struct set_elem {
  int64_t v;
  const char* s;
  size_t n;
} set_elem;

static int elem_cmp_str(const set_elem* a, const set_elem* b) {
  size_t m = a->n < b->n ? a->n : b->n;
  int c = m ? memcmp(a->s, b->s, m) : 0;
  if (c != 0) return c;
  return a->n < b->n ? -1 : (a->n > b->n ? 1 : 0);
}

static int elem_cmp(int is_str, const set_elem* a, const set_elem* b) {
  if (is_str) return elem_cmp_str(a, b);
  return a->v < b->v ? -1 : (a->v > b->v ? 1 : 0);
}

static int qs_int(const void* x, const void* y) {
  return elem_cmp(0, (const set_elem*)x, (const set_elem*)y);
}
static int qs_str(const void* x, const void* y) {
  return elem_cmp(1, (const set_elem*)x, (const set_elem*)y);
}

/* Sorts e[0..n) and drops duplicates; returns the new count. Small
 * integer sets (the common case: one row of a dense input) use an inline
 * insertion sort. */
static int64_t sort_unique(int is_str, set_elem* e, int64_t n) {
  int64_t i, m = 0;
  if (n <= 0) return 0;
  if (!is_str && n <= 64) {
    for (i = 1; i < n; i++) {
      set_elem x = e[i];
      int64_t j = i;
      while (j > 0 && e[j - 1].v > x.v) {
        e[j] = e[j - 1];
        j--;
      }
      e[j] = x;
    }
    for (i = 0; i < n; i++) {
      if (m == 0 || e[m - 1].v != e[i].v) e[m++] = e[i];
    }
    return m;
  }
  qsort(e, (size_t)n, sizeof *e, is_str ? qs_str : qs_int);
  for (i = 0; i < n; i++) {
    if (m == 0 || elem_cmp(is_str, &e[m - 1], &e[i]) != 0) e[m++] = e[i];
  }
  return m;
}

static void load_elem(const TF_Tensor* t, int64_t i, set_elem* e) {
  if (t->dtype == TF_STRING) {
    const TF_TString* s = (const TF_TString*)kutil_data(t) + i;
    e->s = TF_TString_GetDataPointer(s);
    e->n = TF_TString_GetSize(s);
    e->v = 0;
  } else {
    e->v = t->dtype == TF_INT64 ? ((const int64_t*)kutil_data(t))[i]
                                : kutil_get_int(t, i);
    e->s = NULL;
    e->n = 0;
  }
}

enum { OP_AMB = 0, OP_BMA = 1, OP_INTER = 2, OP_UNION = 3 };

/* Growable result: per element its group key (gnd int64s) and value. */
typedef struct set_out {
  int64_t* keys;
  set_elem* vals;
  int64_t* pos; /* position inside the group's set */
  int64_t n, cap, max_size;
  int gnd;
} set_out;

static int out_push(set_out* o, const int64_t* key, const set_elem* v,
                    int64_t p) {
  if (o->n == o->cap) {
    int64_t nc = o->cap ? o->cap * 2 : 64;
    int64_t* nk = (int64_t*)tfe_realloc(
        o->keys, (size_t)nc * (size_t)(o->gnd > 0 ? o->gnd : 1) * sizeof(int64_t));
    set_elem* nv;
    int64_t* np;
    if (nk == NULL) return 0;
    o->keys = nk;
    nv = (set_elem*)tfe_realloc(o->vals, (size_t)nc * sizeof(set_elem));
    if (nv == NULL) return 0;
    o->vals = nv;
    np = (int64_t*)tfe_realloc(o->pos, (size_t)nc * sizeof(int64_t));
    if (np == NULL) return 0;
    o->pos = np;
    o->cap = nc;
  }
  if (o->gnd > 0) {
    memcpy(o->keys + o->n * o->gnd, key, (size_t)o->gnd * sizeof(int64_t));
  }
  o->vals[o->n] = *v;
  o->pos[o->n] = p;
  o->n++;
  if (p + 1 > o->max_size) o->max_size = p + 1;
  return 1;
}

static void out_free(set_out* o) {
  tfe_free(o->keys);
  tfe_free(o->vals);
  tfe_free(o->pos);
}

/* Applies op to the sorted distinct sets a and b, appending the result
 * (ascending) for group key. Returns 0 on OOM. */
static int apply_op(int op, int is_str, const set_elem* a, int64_t na,
                    const set_elem* b, int64_t nb, const int64_t* key,
                    set_out* o) {
  int64_t i = 0, j = 0, p = 0;
  if (op == OP_BMA) {
    const set_elem* t = a;
    int64_t tn = na;
    a = b;
    na = nb;
    b = t;
    nb = tn;
    op = OP_AMB;
  }
  while (i < na || j < nb) {
    int c;
    if (i >= na) {
      c = 1;
    } else if (j >= nb) {
      c = -1;
    } else {
      c = elem_cmp(is_str, &a[i], &b[j]);
    }
    if (c < 0) {
      if ((op == OP_AMB || op == OP_UNION) && !out_push(o, key, &a[i], p++)) return 0;
      i++;
    } else if (c > 0) {
      if (op == OP_UNION && !out_push(o, key, &b[j], p++)) return 0;
      j++;
    } else {
      if ((op == OP_INTER || op == OP_UNION) && !out_push(o, key, &a[i], p++)) return 0;
      i++;
      j++;
    }
  }
  return 1;
}

/* A sparse set input: its checked parts and its groups (runs of rows with
 * equal leading n-1 coordinates, in order). */
typedef struct sp_set {
  const TF_Tensor* vals;
  const int64_t* ix;
  int64_t nnz;
  int nd;
  int64_t shape[TFE_MAX_DIMS];
} sp_set;

/* TF's SparseTensorFromContext for the set ops. */
static int read_sparse_set(tfe_kernel_context* k, int base, int validate,
                           sp_set* s) {
  const TF_Tensor* ind = k->inputs[base];
  const TF_Tensor* vals = k->inputs[base + 1];
  const TF_Tensor* shp = k->inputs[base + 2];
  int64_t nd, d;
  if (shp->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Shape must be a 1D tensor.");
    return 0;
  }
  nd = shp->dims[0];
  if (nd > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Too many dimensions in tensor shape: %lld", (long long)nd);
    return 0;
  }
  for (d = 0; d < nd; d++) {
    int64_t v = ((const int64_t*)kutil_data(shp))[d];
    if (v < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected shape dimensions to be non-negative, got %lld",
                 (long long)v);
      return 0;
    }
    s->shape[d] = v;
  }
  {
    int64_t prod;
    if (!tfe_checked_dims_product(s->shape, (int)nd, &prod)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Encountered overflow when multiplying shape dimensions");
      return 0;
    }
  }
  if (nd < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Invalid rank %lld.", (long long)nd);
    return 0;
  }
  if (!sp2_create_check(k, ind, vals, nd)) return 0;
  s->vals = vals;
  s->ix = (const int64_t*)kutil_data(ind);
  s->nnz = ind->dims[0];
  s->nd = (int)nd;
  if (validate && !sp2_indices_valid(k, s->ix, s->nnz, s->nd, s->shape)) {
    return 0;
  }
  return 1;
}

/* End of the group that starts at row r. */
static int64_t group_end(const sp_set* s, int64_t r) {
  int64_t e = r + 1;
  while (e < s->nnz &&
         memcmp(s->ix + e * s->nd, s->ix + r * s->nd,
                (size_t)(s->nd - 1) * sizeof(int64_t)) == 0) {
    e++;
  }
  return e;
}

/* TF's CheckGroup: the group's indices lie inside the shape (only matters
 * without validate_indices). Loads the group's elements into e. */
static int load_sparse_group(tfe_kernel_context* k, const sp_set* s,
                             int64_t r0, int64_t r1, set_elem* e) {
  int d;
  int64_t i;
  for (d = 0; d < s->nd; d++) {
    if (s->shape[d] <= 0) {
      KUTIL_FAIL(k, TF_INTERNAL, "Invalid dim_size[%d] = %lld.", d,
                 (long long)s->shape[d]);
      return 0;
    }
    for (i = r0; i < r1; i++) {
      int64_t v = s->ix[i * s->nd + d];
      if (!(s->shape[d] > v)) {
        KUTIL_FAIL(k, TF_INTERNAL, "indices[%lld, %d] expected < %lld, got %lld.",
                   (long long)(i - r0), d, (long long)s->shape[d], (long long)v);
        return 0;
      }
    }
  }
  for (i = r0; i < r1; i++) load_elem(s->vals, i, &e[i - r0]);
  return 1;
}

static int set_op_from_attr(tfe_kernel_context* k, int* op) {
  const char* str = NULL;
  size_t len = 0, i;
  char low[32];
  if (k->attrs == NULL ||
      !tfe_attrs_get_string(k->attrs, "set_operation", &str, &len, NULL)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Missing set_operation.");
    return 0;
  }
  for (i = 0; i < len && i < sizeof low - 1; i++) {
    char c = str[i];
    low[i] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
  }
  low[i] = '\0';
  if (len < sizeof low && strcmp(low, "a-b") == 0) {
    *op = OP_AMB;
  } else if (len < sizeof low && strcmp(low, "b-a") == 0) {
    *op = OP_BMA;
  } else if (len < sizeof low && strcmp(low, "intersection") == 0) {
    *op = OP_INTER;
  } else if (len < sizeof low && strcmp(low, "union") == 0) {
    *op = OP_UNION;
  } else {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Invalid set_operation %.*s.",
               (int)(len > 200 ? 200 : len), str);
    return 0;
  }
  return 1;
}

/* "[a,b]" of dims[0..n). */
static const char* dims_str(const int64_t* dims, int n, char* buf, size_t cap) {
  return kutil_shape_str(dims, n, buf, cap);
}

/* GroupShapeFromInputs: both ranks >= 2 and equal leading dims. */
static int group_shape_check(tfe_kernel_context* k, const int64_t* s1, int n1,
                             const int64_t* s2, int n2) {
  char b1[512], b2[512];
  if (n1 < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Shape %s has rank %d < 2",
               dims_str(s1, n1, b1, sizeof b1), n1);
    return 0;
  }
  if (n2 < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Shape %s has rank %d < 2",
               dims_str(s2, n2, b1, sizeof b1), n2);
    return 0;
  }
  if (n1 != n2 || memcmp(s1, s2, (size_t)(n1 - 1) * sizeof(int64_t)) != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Mismatched shapes %s vs %s",
               dims_str(s1, n1 - 1, b1, sizeof b1),
               dims_str(s2, n2 - 1, b2, sizeof b2));
    return 0;
  }
  return 1;
}

/* Writes the three outputs from o (group shape gshape[0..gnd)). */
static void write_result(tfe_kernel_context* k, TF_DataType dt,
                         const set_out* o, const int64_t* gshape, int gnd) {
  int64_t od[2], i;
  int64_t oshape[TFE_MAX_DIMS];
  TF_Tensor *oi, *ov, *os;
  int ond = gnd + 1;
  od[0] = o->n;
  od[1] = ond;
  oi = tfe_kernel_alloc_output(k, 0, TF_INT64, od, 2);
  if (oi == NULL) return;
  ov = tfe_kernel_alloc_output(k, 1, dt, od, 1);
  if (ov == NULL) return;
  for (i = 0; i < o->n; i++) {
    int64_t* row = (int64_t*)kutil_data(oi) + i * ond;
    if (gnd > 0) memcpy(row, o->keys + i * gnd, (size_t)gnd * sizeof(int64_t));
    row[gnd] = o->pos[i];
    if (dt == TF_STRING) {
      TF_TString_Copy((TF_TString*)kutil_data(ov) + i, o->vals[i].s,
                      o->vals[i].n);
    } else if (dt == TF_INT64) {
      ((int64_t*)kutil_data(ov))[i] = o->vals[i].v;
    } else if (dt == TF_INT32) {
      ((int32_t*)kutil_data(ov))[i] = (int32_t)o->vals[i].v;
    } else {
      spv v;
      sp_zero(&v);
      v.i = o->vals[i].v;
      sp_store(dt, kutil_data(ov), i, &v);
    }
  }
  if (gnd > 0) memcpy(oshape, gshape, (size_t)gnd * sizeof(int64_t));
  oshape[gnd] = o->max_size;
  os = sp2_alloc_vec_i64(k, 2, oshape, ond);
  (void)os;
}

/* Flat group index -> coordinates. */
static void unflatten(int64_t g, const int64_t* gshape, int gnd, int64_t* key) {
  int d;
  for (d = gnd - 1; d >= 0; d--) {
    key[d] = gshape[d] ? g % gshape[d] : 0;
    g = gshape[d] ? g / gshape[d] : 0;
  }
}

static void k_dense_to_dense(tfe_kernel_context* k) {
  const TF_Tensor* a = k->inputs[0];
  const TF_Tensor* b = k->inputs[1];
  int op, is_str = a->dtype == TF_STRING;
  int gnd;
  int64_t ngroups, g, la, lb;
  int64_t key[TFE_MAX_DIMS];
  set_elem *ea = NULL, *eb = NULL;
  set_out o;
  memset(&o, 0, sizeof o);
  if (!set_op_from_attr(k, &op)) return;
  if (!group_shape_check(k, a->dims, a->num_dims, b->dims, b->num_dims)) return;
  gnd = a->num_dims - 1;
  o.gnd = gnd;
  ngroups = kutil_dims_prod(a->dims, 0, gnd);
  la = a->dims[gnd];
  lb = b->dims[gnd];
  if (ngroups > 0 && (la > 0 || lb > 0)) {
    ea = (set_elem*)tfe_malloc((size_t)(la > 0 ? la : 1) * sizeof(set_elem));
    eb = (set_elem*)tfe_malloc((size_t)(lb > 0 ? lb : 1) * sizeof(set_elem));
    if (ea == NULL || eb == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in set operation");
      goto done;
    }
  }
  for (g = 0; g < ngroups && (la > 0 || lb > 0); g++) {
    int64_t i, na, nb;
    for (i = 0; i < la; i++) load_elem(a, g * la + i, &ea[i]);
    for (i = 0; i < lb; i++) load_elem(b, g * lb + i, &eb[i]);
    na = sort_unique(is_str, ea, la);
    nb = sort_unique(is_str, eb, lb);
    unflatten(g, a->dims, gnd, key);
    if (!apply_op(op, is_str, ea, na, eb, nb, key, &o)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in set operation");
      goto done;
    }
  }
  write_result(k, a->dtype, &o, a->dims, gnd);
done:
  tfe_free(ea);
  tfe_free(eb);
  out_free(&o);
}

static void k_dense_to_sparse(tfe_kernel_context* k) {
  const TF_Tensor* a = k->inputs[0];
  int op, is_str = a->dtype == TF_STRING;
  int validate = kutil_attr_bool(k, "validate_indices", 1);
  int gnd;
  int64_t ngroups, g, la, r = 0;
  int64_t key[TFE_MAX_DIMS];
  set_elem *ea = NULL, *eb = NULL;
  sp_set s;
  set_out o;
  memset(&o, 0, sizeof o);
  if (!set_op_from_attr(k, &op)) return;
  if (!read_sparse_set(k, 1, validate, &s)) return;
  if (!group_shape_check(k, a->dims, a->num_dims, s.shape, s.nd)) return;
  gnd = a->num_dims - 1;
  o.gnd = gnd;
  ngroups = kutil_dims_prod(a->dims, 0, gnd);
  la = a->dims[gnd];
  ea = (set_elem*)tfe_malloc((size_t)(la > 0 ? la : 1) * sizeof(set_elem));
  eb = (set_elem*)tfe_malloc((size_t)(s.nnz > 0 ? s.nnz : 1) * sizeof(set_elem));
  if (ea == NULL || eb == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in set operation");
    goto done;
  }
  for (g = 0; g < ngroups; g++) {
    int64_t i, na, nb = 0;
    for (i = 0; i < la; i++) load_elem(a, g * la + i, &ea[i]);
    na = sort_unique(is_str, ea, la);
    unflatten(g, a->dims, gnd, key);
    if (r < s.nnz &&
        memcmp(s.ix + r * s.nd, key, (size_t)gnd * sizeof(int64_t)) == 0) {
      int64_t e = group_end(&s, r);
      if (!load_sparse_group(k, &s, r, e, eb)) goto done;
      nb = sort_unique(is_str, eb, e - r);
      r = e;
    }
    if (!apply_op(op, is_str, ea, na, eb, nb, key, &o)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in set operation");
      goto done;
    }
  }
  write_result(k, a->dtype, &o, a->dims, gnd);
done:
  tfe_free(ea);
  tfe_free(eb);
  out_free(&o);
}

static void k_sparse_to_sparse(tfe_kernel_context* k) {
  int op, is_str;
  int validate = kutil_attr_bool(k, "validate_indices", 1);
  int gnd;
  int64_t r1 = 0, r2 = 0;
  set_elem *ea = NULL, *eb = NULL;
  sp_set s1, s2;
  set_out o;
  memset(&o, 0, sizeof o);
  if (!set_op_from_attr(k, &op)) return;
  if (!read_sparse_set(k, 0, validate, &s1)) return;
  if (!read_sparse_set(k, 3, validate, &s2)) return;
  if (!group_shape_check(k, s1.shape, s1.nd, s2.shape, s2.nd)) return;
  is_str = s1.vals->dtype == TF_STRING;
  gnd = s1.nd - 1;
  o.gnd = gnd;
  ea = (set_elem*)tfe_malloc((size_t)(s1.nnz > 0 ? s1.nnz : 1) * sizeof(set_elem));
  eb = (set_elem*)tfe_malloc((size_t)(s2.nnz > 0 ? s2.nnz : 1) * sizeof(set_elem));
  if (ea == NULL || eb == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in set operation");
    goto done;
  }
  while (r1 < s1.nnz || r2 < s2.nnz) {
    int64_t c = 0, na = 0, nb = 0;
    const int64_t* key = NULL;
    if (r1 >= s1.nnz) {
      c = 1;
    } else if (r2 >= s2.nnz) {
      c = -1;
    } else {
      int d;
      for (d = 0; d < gnd && c == 0; d++) {
        int64_t x = s1.ix[r1 * s1.nd + d], y = s2.ix[r2 * s2.nd + d];
        c = x < y ? -1 : (x > y ? 1 : 0);
      }
    }
    if (c <= 0) {
      int64_t e = group_end(&s1, r1);
      if (!load_sparse_group(k, &s1, r1, e, ea)) goto done;
      na = sort_unique(is_str, ea, e - r1);
      key = s1.ix + r1 * s1.nd;
      r1 = e;
    }
    if (c >= 0) {
      int64_t e = group_end(&s2, r2);
      if (!load_sparse_group(k, &s2, r2, e, eb)) goto done;
      nb = sort_unique(is_str, eb, e - r2);
      key = s2.ix + r2 * s2.nd;
      r2 = e;
    }
    if (!apply_op(op, is_str, ea, na, eb, nb, key, &o)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in set operation");
      goto done;
    }
  }
  write_result(k, s1.vals->dtype, &o, s1.shape, gnd);
done:
  tfe_free(ea);
  tfe_free(eb);
  out_free(&o);
}

static void k_set_size(tfe_kernel_context* k) {
  int validate = kutil_attr_bool(k, "validate_indices", 1);
  int is_str;
  int gnd, d;
  int64_t r = 0, total;
  int64_t strides[TFE_MAX_DIMS];
  set_elem* e = NULL;
  sp_set s;
  TF_Tensor* out;
  if (!read_sparse_set(k, 0, validate, &s)) return;
  is_str = s.vals->dtype == TF_STRING;
  gnd = s.nd - 1;
  out = tfe_kernel_alloc_output(k, 0, TF_INT32, s.shape, gnd);
  if (out == NULL) return;
  total = kutil_num_elements(out);
  if (total > 0) memset(kutil_data(out), 0, (size_t)total * sizeof(int32_t));
  {
    int64_t p = 1;
    for (d = gnd - 1; d >= 0; d--) {
      strides[d] = p;
      p *= s.shape[d];
    }
  }
  e = (set_elem*)tfe_malloc((size_t)(s.nnz > 0 ? s.nnz : 1) * sizeof(set_elem));
  if (e == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in SetSize");
    return;
  }
  while (r < s.nnz) {
    int64_t end = group_end(&s, r), n, idx = 0;
    if (!load_sparse_group(k, &s, r, end, e)) break;
    n = sort_unique(is_str, e, end - r);
    for (d = 0; d < gnd; d++) idx += s.ix[r * s.nd + d] * strides[d];
    if (idx < 0 || idx >= total) {
      kutil_shape_buf b1;
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Index out of range, vs %s",
                 kutil_tshape(out, &b1));
      break;
    }
    ((int32_t*)kutil_data(out))[idx] = (int32_t)n;
    r = end;
  }
  tfe_free(e);
}

void tfe_register_cpu_sparse2_set_kernels(void) {
  static const TF_DataType st[] = {TF_INT8,  TF_INT16,  TF_INT32, TF_INT64,
                                   TF_UINT8, TF_UINT16, TF_STRING};
  tfe_kutil_register("DenseToDenseSetOperation", k_dense_to_dense, "T", st, 7,
                     NULL, NULL, 0);
  tfe_kutil_register("DenseToSparseSetOperation", k_dense_to_sparse, "T", st,
                     7, NULL, NULL, 0);
  tfe_kutil_register("SparseToSparseSetOperation", k_sparse_to_sparse, "T", st,
                     7, NULL, NULL, 0);
  tfe_kutil_register("SetSize", k_set_size, "T", st, 7, NULL, NULL, 0);
}
