/* Opening plugin shared libraries so that they bind to this libtfe. */
#ifndef TFE_PLUGINS_DL_H_
#define TFE_PLUGINS_DL_H_

#include "tensorflow/c/tf_status.h"

/* Makes libtfe's own exported symbols globally visible (re-opening itself
 * with RTLD_GLOBAL), so that a plugin opened afterwards resolves its TF_*
 * references to this runtime even when libtfe itself was loaded with
 * RTLD_LOCAL (as Python loads extension modules). Idempotent. */
void tfe_dl_promote_self(void);

/* dlopen(path, RTLD_NOW | RTLD_LOCAL) after tfe_dl_promote_self. On failure
 * returns NULL with NOT_FOUND naming the path and the loader's reason. */
void* tfe_dl_open(const char* path, TF_Status* status);

#endif /* TFE_PLUGINS_DL_H_ */
