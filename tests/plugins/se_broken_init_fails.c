/* Broken device plugin for the StreamExecutor loader tests: SE_InitPlugin reports its own error. */
#define SE_BREAK_INIT(params) TF_SetStatus(status, TF_INTERNAL, "the broken plugin refuses to start");
#include "se_broken_common.h"
