/* TF_RegisterFilesystemPlugin: loading a filesystem plugin and checking
 * what its TF_InitPlugin declared, in this order (docs/FILESYSTEMS.md):
 *
 *   1. dlopen the library and find TF_InitPlugin          NOT_FOUND
 *      (an empty path is NOT_FOUND too, as in TF)
 *   2. call TF_InitPlugin with a zeroed info struct
 *   3. the plugin's allocator pair is present             FAILED_PRECONDITION
 *      no schemes at all (num_schemes 0) is OK, as in TF: nothing is
 *      registered; num_schemes > 0 with a NULL ops array  FAILED_PRECONDITION
 *   then for each scheme entry:
 *   4. every supplied table has a size (not 0)            FAILED_PRECONDITION
 *   5. every supplied table covers the fields the core
 *      requires ("expected at least N bytes, got M")      FAILED_PRECONDITION
 *   6. ABI numbers equal the core's                       FAILED_PRECONDITION
 *      API numbers differ: warning only
 *   7. required operations and dependent tables present   FAILED_PRECONDITION
 *   8. scheme non-NULL and well formed                    INVALID_ARGUMENT
 *   9. scheme not registered yet nor repeated             ALREADY_EXISTS
 *   then the copied tables' init runs for every scheme (its status is
 *   returned unchanged on failure) and all schemes are registered at once.
 *
 * Whatever happens, the memory the plugin handed over is released with its
 * own plugin_memory_free, and on failure nothing is registered. */
#include "plugins/fs_loader.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "fs/fs.h"
#include "fs/uri.h"
#include "plugins/dl.h"
#include "plugins/framework_compat.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/logging.h"

/* Smallest table sizes the core accepts: up to the last required field. */
#define MIN_FS_SIZE TF_OFFSET_OF_END(TF_FilesystemOps, cleanup)
#define MIN_RAF_SIZE TF_OFFSET_OF_END(TF_RandomAccessFileOps, cleanup)
#define MIN_WF_SIZE TF_OFFSET_OF_END(TF_WritableFileOps, cleanup)
#define MIN_ROMR_SIZE TF_OFFSET_OF_END(TF_ReadOnlyMemoryRegionOps, length)

/* One table as declared by the plugin, viewed generically. */
typedef struct table_desc {
  const char* type_name;  /* "TF_FilesystemOps" */
  const char* field;      /* "filesystem_ops" (prefix of the _abi/_api/_size fields) */
  const char* size_macro; /* "TF_FILESYSTEM_OPS_SIZE" */
  const void* table;
  size_t size;
  int abi, api;
  size_t core_size, min_size;
  int core_abi, core_api;
} table_desc;

/* Fills t[i] for the table `fld` of e, whose constants are PFX_SIZE,
 * PFX_ABI and PFX_API. */
#define TFE_DESCRIBE_TABLE(i, type, fld, PFX, min)  \
  do {                                              \
    t[i].type_name = #type;                         \
    t[i].field = #fld;                              \
    t[i].size_macro = #PFX "_SIZE";                 \
    t[i].table = e->fld;                            \
    t[i].size = e->fld##_size;                      \
    t[i].abi = e->fld##_abi;                        \
    t[i].api = e->fld##_api;                        \
    t[i].core_size = PFX##_SIZE;                    \
    t[i].min_size = (min);                          \
    t[i].core_abi = PFX##_ABI;                      \
    t[i].core_api = PFX##_API;                      \
  } while (0)

static void describe(const TF_FilesystemPluginOps* e, table_desc t[4]) {
  TFE_DESCRIBE_TABLE(0, TF_FilesystemOps, filesystem_ops, TF_FILESYSTEM_OPS,
                     MIN_FS_SIZE);
  TFE_DESCRIBE_TABLE(1, TF_RandomAccessFileOps, random_access_file_ops,
                     TF_RANDOM_ACCESS_FILE_OPS, MIN_RAF_SIZE);
  TFE_DESCRIBE_TABLE(2, TF_WritableFileOps, writable_file_ops,
                     TF_WRITABLE_FILE_OPS, MIN_WF_SIZE);
  TFE_DESCRIBE_TABLE(3, TF_ReadOnlyMemoryRegionOps,
                     read_only_memory_region_ops,
                     TF_READ_ONLY_MEMORY_REGION_OPS, MIN_ROMR_SIZE);
}
#undef TFE_DESCRIBE_TABLE

/* Copies min(plugin size, core size) bytes into a zeroed core table. */
static void copy_table(void* dst, size_t core_size, const void* src,
                       size_t plugin_size) {
  memset(dst, 0, core_size);
  if (src != NULL) {
    memcpy(dst, src, plugin_size < core_size ? plugin_size : core_size);
  }
}

#define REQUIRE(cond, ...)                                                \
  do {                                                                    \
    if (!(cond)) {                                                        \
      tfe_status_setf(status, TF_FAILED_PRECONDITION, __VA_ARGS__);       \
      return false;                                                       \
    }                                                                     \
  } while (0)

/* Steps 4-7 for one entry; fills `fs` with copies of the tables. */
static bool check_tables(const TF_FilesystemPluginOps* e, const char* origin,
                         const char* label, tfe_fs* fs, TF_Status* status) {
  table_desc t[4];
  int i;
  describe(e, t);

  /* 4 and 5: sizes of the supplied tables. */
  for (i = 0; i < 4; i++) {
    if (t[i].table == NULL) continue;
    REQUIRE(t[i].size != 0,
            "filesystem plugin '%s', scheme '%s': `%s_size` field in "
            "TF_FilesystemPluginOps must be set to %s (call "
            "TF_SetFilesystemVersionMetadata)",
            origin, label, t[i].field, t[i].size_macro);
    REQUIRE(t[i].size >= t[i].min_size,
            "filesystem plugin '%s', scheme '%s': table %s is too small: "
            "expected at least %zu bytes, got %zu",
            origin, label, t[i].type_name, t[i].min_size, t[i].size);
  }

  /* 6: ABI numbers (the filesystem table's always, the others when
   * supplied); API numbers only warn. */
  for (i = 0; i < 4; i++) {
    if (i > 0 && t[i].table == NULL) continue;
    REQUIRE(t[i].abi == t[i].core_abi,
            "filesystem plugin '%s', scheme '%s': table %s has ABI version "
            "%d but the core expects %d; plugin cannot be loaded",
            origin, label, t[i].type_name, t[i].abi, t[i].core_abi);
  }
  for (i = 0; i < 4; i++) {
    if (i > 0 && t[i].table == NULL) continue;
    if (t[i].api != t[i].core_api) {
      TF_Log(TF_WARNING,
             "filesystem plugin '%s', scheme '%s': table %s has API version "
             "%d but the core implements %d; loading it anyway, some "
             "operations may be missing",
             origin, label, t[i].type_name, t[i].api, t[i].core_api);
    }
  }

  /* 8 of the guide: the copies, so that a field an older plugin lacks
   * reads as NULL in the checks below. */
  copy_table(&fs->ops, sizeof fs->ops, e->filesystem_ops,
             e->filesystem_ops_size);
  copy_table(&fs->raf_ops, sizeof fs->raf_ops, e->random_access_file_ops,
             e->random_access_file_ops_size);
  copy_table(&fs->wf_ops, sizeof fs->wf_ops, e->writable_file_ops,
             e->writable_file_ops_size);
  copy_table(&fs->romr_ops, sizeof fs->romr_ops,
             e->read_only_memory_region_ops,
             e->read_only_memory_region_ops_size);
  fs->has_raf_ops = e->random_access_file_ops != NULL;
  fs->has_wf_ops = e->writable_file_ops != NULL;
  fs->has_romr_ops = e->read_only_memory_region_ops != NULL;

  /* 7: required operations. */
  REQUIRE(e->filesystem_ops != NULL,
          "filesystem plugin '%s', scheme '%s': "
          "TF_FilesystemPluginOps.filesystem_ops is NULL; every scheme needs "
          "a TF_FilesystemOps table",
          origin, label);
  REQUIRE(fs->ops.init != NULL,
          "filesystem plugin '%s', scheme '%s': table TF_FilesystemOps: "
          "required operation `init` is NULL",
          origin, label);
  REQUIRE(fs->ops.cleanup != NULL,
          "filesystem plugin '%s', scheme '%s': table TF_FilesystemOps: "
          "required operation `cleanup` is NULL",
          origin, label);
  REQUIRE(!fs->has_raf_ops || fs->raf_ops.cleanup != NULL,
          "filesystem plugin '%s', scheme '%s': table TF_RandomAccessFileOps: "
          "required operation `cleanup` is NULL",
          origin, label);
  REQUIRE(!fs->has_wf_ops || fs->wf_ops.cleanup != NULL,
          "filesystem plugin '%s', scheme '%s': table TF_WritableFileOps: "
          "required operation `cleanup` is NULL",
          origin, label);
  REQUIRE(!fs->has_romr_ops || fs->romr_ops.cleanup != NULL,
          "filesystem plugin '%s', scheme '%s': table "
          "TF_ReadOnlyMemoryRegionOps: required operation `cleanup` is NULL",
          origin, label);
  REQUIRE(!fs->has_romr_ops || fs->romr_ops.data != NULL,
          "filesystem plugin '%s', scheme '%s': table "
          "TF_ReadOnlyMemoryRegionOps: required operation `data` is NULL",
          origin, label);
  REQUIRE(!fs->has_romr_ops || fs->romr_ops.length != NULL,
          "filesystem plugin '%s', scheme '%s': table "
          "TF_ReadOnlyMemoryRegionOps: required operation `length` is NULL",
          origin, label);
  REQUIRE(fs->ops.new_random_access_file == NULL || fs->has_raf_ops,
          "filesystem plugin '%s', scheme '%s': "
          "TF_FilesystemOps.new_random_access_file is set but "
          "TF_FilesystemPluginOps.random_access_file_ops is NULL",
          origin, label);
  REQUIRE(fs->ops.new_writable_file == NULL || fs->has_wf_ops,
          "filesystem plugin '%s', scheme '%s': "
          "TF_FilesystemOps.new_writable_file is set but "
          "TF_FilesystemPluginOps.writable_file_ops is NULL",
          origin, label);
  REQUIRE(fs->ops.new_appendable_file == NULL || fs->has_wf_ops,
          "filesystem plugin '%s', scheme '%s': "
          "TF_FilesystemOps.new_appendable_file is set but "
          "TF_FilesystemPluginOps.writable_file_ops is NULL",
          origin, label);
  REQUIRE(fs->ops.new_read_only_memory_region_from_file == NULL ||
              fs->has_romr_ops,
          "filesystem plugin '%s', scheme '%s': "
          "TF_FilesystemOps.new_read_only_memory_region_from_file is set but "
          "TF_FilesystemPluginOps.read_only_memory_region_ops is NULL",
          origin, label);
  return true;
}

/* Steps 8 and 9: the scheme itself. */
static bool check_scheme(const TF_FilesystemPluginInfo* info, size_t index,
                         const char* origin, TF_Status* status) {
  const char* scheme = info->ops[index].scheme;
  const char* other = NULL;
  size_t j;
  if (scheme == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "filesystem plugin '%s': TF_FilesystemPluginOps[%zu].scheme "
                    "is NULL",
                    origin, index);
    return false;
  }
  if (!tfe_scheme_is_valid(scheme)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "filesystem plugin '%s': scheme '%s' is not valid: use "
                    "\"\" for local paths, or a letter followed by letters, "
                    "digits or '.'",
                    origin, scheme);
    return false;
  }
  for (j = 0; j < index; j++) {
    if (info->ops[j].scheme != NULL && strcmp(info->ops[j].scheme, scheme) == 0) {
      tfe_status_setf(status, TF_ALREADY_EXISTS,
                      "filesystem plugin '%s': scheme '%s' is declared twice "
                      "by the plugin",
                      origin, scheme);
      return false;
    }
  }
  if (tfe_fs_registry_has(scheme, &other)) {
    tfe_status_setf(status, TF_ALREADY_EXISTS,
                    "filesystem plugin '%s': scheme '%s' is already registered "
                    "(by %s)",
                    origin, scheme, other);
    return false;
  }
  return true;
}

/* Releases everything the plugin handed over, with its own free. */
static void free_plugin_memory(TF_FilesystemPluginInfo* info) {
  size_t i;
  void (*pfree)(void*) = info->plugin_memory_free;
  if (pfree == NULL) return; /* nothing we can safely do */
  if (info->ops != NULL) {
    for (i = 0; i < info->num_schemes; i++) {
      TF_FilesystemPluginOps* e = &info->ops[i];
      if (e->scheme) pfree(e->scheme);
      if (e->filesystem_ops) pfree(e->filesystem_ops);
      if (e->random_access_file_ops) pfree(e->random_access_file_ops);
      if (e->writable_file_ops) pfree(e->writable_file_ops);
      if (e->read_only_memory_region_ops) pfree(e->read_only_memory_region_ops);
    }
    pfree(info->ops);
  }
  memset(info, 0, sizeof *info);
}

static void register_all(TF_FilesystemPluginInfo* info, const char* origin,
                         TF_Status* status) {
  tfe_fs** entries;
  size_t i, n = info->num_schemes, inited = 0;
  bool ok = true;

  if (info->plugin_memory_free == NULL) {
    tfe_status_setf(status, TF_FAILED_PRECONDITION,
                    "filesystem plugin '%s': "
                    "TF_FilesystemPluginInfo.plugin_memory_free is NULL; the "
                    "core needs it to release what the plugin allocated",
                    origin);
    return;
  }
  if (info->plugin_memory_allocate == NULL) {
    tfe_status_setf(status, TF_FAILED_PRECONDITION,
                    "filesystem plugin '%s': "
                    "TF_FilesystemPluginInfo.plugin_memory_allocate is NULL",
                    origin);
    return;
  }
  if (n == 0) {
    /* TF loads such a plugin and registers nothing. */
    TF_Log(TF_WARNING,
           "filesystem plugin '%s' declared no schemes "
           "(TF_FilesystemPluginInfo.num_schemes is 0); nothing registered",
           origin);
    tfe_status_ok(status);
    return;
  }
  if (info->ops == NULL) {
    tfe_status_setf(status, TF_FAILED_PRECONDITION,
                    "filesystem plugin '%s' declared %zu schemes but "
                    "TF_FilesystemPluginInfo.ops is NULL",
                    origin, n);
    return;
  }

  entries = (tfe_fs**)tfe_calloc(n, sizeof(*entries));
  if (entries == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "filesystem plugin '%s': out of memory", origin);
    return;
  }
  for (i = 0; i < n && ok; i++) {
    const TF_FilesystemPluginOps* e = &info->ops[i];
    const char* label = e->scheme ? e->scheme : "(NULL)";
    tfe_fs* fs = (tfe_fs*)tfe_calloc(1, sizeof(*fs));
    entries[i] = fs;
    if (fs == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "filesystem plugin '%s': out of memory", origin);
      ok = false;
      break;
    }
    ok = check_tables(e, origin, label, fs, status) &&
         check_scheme(info, i, origin, status);
    if (!ok) break;
    fs->scheme = tfe_strdup(e->scheme);
    fs->origin = tfe_strdup(origin);
    fs->plugin_alloc = info->plugin_memory_allocate;
    fs->plugin_free = info->plugin_memory_free;
    if (fs->scheme == NULL || fs->origin == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "filesystem plugin '%s': out of memory", origin);
      ok = false;
    }
  }

  /* Every scheme passed: bring each filesystem up. A failing init's
   * status is returned as the plugin set it. */
  for (i = 0; i < n && ok; i++) {
    tfe_fs* fs = entries[i];
    tfe_status_ok(status);
    fs->filesystem.plugin_filesystem = NULL;
    if (status != NULL) {
      fs->ops.init(&fs->filesystem, status);
      ok = TF_GetCode(status) == TF_OK;
    } else {
      TF_Status st;
      tfe_scratch_init(&st);
      fs->ops.init(&fs->filesystem, &st);
      ok = st.code == TF_OK;
      tfe_scratch_release(&st);
    }
    if (ok) inited++;
  }

  if (ok) ok = tfe_fs_registry_add(entries, n, origin, status);

  if (!ok) {
    for (i = 0; i < inited; i++) entries[i]->ops.cleanup(&entries[i]->filesystem);
    for (i = 0; i < n; i++) tfe_fs_free_entry(entries[i]);
  }
  tfe_free(entries);
}

void tfe_fs_register_plugin_info(TF_FilesystemPluginInfo* info,
                                 const char* origin, TF_Status* status) {
  if (info == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "filesystem plugin '%s': no plugin info", origin);
    return;
  }
  register_all(info, origin, status);
  free_plugin_memory(info);
}

void TF_RegisterFilesystemPlugin(const char* plugin_filename,
                                 TF_Status* status) {
  void* handle;
  void (*init)(TF_FilesystemPluginInfo*);
  TF_FilesystemPluginInfo info;
  if (plugin_filename == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_RegisterFilesystemPlugin: plugin_filename is NULL");
    return;
  }
  if (plugin_filename[0] == '\0') {
    /* TF's loader fails to open "" and says NOT_FOUND. */
    tfe_status_setf(status, TF_NOT_FOUND,
                    "filesystem plugin: could not load '': the path is "
                    "empty");
    return;
  }
  tfe_fs_builtins_ensure();
  tfe_framework_compat_ensure();
  {
    TF_Status st;
    tfe_scratch_init(&st);
    handle = tfe_dl_open(plugin_filename, &st);
    if (handle == NULL) {
      tfe_status_setf(status, TF_NOT_FOUND, "filesystem plugin: %s",
                      TF_Message(&st));
      tfe_scratch_release(&st);
      return;
    }
    tfe_scratch_release(&st);
  }
  *(void**)(&init) = dlsym(handle, "TF_InitPlugin");
  if (init == NULL) {
    tfe_status_setf(status, TF_NOT_FOUND,
                    "filesystem plugin '%s' does not export the entry point "
                    "TF_InitPlugin",
                    plugin_filename);
    dlclose(handle);
    return;
  }
  memset(&info, 0, sizeof info);
  init(&info);
  /* From here on the library stays loaded for the life of the process,
   * even if registration fails: its init may have left state behind. */
  tfe_fs_register_plugin_info(&info, plugin_filename, status);
}
