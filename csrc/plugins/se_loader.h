/* Loading PluggableDevice plugins: the ordered checks of a StreamExecutor
 * plugin's tables (SE_InitPlugin), of a graph optimizer (TF_InitGraph) and
 * of a profiler (TF_InitProfiler), and TF_LoadPluggableDeviceLibrary,
 * which runs them in that order with TF_InitKernel after SE_InitPlugin.
 *
 * Every message names the plugin ("device plugin '<path>': ..."), the
 * struct and the field; docs/PLUGINS.md lists them. */
#ifndef TFE_PLUGINS_SE_LOADER_H_
#define TFE_PLUGINS_SE_LOADER_H_

#include "devices/pluggable_device.h"

typedef void (*tfe_se_init_fn)(SE_PlatformRegistrationParams*, TF_Status*);
typedef void (*tfe_graph_init_fn)(TP_OptimizerRegistrationParams*,
                                  TF_Status*);
typedef void (*tfe_profiler_init_fn)(TF_ProfilerRegistrationParams*,
                                     TF_Status*);

/* Calls init and builds an unpublished platform from what it filled in:
 * checks, copies into core-owned tables, device functions, stream
 * executor, timer functions and devices. On failure returns NULL with the
 * status set, having released everything the plugin allocated (in reverse
 * order, with its destroy functions). `path` labels messages. */
tfe_platform* tfe_se_load(const char* path, tfe_se_init_fn init,
                          TF_Status* status);

/* Calls a graph optimizer's / profiler's init and records it in p after
 * the checks. On failure p is unchanged apart from what the plugin's
 * destroy functions undo. */
int tfe_graph_load(tfe_platform* p, tfe_graph_init_fn init, TF_Status* status);
int tfe_profiler_load(tfe_platform* p, tfe_profiler_init_fn init,
                      TF_Status* status);

/* 1 when s matches [A-Z][A-Z_]* and fits a device type. */
int tfe_se_valid_type_name(const char* s);

#endif /* TFE_PLUGINS_SE_LOADER_H_ */
