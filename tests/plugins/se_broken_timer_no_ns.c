/* Broken device plugin for the StreamExecutor loader tests: sets no SP_TimerFns.nanoseconds. */
#define SE_BREAK_TIMER(tf) (tf)->nanoseconds = NULL;
#include "se_broken_common.h"
