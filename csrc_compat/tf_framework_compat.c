/* tfe's libtensorflow_framework.so.2: a stand-in for TensorFlow's framework
 * library, for plugins built against TensorFlow.
 *
 * Such a plugin records "libtensorflow_framework.so.2" as NEEDED and leaves
 * its TF_* calls to be resolved at load time. This library has that SONAME,
 * defines the symbol version node "tensorflow" that TensorFlow's framework
 * library defines (so versioned references find their version), and
 * depends on libtfe. libtfe loads it by absolute path before it dlopen()s a
 * plugin (csrc/plugins/framework_compat.c); the dynamic linker then matches
 * the plugin's NEEDED entry to it, and the plugin's TF_* references resolve
 * to libtfe, which is in the plugin's lookup scope through this library.
 *
 * It exports one function of its own, which also keeps the dependency on
 * libtfe from being dropped by --as-needed linking. */
#include "tfe/tfe.h"

/* The version of the libtfe this library runs against. */
TF_CAPI_EXPORT const char* TFE_FrameworkCompatRuntimeVersion(void);

const char* TFE_FrameworkCompatRuntimeVersion(void) {
  return TFE_RuntimeVersion();
}
