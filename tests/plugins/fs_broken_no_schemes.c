/* Broken filesystem plugin for the loader tests: declares zero schemes. */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) { (void)info; }

FS_TEST_PLUGIN("unused", 0, breaker)
