/* Broken filesystem plugin for the loader tests: its scheme "my-fs" contains a '-', which no URI parser accepts. */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) { (void)info; }

FS_TEST_PLUGIN("my-fs", 1, breaker)
