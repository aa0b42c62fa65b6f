/* Built-in op definitions: image, linear algebra and random ops that exported models use.
 * Names, args, attrs and defaults follow TensorFlow 2.21's op registry. */
#include "ops/ops_internal.h"

int tfe_ops_register_image_defs(void);

/* The group is empty until its ops are written (issue 15); then this
 * registers a table of TFE_OP entries as the other defs_*.c files do. */
int tfe_ops_register_image_defs(void) { return 0; }
