/* Test plugin for `python -m tfe_py doctor`: the "testfs" test filesystem
 * (fs_testfs.c, backed by $TFE_TESTFS_ROOT) registered under the scheme
 * "docmin" with fewer operations: no new_appendable_file and no
 * get_children, which the runtime cannot make up (UNIMPLEMENTED; without
 * get_children its default delete_recursively cannot work either), and no
 * rename_file or copy_file, for which it has a default (copy, then
 * delete). The doctor's filesystem smoke tests must report append, list
 * and recursive delete as "not supported", pass the rest, and still remove
 * their scratch folder (file by file). */
#define TF_InitPlugin doctor_testfs_init_plugin
#include "fs_testfs.c"
#undef TF_InitPlugin

TF_CAPI_EXPORT extern void TF_InitPlugin(TF_FilesystemPluginInfo* info);
void TF_InitPlugin(TF_FilesystemPluginInfo* info) {
  TF_FilesystemPluginOps* e;
  doctor_testfs_init_plugin(info);
  e = &info->ops[0];
  tfs_free(e->scheme);
  e->scheme = tfs_strdup("docmin");
  e->filesystem_ops->new_appendable_file = NULL;
  e->filesystem_ops->rename_file = NULL;
  e->filesystem_ops->copy_file = NULL;
  e->filesystem_ops->get_children = NULL;
}
