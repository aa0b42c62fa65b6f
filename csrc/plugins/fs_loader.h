/* Loading filesystem plugins: the checks a plugin's TF_FilesystemPluginInfo
 * must pass before its schemes are registered. Built-in filesystems go
 * through the very same function. */
#ifndef TFE_PLUGINS_FS_LOADER_H_
#define TFE_PLUGINS_FS_LOADER_H_

#include "tensorflow/c/experimental/filesystem/filesystem_interface.h"
#include "tensorflow/c/tf_status.h"

/* Validates `info` as filled by a plugin's TF_InitPlugin, in the order
 * docs/FILESYSTEMS.md lists; copies each table into core-owned memory,
 * calls each filesystem's init and registers every scheme, or registers
 * nothing if any step fails. Always frees what the plugin allocated (the
 * scheme strings, the tables and the ops array) with the plugin's
 * plugin_memory_free, when it provided one. `origin` names the plugin in
 * messages and in the registry (its path, or "built-in"). */
void tfe_fs_register_plugin_info(TF_FilesystemPluginInfo* info,
                                 const char* origin, TF_Status* status);

#endif /* TFE_PLUGINS_FS_LOADER_H_ */
