/* Helpers shared by the neural-network kernels (csrc/kernels/cpu/nn_*.c):
 * reading the window attrs (strides, dilations, padding, explicit
 * paddings) with TensorFlow's checks and messages, output sizes for
 * SAME/VALID/EXPLICIT padding, widening half/bfloat16/int32 tensors to a
 * float or double work buffer and back, and one GEMM entry point that
 * uses the loaded BLAS or the built-in GEMM. */
#ifndef TFE_KERNELS_CPU_NN_COMMON_H_
#define TFE_KERNELS_CPU_NN_COMMON_H_

#include <stdint.h>

#include "kernels/kernel.h"

typedef enum { NN_PAD_SAME, NN_PAD_VALID, NN_PAD_EXPLICIT } nn_padding;

/* Window geometry of a 2-D op in NHWC. */
typedef struct nn_window {
  int64_t stride_h, stride_w;
  int64_t dil_h, dil_w;
  nn_padding padding;
  int64_t pad_top, pad_bottom, pad_left, pad_right; /* EXPLICIT only */
} nn_window;

/* Reads strides/dilations/padding/explicit_paddings/data_format with the
 * checks of TF's Conv2D (messages and codes). `op` names the op in the
 * data_format error. Returns 0 with k->status set on failure. */
int nn_read_conv_window(tfe_kernel_context* k, const char* op, nn_window* w,
                        int check_dilations);

/* Output size and leading padding of one spatial dim (TF's
 * GetWindowedOutputSizeVerbose). INVALID_ARGUMENT when negative. */
int nn_out_size(tfe_kernel_context* k, int64_t in, int64_t ksize,
                int64_t dilation, int64_t stride, nn_padding pad,
                int64_t explicit_before, int64_t explicit_after,
                int64_t* out, int64_t* pad_before);

/* Work type of a tensor dtype: 1 = double (double, int32, int64),
 * 0 = float (float, half, bfloat16). */
int nn_work_is_double(TF_DataType dt);

/* A float/double copy of t's elements (no copy for float / double: then
 * *owned is 0 and the result points into t). NULL on OOM. */
void* nn_to_work(const TF_Tensor* t, int is_double, int* owned);

/* Stores n work values into t's buffer (conversion to t's dtype; integer
 * results are rounded to nearest). */
void nn_from_work(TF_Tensor* t, const void* work, int is_double, int64_t n);

/* Row-major C[M,N] = op(A) op(B) in float or double: BLAS when loaded,
 * else the built-in GEMM. Returns 0 on OOM. */
int nn_gemm(int is_double, int ta, int tb, int64_t M, int64_t N, int64_t K,
            const void* A, int64_t lda, const void* B, int64_t ldb, void* C,
            int64_t ldc);

/* 1 when a BLAS is loaded (its own threads then do the parallel work). */
int nn_have_blas(void);

/* float exp, log and row sums as TensorFlow's x86-64 CPU build computes
 * them, so that Softmax and the cross-entropy kernels print TF's digits.
 * TF's Eigen evaluates 8-wide packets with its own polynomial exp/log
 * (multiply and add rounded separately: the build has no FMA) and the
 * elements left over after the last whole packet with the C library's
 * expf/logf. nn_tf_expf_packet/nn_tf_logf_packet are the packet versions,
 * one lane at a time; nn_tf_expf/nn_tf_logf pick the packet or the libm
 * form from the element's position (index < packet_end: packet form).
 * nn_tf_sumf adds v[0..n) in the order of Eigen's inner-most-dimension
 * sum reducer (four 8-lane accumulators over blocks of 32, then whole
 * packets, the tail added one by one, then the lanes folded); first is
 * the flat index of v[0], which sets where rows of more than 8192 values
 * are split in halves. */
float nn_tf_expf_packet(float x);
float nn_tf_logf_packet(float x);
float nn_tf_expf(float x, int64_t index, int64_t packet_end);
float nn_tf_logf(float x, int64_t index, int64_t packet_end);
float nn_tf_sumf(const float* v, int64_t first, int64_t n);
/* y[i] = nn_tf_expf(x[i], first + i, packet_end) for i < n, vectorized;
 * x and y must not overlap. */
void nn_tf_exp_span(const float* x, float* y, int64_t n, int64_t first, int64_t packet_end);

#endif /* TFE_KERNELS_CPU_NN_COMMON_H_ */
