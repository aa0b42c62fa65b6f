/* Broken filesystem plugin for the loader tests: claims the built-in scheme "ram". */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) { (void)info; }

FS_TEST_PLUGIN("ram", 1, breaker)
