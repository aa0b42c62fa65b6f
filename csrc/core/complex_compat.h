/* CMPLX and CMPLXF for compilers whose <complex.h> lacks them. glibc
 * defines them only for GCC >= 4.7 (with __builtin_complex); clang reports
 * itself as GCC 4.2, so there they are missing and calls would become
 * implicit declarations. The fallback builds the value through a union,
 * which keeps an infinite or NaN imaginary part intact (x + y*I would not). */
#ifndef TFE_CORE_COMPLEX_COMPAT_H_
#define TFE_CORE_COMPLEX_COMPAT_H_

#include <complex.h>

#ifndef CMPLX
#define CMPLX(x, y)                       \
  (((union {                              \
     double _Complex c;                   \
     double d[2];                         \
   }){.d = {(double)(x), (double)(y)}})   \
       .c)
#endif
#ifndef CMPLXF
#define CMPLXF(x, y)                      \
  (((union {                              \
     float _Complex c;                    \
     float d[2];                          \
   }){.d = {(float)(x), (float)(y)}})     \
       .c)
#endif

#endif /* TFE_CORE_COMPLEX_COMPAT_H_ */
