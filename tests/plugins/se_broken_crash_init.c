/* Broken device plugin for the StreamExecutor loader tests: SE_InitPlugin crashes (for doctor's child processes). */
#include <signal.h>
#define SE_BREAK_INIT(params) raise(SIGSEGV);
#include "se_broken_common.h"
