/* Comparisons producing bool: Equal, NotEqual (every dtype TF registers,
 * including bool, complex, string and the quantized integers), Less,
 * LessEqual, Greater, GreaterEqual (real numbers). Floats compare as IEEE
 * values: NaN is unequal to everything, -0 equals +0. Equal and NotEqual
 * honour incompatible_shape_error=false by returning a scalar false / true
 * for shapes that do not broadcast. */
#include <string.h>

#include "kernels/cpu/elementwise_common.h"
#include "tensorflow/c/tf_tstring.h"

static inline int ew_tstr_equal(const TF_TString* a, const TF_TString* b) {
  size_t na = TF_TString_GetSize(a), nb = TF_TString_GetSize(b);
  return na == nb &&
         (na == 0 ||
          memcmp(TF_TString_GetDataPointer(a), TF_TString_GetDataPointer(b),
                 na) == 0);
}

#define CMP_I(OP, sfx, T, U, DT) \
  TFE_EW_BIN_##sfx(OP##_##sfx, T, uint8_t, T, TFE_EW_ID, TFE_EW_ID, EW_CMP(x, y))
#define CMP_F(OP, sfx, T, TC, LD, ST, DT) \
  TFE_EW_BIN_##sfx(OP##_##sfx, T, uint8_t, TC, LD, TFE_EW_ID, EW_CMP(x, y))
#define CMP_C(OP, sfx, T, R, DT) \
  TFE_EW_BINARY_T(OP##_##sfx, T, uint8_t, T, TFE_EW_ID, TFE_EW_ID, EW_CMP(x, y))

/* The range functions are generated once per comparison by redefining
 * EW_CMP between instantiations. */
#define EW_CMP(x, y) (x == y)
TFE_EW_SINTS(CMP_I, eq)
TFE_EW_UINTS(CMP_I, eq)
TFE_EW_FLOATS(CMP_F, eq)
TFE_EW_CPLX(CMP_C, eq)
TFE_EW_BINARY_T(eq_bool, uint8_t, uint8_t, uint8_t, TFE_EW_ID, TFE_EW_ID,
                (x != 0) == (y != 0))
TFE_EW_BINARY_T(eq_str, TF_TString, uint8_t, TF_TString, TFE_EW_ID, TFE_EW_ID,
                ew_tstr_equal(&x, &y))
#undef EW_CMP

#define EW_CMP(x, y) (x != y)
TFE_EW_SINTS(CMP_I, ne)
TFE_EW_UINTS(CMP_I, ne)
TFE_EW_FLOATS(CMP_F, ne)
TFE_EW_CPLX(CMP_C, ne)
TFE_EW_BINARY_T(ne_bool, uint8_t, uint8_t, uint8_t, TFE_EW_ID, TFE_EW_ID,
                (x != 0) != (y != 0))
TFE_EW_BINARY_T(ne_str, TF_TString, uint8_t, TF_TString, TFE_EW_ID, TFE_EW_ID,
                !ew_tstr_equal(&x, &y))
#undef EW_CMP

#define EW_CMP(x, y) (x < y)
TFE_EW_SINTS(CMP_I, lt)
TFE_EW_UINTS(CMP_I, lt)
TFE_EW_FLOATS(CMP_F, lt)
#undef EW_CMP

#define EW_CMP(x, y) (x <= y)
TFE_EW_SINTS(CMP_I, le)
TFE_EW_UINTS(CMP_I, le)
TFE_EW_FLOATS(CMP_F, le)
#undef EW_CMP

#define EW_CMP(x, y) (x > y)
TFE_EW_SINTS(CMP_I, gt)
TFE_EW_UINTS(CMP_I, gt)
TFE_EW_FLOATS(CMP_F, gt)
#undef EW_CMP

#define EW_CMP(x, y) (x >= y)
TFE_EW_SINTS(CMP_I, ge)
TFE_EW_UINTS(CMP_I, ge)
TFE_EW_FLOATS(CMP_F, ge)
#undef EW_CMP

#define EW_REAL_ENTRIES(OP)                                     \
  TFE_EW_SINTS(TFE_EW_ENT_I, OP) TFE_EW_UINTS(TFE_EW_ENT_I, OP) \
      TFE_EW_FLOATS(TFE_EW_ENT_F, OP)
/* Equality is also registered for bool, complex, string and the quantized
 * integer types (which share the layout of the plain integers). */
#define EW_EQ_ENTRIES(OP)                                                   \
  EW_REAL_ENTRIES(OP) TFE_EW_CPLX(TFE_EW_ENT_C, OP)[TF_BOOL] = OP##_bool,   \
      [TF_STRING] = OP##_str, [TF_QINT8] = OP##_i8, [TF_QUINT8] = OP##_u8,  \
      [TF_QINT16] = OP##_i16, [TF_QUINT16] = OP##_u16, [TF_QINT32] = OP##_i32,

static const tfe_ew_op k_equal = {"Equal", 2, 1, 5, TF_OK, NULL, NULL,
                                  {EW_EQ_ENTRIES(eq)}, 0};
static const tfe_ew_op k_notequal = {"NotEqual", 2, 1, 5, TF_OK, NULL, NULL,
                                     {EW_EQ_ENTRIES(ne)}, 0};
static const tfe_ew_op k_less = {"Less", 2, 1, 5, TF_OK, NULL, NULL,
                                 {EW_REAL_ENTRIES(lt)}, 0};
static const tfe_ew_op k_lessequal = {"LessEqual", 2, 1, 5, TF_OK, NULL, NULL,
                                      {EW_REAL_ENTRIES(le)}, 0};
static const tfe_ew_op k_greater = {"Greater", 2, 1, 5, TF_OK, NULL, NULL,
                                    {EW_REAL_ENTRIES(gt)}, 0};
static const tfe_ew_op k_greaterequal = {"GreaterEqual", 2, 1, 5, TF_OK, NULL,
                                         NULL, {EW_REAL_ENTRIES(ge)}, 0};

/* Equal / NotEqual: with incompatible_shape_error=false, shapes that do not
 * broadcast give a scalar (false for Equal, true for NotEqual) instead of
 * an error. */
static void equality_compute(tfe_kernel_context* k) {
  const tfe_ew_op* op = (const tfe_ew_op*)k->user_data;
  int strict = 1;
  if (k->attrs != NULL) {
    const tfe_attr_value* v =
        tfe_attrs_find(k->attrs, "incompatible_shape_error");
    if (v != NULL && v->type == TF_ATTR_BOOL && !v->is_list) strict = v->v.b;
  }
  if (!strict && tfe_ew_check_inputs(k, 2)) {
    tfe_bcast bc;
    const TF_Tensor* x = k->inputs[0];
    const TF_Tensor* y = k->inputs[1];
    const int64_t* dims[2];
    int ranks[2];
    dims[0] = x->dims;
    dims[1] = y->dims;
    ranks[0] = x->num_dims;
    ranks[1] = y->num_dims;
    if (tfe_bcast_init(&bc, 2, dims, ranks) == TFE_BCAST_INCOMPATIBLE) {
      TF_Tensor* out = tfe_kernel_alloc_output(k, 0, TF_BOOL, NULL, 0);
      if (out != NULL) *(uint8_t*)tfe_ew_data(out) = op == &k_notequal;
      return;
    }
  }
  tfe_ew_compute(k);
}

static void register_equality(const tfe_ew_op* op) {
  TF_DataType types[TFE_EW_NTYPES];
  int n = 0, t;
  for (t = 0; t < TFE_EW_NTYPES; t++) {
    if (op->fns[t] != NULL) types[n++] = (TF_DataType)t;
  }
  tfe_ew_register_fn(op->name, equality_compute, (void*)op, "T", types, n,
                     NULL, NULL, 0);
}

void tfe_ew_register_compare(void) {
  register_equality(&k_equal);
  register_equality(&k_notequal);
  tfe_ew_register(&k_less);
  tfe_ew_register(&k_lessequal);
  tfe_ew_register(&k_greater);
  tfe_ew_register(&k_greaterequal);
}
