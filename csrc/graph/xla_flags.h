/* The XLA flag values the XLA functions of c_api_experimental.h record
 * (csrc/graph/c_api_experimental_flags.c). tfe has no XLA and reads them
 * nowhere; tests read them through tfe_xla_flags_get. */
#ifndef TFE_GRAPH_XLA_FLAGS_H_
#define TFE_GRAPH_XLA_FLAGS_H_

typedef struct tfe_xla_flags {
  unsigned char enable_lazy_compilation; /* tf_xla_enable_lazy_compilation */
  unsigned char cpu_global_jit;          /* tf_xla_cpu_global_jit */
  int auto_jit_single_gpu;  /* tf_xla_auto_jit, single-GPU level */
  int auto_jit_general;     /* tf_xla_auto_jit, general level */
  int min_cluster_size;     /* tf_xla_min_cluster_size */
  unsigned char disable_constant_folding; /* tf_xla_disable_constant_folding */
} tfe_xla_flags;

/* A snapshot of the current values. */
tfe_xla_flags tfe_xla_flags_get(void);

#endif /* TFE_GRAPH_XLA_FLAGS_H_ */
