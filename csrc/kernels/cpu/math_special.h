/* Scalar special functions shared by the CPU kernels of the math_special
 * group (math_special_kernels.c) and the elementwise Digamma kernel.
 *
 * Each function exists for float and double and is evaluated in that type,
 * with the series, continued fractions and edge cases TensorFlow's CPU
 * kernels use (Cephes-style algorithms as Eigen implements them), so float
 * results agree with TF's bit for bit in the common cases rather than only
 * to a few ulps. */
#ifndef TFE_KERNELS_CPU_MATH_SPECIAL_H_
#define TFE_KERNELS_CPU_MATH_SPECIAL_H_

float tfe_sp_digamma_f(float x);
double tfe_sp_digamma_d(double x);
float tfe_sp_igamma_f(float a, float x);
double tfe_sp_igamma_d(double a, double x);
float tfe_sp_igammac_f(float a, float x);
double tfe_sp_igammac_d(double a, double x);
float tfe_sp_zeta_f(float x, float q);
double tfe_sp_zeta_d(double x, double q);
float tfe_sp_polygamma_f(float n, float x);
double tfe_sp_polygamma_d(double n, double x);
float tfe_sp_betainc_f(float a, float b, float x);
double tfe_sp_betainc_d(double a, double b, double x);

#endif /* TFE_KERNELS_CPU_MATH_SPECIAL_H_ */
