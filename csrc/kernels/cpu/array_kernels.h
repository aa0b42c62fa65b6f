/* Internal interface between the array/reduction/matmul kernel files
 * (csrc/kernels/cpu/array_*.c, reduce_*.c, matmul*.c): one registration
 * function per file, called by tfe_register_cpu_array_kernels
 * (register_array.c), plus helpers shared between files. */
#ifndef TFE_KERNELS_CPU_ARRAY_KERNELS_H_
#define TFE_KERNELS_CPU_ARRAY_KERNELS_H_

#include <stdint.h>

#include "kernels/kernel.h"

void tfe_register_array_basic_kernels(void);     /* array_basic.c */
void tfe_register_array_concat_kernels(void);    /* array_concat.c */
void tfe_register_array_transpose_kernels(void); /* array_transpose.c */
void tfe_register_array_slice_kernels(void);     /* array_slice.c */
void tfe_register_array_pad_kernels(void);       /* array_pad.c */
void tfe_register_array_gather_kernels(void);    /* array_gather.c */
void tfe_register_array_misc_kernels(void);      /* array_misc.c */
void tfe_register_reduce_kernels(void);          /* reduce_ops.c */
void tfe_register_reduce_index_kernels(void);    /* reduce_index.c */
void tfe_register_reduce_nn_kernels(void);       /* reduce_nn.c */
void tfe_register_matmul_kernels(void);          /* matmul.c */

/* Output `out` shares input `in`'s buffer with a new shape. Returns the
 * output or NULL with k->status set. */
TF_Tensor* tfe_kutil_forward(tfe_kernel_context* k, int out, int in,
                             const int64_t* dims, int nd);

/* Fills every element of y with the scalar at src (same dtype as y). */
void tfe_kutil_fill(TF_Tensor* y, const void* src);

/* Checks Transpose's `perm` input pt against x as TF does (rank 1, one
 * entry per dim, each in range and used once; TF's messages) and fills
 * perm, the output dims and *identity (1 when only size-1 dims move).
 * Returns 0 with k's status set on a bad perm. In array_transpose.c. */
int tfe_kutil_transpose_perm(tfe_kernel_context* k, const TF_Tensor* x,
                             const TF_Tensor* pt, int* perm, int64_t* odims,
                             int* identity);

/* Permutes a dense row-major array of `nd` dims (elements of esz bytes;
 * strings deep-copied when dt is TF_STRING): dst has dims
 * in_dims[perm[0]], ..., in_dims[perm[nd-1]]. */
void tfe_kutil_transpose(TF_DataType dt, size_t esz, const void* src,
                         const int64_t* in_dims, const int* perm, int nd,
                         void* dst);

/* Strided copy: dst (dims out_dims) element (i0..ik) = src (dims in_dims)
 * element (begin[0] + i0*stride[0], ...). Strides may be negative. */
void tfe_kutil_strided_copy(TF_DataType dt, size_t esz, const void* src,
                            const int64_t* in_dims, int nd,
                            const int64_t* begin, const int64_t* stride,
                            const int64_t* out_dims, void* dst);

/* StridedSlice's slice spec resolved against an input of dims in_dims[nd]
 * (begin/end/strides tensors bt, et, st and the *_mask attrs of k), with
 * StridedSlice's checks and messages (failures set k->status, return 0).
 * On success: begin[d], stride[d] and proc[d] (size) per input dim, and
 * the output dims final_dims[*nfinal] (new axes in, shrunk dims out). */
int tfe_strided_slice_spec(tfe_kernel_context* k, const int64_t* in_dims,
                           int nd, const TF_Tensor* bt, const TF_Tensor* et,
                           const TF_Tensor* st, int64_t* begin,
                           int64_t* stride, int64_t* proc,
                           int64_t* final_dims, int* nfinal);

/* GatherNd of params p by indices ix into output 0 of k, with GatherNd's
 * checks and messages (its bad_indices_policy attr included); also run by
 * ResourceGatherNd on a variable's value. */
void tfe_gather_nd_compute(tfe_kernel_context* k, const TF_Tensor* p,
                           const TF_Tensor* ix);

#endif /* TFE_KERNELS_CPU_ARRAY_KERNELS_H_ */
