/* tfe's stand-in for libtensorflow_framework.so.2.
 *
 * Plugins compiled for TensorFlow carry a NEEDED entry for
 * libtensorflow_framework.so.2 and expect the C API (TF_SetStatus,
 * TF_StartThread, ...) to come from it. tfe ships a small library with
 * that SONAME which only depends on libtfe. Loading it by absolute path
 * before any plugin is dlopen()ed makes the dynamic linker match those
 * NEEDED entries to it (an already-loaded object satisfies a NEEDED entry
 * with the same SONAME), and the plugin's TF_* references then resolve to
 * libtfe. */
#ifndef TFE_PLUGINS_FRAMEWORK_COMPAT_H_
#define TFE_PLUGINS_FRAMEWORK_COMPAT_H_

/* SONAME (and file name) of the compatibility library. */
#define TFE_FRAMEWORK_COMPAT_SONAME "libtensorflow_framework.so.2"

/* Loads the compatibility library once per process; later calls do
 * nothing. The library is looked up in this order:
 *   1. $TFE_FRAMEWORK_COMPAT_LIBRARY, if set (set it to "" to disable);
 *   2. the directory libtfe was loaded from.
 * Nothing is loaded if an object with that SONAME is already present (for
 * example TensorFlow's own). A missing library is not an error: plugins
 * that do not need it still load. */
void tfe_framework_compat_ensure(void);

/* Absolute path of the compatibility library this process loaded, or NULL
 * if none was loaded (yet). Static storage. */
const char* tfe_framework_compat_loaded_path(void);

#endif /* TFE_PLUGINS_FRAMEWORK_COMPAT_H_ */
