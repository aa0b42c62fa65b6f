/* Version strings. */
#include "tensorflow/c/c_api.h"
#include "tfe/tfe.h"

const char* TF_Version(void) { return "2.21.0"; }

const char* TFE_RuntimeVersion(void) { return TFE_VERSION; }
