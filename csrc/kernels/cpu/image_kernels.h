/* Private to the image/ragged/linalg/random kernel group of issue 15
 * (image_kernels.c registers them all through
 * tfe_register_cpu_image_kernels). */
#ifndef TFE_KERNELS_CPU_IMAGE_KERNELS_H_
#define TFE_KERNELS_CPU_IMAGE_KERNELS_H_

void tfe_register_cpu_ragged_kernels(void);     /* ragged_kernels.c */
void tfe_register_cpu_image_resize_kernels(void); /* image_resize.c */
void tfe_register_cpu_image_nms_kernels(void);  /* image_nms.c */
void tfe_register_cpu_svd_kernels(void);        /* linalg_svd.c */
void tfe_register_cpu_random_extra_kernels(void); /* random_extra.c */

#endif /* TFE_KERNELS_CPU_IMAGE_KERNELS_H_ */
