/* CPU kernels: image codecs, image gradients and audio ops (issue 18). */
#include "kernels/cpu/kutil.h"

void tfe_register_cpu_image_codec_kernels(void);

void tfe_register_cpu_image_codec_kernels(void) {}
