/* A working device plugin as one built with older TensorFlow headers lays
 * out its tables (for tests/c/test_plugin_abi.c):
 *   - SP_StreamExecutor from before mem_zero/memset/memset32: host_callback
 *     is the last field, at today's offset of mem_zero, and struct_size
 *     ends there;
 *   - TP_OptimizerConfigs from before auto_mixed_precision_onednn_bfloat16:
 *     every field from auto_mixed_precision_mkl on sits one slot earlier,
 *     and struct_size ends at (today's) memory_optimization.
 * The tables are written through raw slots, as that plugin's code would. */
#include <stddef.h>
#include <string.h>

#include "tensorflow/c/experimental/grappler/grappler.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

#define SE_PLATFORM_NAME "OLD_ABI_PLATFORM"
#define SE_DEVICE_TYPE "OLD_ABI_DEVICE"
#define SE_WITH_GRAPH 1
#define SE_WITH_PROFILER 1

/* The old SP_StreamExecutor: host_callback in the first fill slot. */
static void old_stream_executor(SP_StreamExecutor* se) {
  void* callback;
  memcpy(&callback, &se->host_callback, sizeof callback);
  se->host_callback = NULL;
  se->mem_zero = NULL;
  se->memset = NULL;
  se->memset32 = NULL;
  memcpy(&se->mem_zero, &callback, sizeof callback);
  se->struct_size = TF_OFFSET_OF_END(SP_StreamExecutor, mem_zero);
}
#define SE_BREAK_SE(se) old_stream_executor(se);

/* The old TP_OptimizerConfigs: the tri-states are 18 consecutive slots
 * after struct_size and ext; layout_optimizer is slot 11 and remapping
 * slot 12 there (12 and 13 today). */
static void old_configs(TP_OptimizerConfigs* c) {
  TF_TriState* slot =
      (TF_TriState*)(void*)((char*)c + offsetof(TP_OptimizerConfigs,
                                                disable_model_pruning));
  slot[8] = TF_TriState_On;  /* auto_mixed_precision */
  slot[9] = TF_TriState_Off; /* auto_mixed_precision_mkl */
  slot[11] = TF_TriState_Off; /* layout_optimizer */
  slot[12] = TF_TriState_On;  /* remapping */
  slot[17] = TF_TriState_Off; /* scoped_allocator_optimization */
  c->struct_size = TF_OFFSET_OF_END(TP_OptimizerConfigs, memory_optimization);
}
#define SE_BREAK_GRAPH(params) old_configs((params)->optimizer_configs);

#include "se_broken_common.h"
