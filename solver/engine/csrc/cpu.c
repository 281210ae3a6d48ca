/* CPU feature detection for the core's run-time code paths (cpu.h). */
#include "cpu.h"

#if SM_X86_PATHS
int cpu_fast_bmi2;
int cpu_fast_avx2;

__attribute__((constructor)) static void detect_cpu(void)
{
    __builtin_cpu_init();
    cpu_fast_bmi2 = __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("znver1") &&
                    !__builtin_cpu_is("znver2");
    cpu_fast_avx2 = cpu_fast_bmi2 && __builtin_cpu_supports("avx2");
}
#else
typedef int sm_cpu_portable; /* (an empty file is not valid C) */
#endif
