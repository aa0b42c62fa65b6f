/* Broken device plugin for the StreamExecutor loader tests: TF_InitGraph sets no optimize_func. */
#define SE_PLATFORM_NAME "GRAPH_PLATFORM"
#define SE_DEVICE_TYPE "GRAPH_DEVICE"
#define SE_WITH_GRAPH 1
#define SE_BREAK_GRAPH(params) (params)->optimizer->optimize_func = NULL;
#include "se_broken_common.h"
