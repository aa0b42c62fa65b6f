/* The floating-point environment kernels run in.
 *
 * TensorFlow runs every CPU kernel with denormal numbers flushed to zero
 * (flush-to-zero for results and denormals-are-zero for inputs) and with
 * round-to-nearest: its eager kernel launch sets that state around the
 * kernel on the calling thread and puts it back afterwards, and its
 * intra-op pool threads set it once when they start. tfe does the same:
 *
 *   tfe_fpenv_saved saved;
 *   tfe_fpenv_enter(&saved);
 *   ... run the kernel ...
 *   tfe_fpenv_leave(&saved);
 *
 * and tfe_fpenv_set_thread() at the start of worker threads that run
 * kernels and belong to tfe.
 *
 * Only the denormal and rounding controls are changed; exception masks are
 * left alone. When enter had to change the modes, leave writes back the
 * caller's whole control register, so the caller finds it exactly as it
 * was: on x86 that also drops the sticky exception flags the kernel raised
 * (TF restores only the modes and leaves them raised). When the thread was
 * in the kernel modes already, nothing is written and flags stay raised.
 *
 * Cost: enter reads the control register(s) and writes only when the state
 * differs from the kernel one; leave never reads and writes only when enter
 * did. A thread already in the kernel state (pool workers, nested kernel
 * calls) pays one register read per kernel. On an AMD EPYC (Zen 4) reading
 * MXCSR costs ~4 ns and writing it well under 1 ns, which is why the
 * restore is a plain write of the saved value.
 *
 * Platforms: x86-64 and x86 with SSE2 (MXCSR FTZ/DAZ/rounding bits plus the
 * x87 rounding bits), AArch64 (FPCR FZ and rounding bits; FZ covers both
 * inputs and outputs there); TFE_FPENV_FLUSHES is defined for those.
 * Elsewhere denormals are left as they are and only the rounding mode is
 * set, through <fenv.h>. */
#ifndef TFE_CORE_FPENV_H_
#define TFE_CORE_FPENV_H_

#include <stdint.h>

#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE2__))
#define TFE_FPENV_X86 1
#define TFE_FPENV_FLUSHES 1
#include <xmmintrin.h>
#elif defined(__aarch64__)
#define TFE_FPENV_AARCH64 1
#define TFE_FPENV_FLUSHES 1
#else
#include <fenv.h>
#endif

typedef struct tfe_fpenv_saved {
  uint32_t ctl;      /* the caller's control register value (MXCSR/FPCR) */
  uint16_t x87;      /* the caller's x87 control word (x86 only) */
  unsigned char set; /* bit 0: ctl was changed; bit 1: x87 was changed */
} tfe_fpenv_saved;

#if defined(TFE_FPENV_X86)

/* MXCSR: DAZ is bit 6, the rounding control bits 13-14, FTZ bit 15. */
#define TFE_MXCSR_DAZ 0x0040u
#define TFE_MXCSR_RC 0x6000u
#define TFE_MXCSR_FTZ 0x8000u
#define TFE_MXCSR_MODES (TFE_MXCSR_DAZ | TFE_MXCSR_RC | TFE_MXCSR_FTZ)
#define TFE_MXCSR_KERNEL (TFE_MXCSR_DAZ | TFE_MXCSR_FTZ) /* RC 00: nearest */
/* x87 control word: rounding control bits 10-11 (00: nearest). */
#define TFE_X87_RC 0x0C00u

static inline uint16_t tfe_fpenv_x87_get(void) {
  uint16_t cw;
  __asm__ __volatile__("fnstcw %0" : "=m"(cw));
  return cw;
}

static inline void tfe_fpenv_x87_put(uint16_t cw) {
  __asm__ __volatile__("fldcw %0" : : "m"(cw));
}

static inline void tfe_fpenv_enter(tfe_fpenv_saved* s) {
  uint32_t m = _mm_getcsr();
  uint16_t cw = tfe_fpenv_x87_get();
  s->ctl = m;
  s->x87 = cw;
  s->set = 0;
  if ((m & TFE_MXCSR_MODES) != TFE_MXCSR_KERNEL) {
    _mm_setcsr((m & ~TFE_MXCSR_MODES) | TFE_MXCSR_KERNEL);
    s->set = 1;
  }
  if ((cw & TFE_X87_RC) != 0) {
    tfe_fpenv_x87_put((uint16_t)(cw & ~TFE_X87_RC));
    s->set |= 2;
  }
}

static inline void tfe_fpenv_leave(const tfe_fpenv_saved* s) {
  /* The caller's whole MXCSR goes back as it was (no second read: on some
   * CPUs reading MXCSR costs several ns while writing it is cheap). */
  if (s->set & 1) _mm_setcsr(s->ctl);
  if (s->set & 2) {
    uint16_t cw = tfe_fpenv_x87_get();
    tfe_fpenv_x87_put((uint16_t)((cw & ~TFE_X87_RC) | (s->x87 & TFE_X87_RC)));
  }
}

#elif defined(TFE_FPENV_AARCH64)

/* FPCR: RMode is bits 22-23 (00: nearest), FZ bit 24. */
#define TFE_FPCR_RMODE (3u << 22)
#define TFE_FPCR_FZ (1u << 24)
#define TFE_FPCR_MODES (TFE_FPCR_RMODE | TFE_FPCR_FZ)

static inline uint32_t tfe_fpenv_fpcr_get(void) {
  uint64_t v;
  __asm__ __volatile__("mrs %0, fpcr" : "=r"(v));
  return (uint32_t)v;
}

static inline void tfe_fpenv_fpcr_put(uint32_t v) {
  __asm__ __volatile__("msr fpcr, %0" : : "r"((uint64_t)v));
}

static inline void tfe_fpenv_enter(tfe_fpenv_saved* s) {
  uint32_t f = tfe_fpenv_fpcr_get();
  s->ctl = f;
  s->x87 = 0;
  s->set = 0;
  if ((f & TFE_FPCR_MODES) != TFE_FPCR_FZ) {
    tfe_fpenv_fpcr_put((f & ~TFE_FPCR_MODES) | TFE_FPCR_FZ);
    s->set = 1;
  }
}

static inline void tfe_fpenv_leave(const tfe_fpenv_saved* s) {
  if (s->set) tfe_fpenv_fpcr_put(s->ctl);
}

#else /* no denormal control: rounding only, through <fenv.h> */

static inline void tfe_fpenv_enter(tfe_fpenv_saved* s) {
  s->ctl = 0;
  s->x87 = 0;
  s->set = 0;
#ifdef FE_TONEAREST
  {
    int r = fegetround();
    if (r >= 0 && r != FE_TONEAREST && fesetround(FE_TONEAREST) == 0) {
      s->ctl = (uint32_t)r;
      s->set = 1;
    }
  }
#endif
}

static inline void tfe_fpenv_leave(const tfe_fpenv_saved* s) {
#ifdef FE_TONEAREST
  if (s->set) fesetround((int)s->ctl);
#else
  (void)s;
#endif
}

#endif

/* Puts the calling thread in the kernel state for good (no restore): for
 * the start of tfe's own worker threads. */
void tfe_fpenv_set_thread(void);

#endif /* TFE_CORE_FPENV_H_ */
