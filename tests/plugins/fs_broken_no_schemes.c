/* Filesystem plugin for the loader tests that declares zero schemes (not
 * broken after all: TF loads it with OK and registers nothing, and so
 * does tfe). */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) { (void)info; }

FS_TEST_PLUGIN("unused", 0, breaker)
