/* Built-in op definitions: image codecs, image gradients and audio ops (issue 18).
 * Names, args, attrs and defaults follow TensorFlow 2.21's op registry.
 * Kernels: csrc/kernels/cpu/image_codec_kernels.c; shape rules:
 * csrc/ops/shape_infer_rules_image_codec.c. */
#include "ops/ops_internal.h"

int tfe_ops_register_image_codec_defs(void);

static const tfe_builtin_op kOps[] = {
    /* backprop kernels of image ops and of the gamma sampler (used by the
     * gradients in csrc/eager/grad_linalg.c) */
    TFE_OP("ResizeBicubicGrad", "in: grads: float",
           "in: original_image: T",
           "out: output: T",
           "attr: T: {float, double}",
           "attr: align_corners: bool = false",
           "attr: half_pixel_centers: bool = false"),
    TFE_OP("CropAndResizeGradImage", "in: grads: float",
           "in: boxes: float",
           "in: box_ind: int32",
           "in: image_size: int32",
           "out: output: T",
           "attr: T: {float, half, double}",
           "attr: method: {'bilinear', 'nearest'} = 'bilinear'"),
    TFE_OP("CropAndResizeGradBoxes", "in: grads: float",
           "in: image: T",
           "in: boxes: float",
           "in: box_ind: int32",
           "out: output: float",
           "attr: T: {uint8, uint16, int8, int16, int32, int64, half, float, double}",
           "attr: method: {'bilinear'} = 'bilinear'"),
    TFE_OP("RandomGammaGrad", "in: alpha: T",
           "in: sample: T",
           "out: output: T",
           "attr: T: {float, double}"),
    TFE_OP("ScaleAndTranslateGrad", "in: grads: T",
           "in: original_image: T",
           "in: scale: float",
           "in: translation: float",
           "out: output: T",
           "attr: T: {float}",
           "attr: kernel_type: string = 'lanczos3'",
           "attr: antialias: bool = true"),
    {NULL, NULL}, /* end marker: not registered */
};

int tfe_ops_register_image_codec_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]) - 1);
}
