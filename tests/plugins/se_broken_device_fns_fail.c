/* Broken device plugin for the StreamExecutor loader tests: create_device_fns fails. */
#define SE_BREAK_DEVICE_FNS(fns) TF_SetStatus(st, TF_UNAVAILABLE, "no device functions today");
#include "se_broken_common.h"
