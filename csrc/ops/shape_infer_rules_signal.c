/* Shape rules for the signal op group (spectral ops of tf.signal (FFT family) and image colour ops of tf.image). */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_signal[] = {
    {NULL, NULL},
};
