/* What this CPU runs fast, found once when the module loads: every choice of a code path
 * at run time reads these two flags (the table's key and probe, the trump game's memo
 * key). Which instruction sets the compiler may use everywhere is setup.py's choice,
 * at build time. SM_TT_PORTABLE builds plain C with both flags 0. */
#ifndef SM_CPU_H
#define SM_CPU_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(SM_TT_PORTABLE)
#define SM_X86_PATHS 1
#include <immintrin.h>
/* pext/pdep in hardware: BMI2, but not on AMD Zen 1 and 2, which run them in slow
 * microcode (there the table methods are faster) */
extern int cpu_fast_bmi2 __attribute__((visibility("hidden")));
/* a fast BMI2 and AVX2 */
extern int cpu_fast_avx2 __attribute__((visibility("hidden")));
#else
#define SM_X86_PATHS 0
#define cpu_fast_bmi2 0
#define cpu_fast_avx2 0
#endif

#endif
