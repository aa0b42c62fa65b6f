/* Broken device plugin for the StreamExecutor loader tests: names its platform in lower case. */
#define SE_PLATFORM_NAME "my_platform"
#include "se_broken_common.h"
