/* Which kernel path this CPU runs; see include/segmentation_kernels.h (sk_kernels_*). */
#include "segmentation_kernels.h"

#include <stdlib.h>
#include <string.h>

int sk_uses_avx2(void) {
#if defined(__x86_64__) || defined(__i386__)
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

int sk_kernels_supported(int kernels) {
    switch (kernels) {
    case SK_KERNELS_SCALAR: return 1;
    case SK_KERNELS_AVX2: return sk_uses_avx2();
#if defined(__x86_64__) || defined(__i386__)
    /* The AVX-512 path keeps some AVX2 steps (transforms, edges), so it needs both. */
    case SK_KERNELS_AVX512: return sk_uses_avx2() && __builtin_cpu_supports("avx512f");
#endif
    default: return 0;
    }
}

/* The widest supported path, narrowed by STICKER_KERNELS. */
static int choose_kernels(void) {
    int best = SK_KERNELS_AVX512;
    while (!sk_kernels_supported(best)) best--;
    const char *name = getenv("STICKER_KERNELS");
    if (!name) return best;
    int wanted = !strcmp(name, "scalar") ? SK_KERNELS_SCALAR
               : !strcmp(name, "avx2")   ? SK_KERNELS_AVX2
               : !strcmp(name, "avx512") ? SK_KERNELS_AVX512
                                         : best;
    return sk_kernels_supported(wanted) ? wanted : best;
}

int sk_kernels_default(void) {
    /* -1 until chosen; every thread that races here computes the same value. */
    static int chosen = -1;
    int kernels = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
    if (kernels < 0) {
        kernels = choose_kernels();
        __atomic_store_n(&chosen, kernels, __ATOMIC_RELAXED);
    }
    return kernels;
}
