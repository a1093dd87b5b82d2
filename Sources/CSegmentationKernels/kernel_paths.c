/* Which kernel path this CPU runs; see include/segmentation_kernels.h (sk_kernels_*). */
#include "segmentation_kernels.h"


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

/* The widest supported path. */
static int choose_kernels(void) {
    int best = SK_KERNELS_AVX512;
    while (!sk_kernels_supported(best)) best--;
    return best;
}

/* -1 until chosen (by sk_kernels_narrow or the first sk_kernels_default). */
static int chosen = -1;

void sk_kernels_narrow(int kernels) {
    __atomic_store_n(&chosen, sk_kernels_supported(kernels) ? kernels : choose_kernels(), __ATOMIC_RELAXED);
}

int sk_kernels_default(void) {
    /* Every thread that races here computes the same value. */
    int kernels = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
    if (kernels < 0) {
        kernels = choose_kernels();
        __atomic_store_n(&chosen, kernels, __ATOMIC_RELAXED);
    }
    return kernels;
}
