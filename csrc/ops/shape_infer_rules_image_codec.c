/* Shape rules for the image_codec op group (image codecs, image gradients and audio ops (issue 18)). */
#include "ops/shape_infer_internal.h"

/* ResizeBicubicGrad and ScaleAndTranslateGrad (grads, original_image,
 * ...): [batch and channels of grads,
 * height and width of the original image]. */
static int rule_resize_bicubic_grad(si_ctx* c) {
  si_sh g, im, out;
  si_in(c, 0, &g);
  si_in(c, 1, &im);
  if (!si_with_rank(c, &g, 4, &g) || !si_with_rank(c, &im, 4, &im)) return 0;
  out.rank = 4;
  out.d[0] = g.d[0];
  out.d[1] = im.d[1];
  out.d[2] = im.d[2];
  out.d[3] = g.d[3];
  return si_set(c, 0, &out);
}

/* CropAndResizeGradImage: the 4-vector image_size when it is known. */
static int rule_crop_grad_image(si_ctx* c) {
  si_sh g, out;
  si_in(c, 0, &g);
  if (!si_with_rank(c, &g, 4, &g)) return 0;
  if (!si_shape_from_tensor(c, 3, &out)) return 0;
  if (!si_with_rank(c, &out, 4, &out)) return 0;
  return si_set(c, 0, &out);
}

/* CropAndResizeGradBoxes: [num_boxes, 4]. */
static int rule_crop_grad_boxes(si_ctx* c) {
  si_sh g, out;
  si_in(c, 0, &g);
  if (!si_with_rank(c, &g, 4, &g)) return 0;
  si_matrix(&out, g.d[0], 4);
  return si_set(c, 0, &out);
}

const si_rule si_rules_image_codec[] = {
    {"ResizeBicubicGrad", rule_resize_bicubic_grad},
    {"CropAndResizeGradImage", rule_crop_grad_image},
    {"CropAndResizeGradBoxes", rule_crop_grad_boxes},
    {"RandomGammaGrad", si_rule_broadcast},
    {"ScaleAndTranslateGrad", rule_resize_bicubic_grad},
    {NULL, NULL},
};
