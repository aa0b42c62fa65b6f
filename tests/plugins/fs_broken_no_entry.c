/* Broken filesystem plugin for the loader tests: it has no TF_InitPlugin
 * (the entry point is misspelt). */
#include "tensorflow/c/experimental/filesystem/filesystem_interface.h"

TF_CAPI_EXPORT void TF_InitPlugins(TF_FilesystemPluginInfo* info);

void TF_InitPlugins(TF_FilesystemPluginInfo* info) { (void)info; }
