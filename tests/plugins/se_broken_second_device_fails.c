/* Broken device plugin for the StreamExecutor loader tests: create_device fails for ordinal 1 after device 0 was made. */
#define SE_BREAK_DEVICE(params, status) if ((params)->ordinal == 1) TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "device 1 is out of order");
#include "se_broken_common.h"
