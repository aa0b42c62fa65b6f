/* Entry points that register the built-in CPU kernels, one per group.
 * tfe_kernels_ensure_builtins (csrc/kernels/builtin_kernels.c) calls each of
 * them exactly once. */
#ifndef TFE_KERNELS_CPU_CPU_KERNELS_H_
#define TFE_KERNELS_CPU_CPU_KERNELS_H_

/* Elementwise math, comparisons, logical ops, Select, Cast, activations
 * (csrc/kernels/cpu/elementwise_*.c). */
void tfe_register_cpu_elementwise_kernels(void);

/* Array manipulation, reductions and matrix products
 * (csrc/kernels/cpu/array_*.c, reduce_*.c, matmul*.c). */
void tfe_register_cpu_array_kernels(void);

/* nn, random, string and resource kernels (csrc/kernels/cpu/register_extra.c). */
void tfe_register_cpu_extra_kernels(void);

/* Einsum (csrc/kernels/cpu/einsum.c). */
void tfe_register_cpu_einsum_kernels(void);
/* Graph-only ops (graph_kernels.c), v1 control flow (control_flow_kernels.c),
 * function calls and functional control flow (functional_kernels.c) and
 * queues (queue_kernels.c). */
void tfe_register_cpu_graph_kernels(void);
void tfe_register_cpu_control_flow_kernels(void);
void tfe_register_cpu_functional_kernels(void);
void tfe_register_cpu_queue_kernels(void);
void tfe_register_cpu_tensor_array_kernels(void);
/* Issue 15 groups: checkpoint and file ops (io_kernels.c), regular
 * expressions (regex_kernels.c), string processing (text_kernels.c), lookup
 * tables (lookup_kernels.c), image/linalg/random ops (image_kernels.c). */
void tfe_register_cpu_io_kernels(void);
void tfe_register_cpu_regex_kernels(void);
void tfe_register_cpu_text_kernels(void);
void tfe_register_cpu_lookup_kernels(void);
void tfe_register_cpu_image_kernels(void);
/* Issue 16 groups: ops the tf.* Python API needs (array_extra,
 * math_special, nn_extra, random_dist, parsing, signal, linalg_extra). */
void tfe_register_cpu_array_extra_kernels(void);
void tfe_register_cpu_math_special_kernels(void);
void tfe_register_cpu_nn_extra_kernels(void);
void tfe_register_cpu_random_dist_kernels(void);
void tfe_register_cpu_parsing_kernels(void);
void tfe_register_cpu_signal_kernels(void);
void tfe_register_cpu_linalg_extra_kernels(void);
/* Issue 17/18 groups (nn_grad, train_apply, sparse, containers, misc18, quant, image_codec). */
void tfe_register_cpu_nn_grad_kernels(void);
void tfe_register_cpu_train_apply_kernels(void);
void tfe_register_cpu_sparse_kernels(void);
void tfe_register_cpu_containers_kernels(void);
void tfe_register_cpu_misc18_kernels(void);
void tfe_register_cpu_quant_kernels(void);
void tfe_register_cpu_image_codec_kernels(void);
/* Session 8 groups. */
void tfe_register_cpu_quant2_kernels(void);
void tfe_register_cpu_dataflow2_kernels(void);
void tfe_register_cpu_io_summary_kernels(void);
void tfe_register_cpu_nn_linalg2_kernels(void);
void tfe_register_cpu_sparse2_kernels(void);
void tfe_register_cpu_grad_support_kernels(void);
void tfe_register_cpu_more18_kernels(void);

#endif /* TFE_KERNELS_CPU_CPU_KERNELS_H_ */
