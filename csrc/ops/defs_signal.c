/* Built-in op definitions: spectral ops of tf.signal (FFT family) and image
 * colour ops of tf.image. Names, args, attrs and defaults follow TensorFlow
 * 2.21's op registry. */
#include "ops/ops_internal.h"

int tfe_ops_register_signal_defs(void);

static const tfe_builtin_op kOps[] = {
    TFE_OP("FFT", "in: input: Tcomplex", "out: output: Tcomplex",
           "attr: Tcomplex: {complex64, complex128} = DT_COMPLEX64"),
    TFE_OP("IFFT", "in: input: Tcomplex", "out: output: Tcomplex",
           "attr: Tcomplex: {complex64, complex128} = DT_COMPLEX64"),
    TFE_OP("FFT2D", "in: input: Tcomplex", "out: output: Tcomplex",
           "attr: Tcomplex: {complex64, complex128} = DT_COMPLEX64"),
    TFE_OP("IFFT2D", "in: input: Tcomplex", "out: output: Tcomplex",
           "attr: Tcomplex: {complex64, complex128} = DT_COMPLEX64"),
    TFE_OP("FFT3D", "in: input: Tcomplex", "out: output: Tcomplex",
           "attr: Tcomplex: {complex64, complex128} = DT_COMPLEX64"),
    TFE_OP("IFFT3D", "in: input: Tcomplex", "out: output: Tcomplex",
           "attr: Tcomplex: {complex64, complex128} = DT_COMPLEX64"),
    TFE_OP("RFFT", "in: input: Treal", "in: fft_length: int32",
           "out: output: Tcomplex",
           "attr: Treal: {float, double} = DT_FLOAT",
           "attr: Tcomplex: {complex64, complex128} = DT_COMPLEX64"),
    TFE_OP("IRFFT", "in: input: Tcomplex", "in: fft_length: int32",
           "out: output: Treal",
           "attr: Treal: {float, double} = DT_FLOAT",
           "attr: Tcomplex: {complex64, complex128} = DT_COMPLEX64"),
    TFE_OP("RFFT2D", "in: input: Treal", "in: fft_length: int32",
           "out: output: Tcomplex",
           "attr: Treal: {float, double} = DT_FLOAT",
           "attr: Tcomplex: {complex64, complex128} = DT_COMPLEX64"),
    TFE_OP("IRFFT2D", "in: input: Tcomplex", "in: fft_length: int32",
           "out: output: Treal",
           "attr: Treal: {float, double} = DT_FLOAT",
           "attr: Tcomplex: {complex64, complex128} = DT_COMPLEX64"),
    TFE_OP("RFFT3D", "in: input: Treal", "in: fft_length: int32",
           "out: output: Tcomplex",
           "attr: Treal: {float, double} = DT_FLOAT",
           "attr: Tcomplex: {complex64, complex128} = DT_COMPLEX64"),
    TFE_OP("IRFFT3D", "in: input: Tcomplex", "in: fft_length: int32",
           "out: output: Treal",
           "attr: Treal: {float, double} = DT_FLOAT",
           "attr: Tcomplex: {complex64, complex128} = DT_COMPLEX64"),
    TFE_OP("FFTND", "in: input: Tcomplex", "in: fft_length: int32",
           "in: axes: int32", "out: output: Tcomplex",
           "attr: Tcomplex: {complex64, complex128} = DT_COMPLEX64"),
    TFE_OP("IFFTND", "in: input: Tcomplex", "in: fft_length: int32",
           "in: axes: int32", "out: output: Tcomplex",
           "attr: Tcomplex: {complex64, complex128} = DT_COMPLEX64"),
    TFE_OP("RFFTND", "in: input: Treal", "in: fft_length: int32",
           "in: axes: int32", "out: output: Tcomplex",
           "attr: Treal: {float, double} = DT_FLOAT",
           "attr: Tcomplex: {complex64, complex128} = DT_COMPLEX64"),
    TFE_OP("IRFFTND", "in: input: Tcomplex", "in: fft_length: int32",
           "in: axes: int32", "out: output: Treal",
           "attr: Treal: {float, double} = DT_FLOAT",
           "attr: Tcomplex: {complex64, complex128} = DT_COMPLEX64"),
    TFE_OP("RGBToHSV", "in: images: T", "out: output: T",
           "attr: T: {half, bfloat16, float, double} = DT_FLOAT"),
    TFE_OP("HSVToRGB", "in: images: T", "out: output: T",
           "attr: T: {half, bfloat16, float, double} = DT_FLOAT"),
    TFE_OP("AdjustContrastv2", "in: images: T", "in: contrast_factor: float",
           "out: output: T", "attr: T: {half, float} = DT_FLOAT"),
    TFE_OP("AdjustHue", "in: images: T", "in: delta: float",
           "out: output: T", "attr: T: {half, float} = DT_FLOAT"),
    TFE_OP("AdjustSaturation", "in: images: T", "in: scale: float",
           "out: output: T", "attr: T: {half, float} = DT_FLOAT"),
    {NULL, NULL}, /* end marker: not registered */
};

int tfe_ops_register_signal_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]) - 1);
}
