/* Building blocks for gradient functions (grad_util.c), shared by the
 * built-in gradient files (grad_math.c, grad_array.c, grad_nn.c).
 *
 * Every helper takes the status last and does nothing when it already
 * holds an error, so a gradient function can chain calls and check once;
 * tensors returned are the caller's (TF_DeleteAbstractTensor). Ops are
 * built on the gradient's execution context: run at once on an eager
 * tape, added as uniquely named nodes when traced (TF_AddGradients). */
#ifndef TFE_EAGER_GRAD_UTIL_H_
#define TFE_EAGER_GRAD_UTIL_H_

#include <stdint.h>

#include "eager/tape.h"

/* A new op of `type` on g's context (named when traced), or NULL. */
TF_AbstractOp* gu_new_op(TFE_GradientContext* g, const char* type, TF_Status* s);
/* Runs op (its inputs and attrs already set) and returns output `which`;
 * frees op and the other outputs. */
TF_AbstractTensor* gu_finish(TF_AbstractOp* op, int which, TF_Status* s);
/* type(a) and type(a, b) for one-output ops without attrs to set. */
TF_AbstractTensor* gu_call1(TFE_GradientContext* g, const char* type, TF_AbstractTensor* a,
                            TF_Status* s);
TF_AbstractTensor* gu_call2(TFE_GradientContext* g, const char* type, TF_AbstractTensor* a,
                            TF_AbstractTensor* b, TF_Status* s);
/* Sets input i's gradient to t (taken over; NULL leaves it unset). */
void gu_give(TFE_GradientContext* g, int i, TF_AbstractTensor* t, TF_Status* s);
int gu_is_complex(TF_AbstractTensor* t, TF_Status* s);
/* conj(t) for complex values, a new reference to t otherwise. */
TF_AbstractTensor* gu_conj(TFE_GradientContext* g, TF_AbstractTensor* t, TF_Status* s);
/* 1 when a and b have the same fully known shape. */
int gu_same_shape(TF_AbstractTensor* a, TF_AbstractTensor* b, TF_Status* s);
/* grad (taken over) summed over the dimensions broadcasting added to
 * input `which` (0 or 1) of a binary op, in that input's shape. */
TF_AbstractTensor* gu_unbroadcast(TFE_GradientContext* g, TF_AbstractTensor* grad, int which,
                                  TF_Status* s);
/* The gradient flowing into output 0 (borrowed; NULL when none). */
TF_AbstractTensor* gu_upstream(TFE_GradientContext* g);
/* An int32 vector constant of n values. */
TF_AbstractTensor* gu_const_i32(TFE_GradientContext* g, const int32_t* v, int n, TF_Status* s);
/* Cast(x, DstT=dt). */
TF_AbstractTensor* gu_cast(TFE_GradientContext* g, TF_AbstractTensor* x, TF_DataType dt,
                           TF_Status* s);

/* Registration of one built-in gradient (fn NULL: not differentiable);
 * 0 on allocation failure. */
int tfe_grad_register_builtin(const char* op_type, TFE_GradientFunction fn);

/* The gradient groups of grad_array.c and grad_nn.c (called by
 * tfe_grad_register_builtins); 0 on allocation failure. */
int tfe_grad_register_array(void);
int tfe_grad_register_nn(void);
int tfe_grad_register_func(void);
/* The gradient of a call of a library function (an op whose type is the
 * function's name; grad_func.c): used by the tape and TF_AddGradients when
 * the registry does not know the type but the context's or graph's
 * function library has a function of that name. */
void tfe_grad_function_call(TFE_GradientContext* g, TF_Status* s);
/* The gradient of a graph node carrying a custom gradient (a
 * TFE_CUSTOM_GRAD_FN_ATTR func attr; tfe_py.custom_gradient traced into a
 * graph; grad_func.c): used by TF_AddGradients instead of the registry's. */
#define TFE_CUSTOM_GRAD_FN_ATTR "_tfe_custom_grad_fn"
void tfe_grad_custom_node(TFE_GradientContext* g, TF_Status* s);
/* TF_AddGradientsWithPrefix where a source the targets do not reach gets
 * {NULL, -1} instead of an error (gradients.c; for grad_func.c). */
void tfe_add_gradients_lenient(TF_Graph* g, const char* prefix, TF_Output* y, int ny,
                               TF_Output* x, int nx, TF_Output* dx, TF_Status* status,
                               TF_Output* dy);
int tfe_grad_register_nn_extra(void);
int tfe_grad_register_more(void);
int tfe_grad_register_linalg(void);
int tfe_grad_register_sparse(void);
int tfe_grad_register_quant(void);
int tfe_grad_register_more2(void);
int tfe_grad_register_more3(void);
int tfe_grad_register_more4(void);
int tfe_grad_register_more5(void);

#endif /* TFE_EAGER_GRAD_UTIL_H_ */
