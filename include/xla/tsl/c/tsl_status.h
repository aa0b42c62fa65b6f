/* tfe: TensorFlow has moved this header between releases; every path reaches
 * the same declarations. */
#include "tsl/c/tsl_status.h"
