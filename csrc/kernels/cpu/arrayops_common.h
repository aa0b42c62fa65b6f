/* Shared pieces of the arrayops kernels (csrc/kernels/cpu/arrayops_*.c):
 * elementwise combining of whole rows for the segment reductions and the
 * tensor scatters, and the registration entry points of each file. */
#ifndef TFE_KERNELS_CPU_ARRAYOPS_COMMON_H_
#define TFE_KERNELS_CPU_ARRAYOPS_COMMON_H_

#include <stdint.h>

#include "tensorflow/c/tf_datatype.h"

/* How a row is folded into an accumulator row. */
typedef enum tfe_ao_kind {
  TFE_AO_SUM = 0,
  TFE_AO_PROD,
  TFE_AO_MAX,
  TFE_AO_MIN,
  TFE_AO_SUB,
  TFE_AO_MAX_KEEP, /* MAX that keeps acc unless src is strictly greater */
  TFE_AO_MIN_KEEP  /* MIN that keeps acc unless src is strictly smaller */
} tfe_ao_kind;

/* acc[i] = acc[i] (op) src[i] for n elements of dtype dt. Integers wrap,
 * half/bfloat16 compute in float and round back after each step, complex
 * values use complex arithmetic. MAX keeps acc only when src < acc (so a
 * NaN in src replaces acc and a NaN in acc is replaced by the next value),
 * MIN the mirror image. MAX_KEEP/MIN_KEEP replace acc only when src
 * compares greater/smaller, so NaN never enters and never leaves (the
 * tensor scatters). Returns 0 for an unsupported dtype/kind. */
int tfe_ao_combine(TF_DataType dt, tfe_ao_kind kind, void* acc,
                   const void* src, int64_t n);

/* Fills n elements with the starting value of a fold: 0 for SUM/SUB, 1 for
 * PROD, the lowest finite value for MAX and the highest for MIN. */
int tfe_ao_fill_identity(TF_DataType dt, tfe_ao_kind kind, void* dst,
                         int64_t n);

/* Fills n elements with zero. */
void tfe_ao_fill_zero(TF_DataType dt, void* dst, int64_t n);

/* acc[i] = acc[i] / count (integer division truncates). */
int tfe_ao_divide(TF_DataType dt, void* acc, int64_t n, int64_t count);

/* Registration, one per file; tfe_register_arrayops_kernels (in
 * arrayops_basic.c) calls the others. */
void tfe_register_arrayops_kernels(void);
void tfe_register_arrayops_segment_kernels(void); /* arrayops_segment.c */
void tfe_register_arrayops_matrix_kernels(void);  /* arrayops_matrix.c */
void tfe_register_arrayops_space_kernels(void);   /* arrayops_space.c */
void tfe_register_arrayops_scatter_kernels(void); /* arrayops_scatter.c */
void tfe_register_arrayops_more_kernels(void);    /* arrayops_more.c */
void tfe_register_arrayops_batch_kernels(void);   /* arrayops_batch.c */
void tfe_register_arrayops_v1_kernels(void);      /* arrayops_v1.c */

#endif /* TFE_KERNELS_CPU_ARRAYOPS_COMMON_H_ */
