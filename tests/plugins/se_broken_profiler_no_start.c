/* Broken device plugin for the StreamExecutor loader tests: TF_InitProfiler sets no start. */
#define SE_PLATFORM_NAME "PROF_PLATFORM"
#define SE_DEVICE_TYPE "PROF_DEVICE"
#define SE_WITH_PROFILER 1
#define SE_BREAK_PROFILER(params) (params)->profiler_fns->start = NULL;
#include "se_broken_common.h"
