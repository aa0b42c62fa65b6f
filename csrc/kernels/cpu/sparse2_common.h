/* Shared by the sparse2 kernel group (csrc/kernels/cpu/sparse2_*.c): TF's
 * sparse-tensor validation (ValidateSparseTensor's checks and messages),
 * index-row rendering and small output helpers. The sparse value helpers
 * (spv, sp_load/sp_store, sp_cmp_rows, tfe_sparse_sort_rows) come from the
 * sparse group's sparse_common.h. */
#ifndef TFE_KERNELS_CPU_SPARSE2_COMMON_H_
#define TFE_KERNELS_CPU_SPARSE2_COMMON_H_

#include <stddef.h>
#include <stdint.h>

#include "kernels/cpu/sparse_common.h"

/* How much of the indices sp2_validate checks after the shapes. */
enum {
  SP2_VALIDATE_NONE = 0,    /* shapes only */
  SP2_VALIDATE_BOUNDS = 1,  /* every index inside the dense shape */
  SP2_VALIDATE_ORDERED = 2  /* and strictly increasing rows */
};

/* Checks a sparse tensor given as (indices [nnz, ndims] int64, values
 * [nnz], shape [ndims] int64) the way TF's ValidateSparseTensor does, with
 * its messages (INVALID_ARGUMENT). Returns 1 when valid, else 0 with
 * k->status set. */
int sp2_validate(tfe_kernel_context* k, const TF_Tensor* ind,
                 const TF_Tensor* vals, const TF_Tensor* shape, int mode);

/* The checks TF's SparseTensor::Create makes on indices and values for a
 * tensor of the given rank (messages "vals must be a vec, ...", "indices
 * and values rows ...", "Order length must be SparseTensor rank."). */
int sp2_create_check(tfe_kernel_context* k, const TF_Tensor* ind,
                     const TF_Tensor* vals, int64_t rank);

/* TF's SparseTensor::IndicesValid: every row inside shape and rows
 * strictly increasing ("indices[i] = [..] is out of bounds: need 0 <=
 * index < [..]", "... is out of order. ...", "... is repeated"). */
int sp2_indices_valid(tfe_kernel_context* k, const int64_t* ix, int64_t nnz,
                      int nd, const int64_t* shape);

/* The bounds half of sp2_indices_valid: every row inside shape ("indices[i]
 * = [..] is out of bounds: need 0 <= index < [..]"). */
int sp2_indices_in_bounds(tfe_kernel_context* k, const int64_t* ix,
                          int64_t nnz, int nd, const int64_t* shape);

/* Marks the reduction axes ax (int32/int64 scalar or vector, negative ones
 * counted from the end) in reduced[0..nd), cleared first; TF's "Invalid
 * reduction dimension d, for input with nd dimensions." for one out of
 * range. nd <= TFE_MAX_DIMS. */
int sp2_reduction_axes(tfe_kernel_context* k, const TF_Tensor* ax, int64_t nd,
                       unsigned char* reduced);

/* "[a, b, c]" (TF's rendering of an index tuple) into buf; returns buf. */
const char* sp2_row_str(const int64_t* row, int nd, char* buf, size_t cap);

/* Allocates output `index` as an int64 vector holding v[0..n). */
TF_Tensor* sp2_alloc_vec_i64(tfe_kernel_context* k, int index,
                             const int64_t* v, int64_t n);

/* Registration of the group's other files (called from sparse2_kernels.c). */
void tfe_register_cpu_sparse2_more_kernels(void);
void tfe_register_cpu_sparse2_set_kernels(void);
void tfe_register_cpu_sparse2_cross_kernels(void);
void tfe_register_cpu_sparse2_count_kernels(void);
void tfe_register_cpu_sparse2_misc_kernels(void);

#endif /* TFE_KERNELS_CPU_SPARSE2_COMMON_H_ */
