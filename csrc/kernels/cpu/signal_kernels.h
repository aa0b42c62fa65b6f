/* Private to the signal kernel group (signal_kernels.c, signal_color.c). */
#ifndef TFE_KERNELS_CPU_SIGNAL_KERNELS_H_
#define TFE_KERNELS_CPU_SIGNAL_KERNELS_H_

/* Registers the image colour kernels of signal_color.c (RGBToHSV,
 * HSVToRGB, AdjustContrastv2, AdjustHue, AdjustSaturation). */
void tfe_register_cpu_signal_color_kernels(void);

/* Registers the tf.image kernels of signal_image.c (ExtractImagePatches,
 * NonMaxSuppressionWithOverlaps, CombinedNonMaxSuppression,
 * DrawBoundingBoxes(V2), ScaleAndTranslate, ExtractGlimpseV2). */
void tfe_register_cpu_signal_image_kernels(void);

#endif /* TFE_KERNELS_CPU_SIGNAL_KERNELS_H_ */
