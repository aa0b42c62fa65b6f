/* tfe: TensorFlow has kept this header at several paths; all reach the
 * same declarations. */
#include "tsl/platform/ctstring_internal.h"
