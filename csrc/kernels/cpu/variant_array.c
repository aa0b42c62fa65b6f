/* CPU kernels for T=variant of the data-movement ops that TensorFlow 2.21
 * registers for DT_VARIANT on CPU (Pack, Unpack, GatherV2, GatherNd,
 * Select, SelectV2, Tile, StridedSlice, Fill, Transpose, Split, SplitV,
 * BroadcastTo, DepthToSpace, SpaceToDepth,
 * DynamicPartition, DynamicStitch, ParallelDynamicStitch, OneHot, Roll,
 * StatelessShuffle, StridedSliceGrad, Gather and the sparse reorders,
 * slices, splits, concat and fill).
 *
 * None of these ops looks at element values, only moves them. So instead
 * of a second implementation of each, a variant input is replaced by an
 * int64 tensor of the same shape whose elements number the input's
 * objects; the op's own int64 kernel runs on those, and each int64 output
 * is turned back into a variant tensor by looking the numbers up, taking a
 * reference to each object (variant elements are refcounted pointers and
 * are never copied without one). Numbers start at 1: an int64 zero in an
 * output is a position the op filled with "zero" (StridedSliceGrad's
 * untouched elements, DynamicStitch's uncovered rows), which TF leaves as
 * an empty variant, here a NULL slot. Shape checks and error messages are
 * therefore exactly the ones of the plain kernels. */
#include <string.h>

#include "core/variant.h"
#include "kernels/cpu/kutil.h"
#include "kernels/kernel.h"

void tfe_register_variant_array_kernels(void);

#define MAX_IO 64

/* The type attr that is DT_VARIANT ("T" or "Tparams"), or NULL. */
static const char* variant_attr(const tfe_kernel_context* k) {
  static const char* const names[] = {"T", "Tparams"};
  size_t i;
  for (i = 0; i < sizeof names / sizeof names[0]; i++) {
    TF_DataType t;
    if (k->attrs != NULL && tfe_attrs_get_type(k->attrs, names[i], &t, NULL) &&
        t == TF_VARIANT) {
      return names[i];
    }
  }
  return NULL;
}

/* An int64 tensor shaped like `like` holding base, base + 1, ... */
static TF_Tensor* numbering(const TF_Tensor* like, int64_t base,
                            TF_Status* s) {
  int64_t n = kutil_num_elements(like), i;
  TF_Tensor* t = TF_AllocateTensor(TF_INT64, like->dims, like->num_dims,
                                   (size_t)n * sizeof(int64_t));
  if (t == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  for (i = 0; i < n; i++) ((int64_t*)t->buf->data)[i] = base + i;
  return t;
}

/* A variant tensor shaped like `nums` whose element i is table[nums[i] - 1]
 * (a new reference), or empty (NULL) where nums[i] is 0. */
static TF_Tensor* lookup(const TF_Tensor* nums, tfe_variant* const* table,
                         int64_t table_size, TF_Status* s) {
  int64_t n = kutil_num_elements(nums), i;
  TF_Tensor* t = TF_AllocateTensor(TF_VARIANT, nums->dims, nums->num_dims, 0);
  tfe_variant** slots = tfe_variant_slots(t);
  if (t == NULL || (slots == NULL && n > 0)) {
    TF_DeleteTensor(t);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  for (i = 0; i < n; i++) {
    int64_t j = ((const int64_t*)nums->buf->data)[i] - 1;
    if (j == -1) continue; /* already NULL: an empty variant */
    if (j < 0 || j >= table_size) {
      TF_DeleteTensor(t);
      tfe_status_setf(s, TF_INTERNAL,
                      "variant kernel: element number %lld out of range",
                      (long long)j);
      return NULL;
    }
    slots[i] = table[j];
    tfe_variant_ref(slots[i]);
  }
  return t;
}

static void k_variant_by_number(tfe_kernel_context* k) {
  const char* attr = variant_attr(k);
  TF_Tensor* ins[MAX_IO];
  TF_Tensor* outs[MAX_IO];
  TF_DataType out_types[MAX_IO];
  int owned[MAX_IO];
  tfe_variant** table = NULL;
  int64_t total = 0;
  tfe_attrs attrs;
  tfe_attr_value tv;
  const tfe_kernel_reg* reg;
  tfe_kernel_context sub;
  int i;
  memset(ins, 0, sizeof ins);
  memset(outs, 0, sizeof outs);
  memset(owned, 0, sizeof owned);
  tfe_attrs_init(&attrs);
  if (attr == NULL || k->num_inputs > MAX_IO || k->num_outputs > MAX_IO) {
    KUTIL_FAIL(k, TF_INTERNAL, "%s: no variant kernel for these arguments",
               k->op_def != NULL ? k->op_def->name : "op");
    return;
  }
  /* Number every object of every variant input, in input order. */
  for (i = 0; i < k->num_inputs; i++) {
    const TF_Tensor* t = k->inputs[i];
    int64_t n;
    if (t->dtype != TF_VARIANT) continue;
    n = kutil_num_elements(t);
    if (n > 0 && tfe_variant_slots(t) == NULL) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "%s: input %d is a DT_VARIANT tensor without variant objects",
                 k->op_def->name, i);
      return;
    }
    total += n;
  }
  table = (tfe_variant**)tfe_calloc((size_t)(total > 0 ? total : 1),
                                    sizeof(tfe_variant*));
  if (table == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  total = 0;
  for (i = 0; i < k->num_inputs; i++) {
    TF_Tensor* t = k->inputs[i];
    int64_t n;
    if (t->dtype != TF_VARIANT) {
      ins[i] = t;
      continue;
    }
    n = kutil_num_elements(t);
    if (n > 0) {
      memcpy(table + total, tfe_variant_slots(t),
             sizeof(tfe_variant*) * (size_t)n);
    }
    ins[i] = numbering(t, total + 1, k->status);
    if (ins[i] == NULL) goto done;
    owned[i] = 1;
    total += n;
  }
  for (i = 0; i < k->num_outputs; i++) {
    out_types[i] = k->output_types != NULL ? k->output_types[i] : TF_INT64;
    if (out_types[i] == TF_VARIANT) out_types[i] = TF_INT64;
  }
  memset(&tv, 0, sizeof tv);
  tfe_attr_value_set_type(&tv, TF_INT64);
  if (!tfe_attrs_merge(&attrs, k->attrs) || !tfe_attrs_put(&attrs, attr, &tv)) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    goto done;
  }
  reg = tfe_kernel_find(k->op_def, "CPU", &attrs, k->status);
  if (reg == NULL) goto done;
  sub = *k;
  sub.attrs = &attrs;
  sub.inputs = ins;
  sub.outputs = outs;
  sub.output_types = out_types;
  sub.state = NULL;
  sub.user_data = reg->user_data;
  sub.input_refs = NULL;
  sub.output_refs = NULL;
  sub.forwardable = 0; /* the inner kernel sees rewritten inputs */
  sub.forwarded = 0;
  if (reg->create != NULL) {
    sub.state = reg->create(k->op_def, &attrs, reg->user_data, k->status);
    if (!KUTIL_OK(k)) goto done;
  }
  reg->compute(&sub);
  if (reg->destroy != NULL) reg->destroy(sub.state, reg->user_data);
  if (!KUTIL_OK(k)) goto done;
  for (i = 0; i < k->num_outputs; i++) {
    TF_Tensor* o = outs[i];
    if (o == NULL) continue;
    if (k->output_types != NULL && k->output_types[i] == TF_VARIANT) {
      TF_Tensor* v = lookup(o, table, total, k->status);
      if (v == NULL) goto done;
      tfe_kernel_set_output(k, i, v);
    } else {
      tfe_kernel_set_output(k, i, o);
      outs[i] = NULL;
    }
  }
done:
  for (i = 0; i < k->num_outputs; i++) TF_DeleteTensor(outs[i]);
  for (i = 0; i < k->num_inputs; i++) {
    if (owned[i]) TF_DeleteTensor(ins[i]);
  }
  tfe_attrs_destroy(&attrs);
  tfe_free(table);
}

/* TF registers ConjugateTranspose for DT_VARIANT on CPU, but its kernel
 * rejects the dtype when it runs; this one does the same. */
static void k_conjugate_transpose_variant(tfe_kernel_context* k) {
  KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Unsupported dtype on CPU: %d",
             (int)TF_VARIANT);
}

void tfe_register_variant_array_kernels(void) {
  static const TF_DataType variant[] = {TF_VARIANT};
  static const char* const t_ops[] = {
      "Pack", "Unpack", "Select", "SelectV2", "Tile", "StridedSlice",
      "Fill", "Transpose", "Split", "SplitV", "BroadcastTo",
      "DepthToSpace", "SpaceToDepth",
      "DynamicPartition", "DynamicStitch", "ParallelDynamicStitch", "OneHot",
      "Roll", "StatelessShuffle", "StridedSliceGrad", "SparseConcat",
      "SparseFillEmptyRows", "SparseReorder", "SparseSlice", "SparseSplit"};
  static const char* const tparams_ops[] = {"GatherV2", "GatherNd", "Gather"};
  size_t i;
  for (i = 0; i < sizeof t_ops / sizeof t_ops[0]; i++) {
    tfe_kutil_register(t_ops[i], k_variant_by_number, "T", variant, 1, NULL,
                       NULL, 0);
  }
  tfe_kutil_register("ConjugateTranspose", k_conjugate_transpose_variant, "T",
                     variant, 1, NULL, NULL, 0);
  for (i = 0; i < sizeof tparams_ops / sizeof tparams_ops[0]; i++) {
    tfe_kutil_register(tparams_ops[i], k_variant_by_number, "Tparams",
                       variant, 1, NULL, NULL, 0);
  }
}
