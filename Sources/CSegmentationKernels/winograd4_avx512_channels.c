/* Winograd F(4x4, 3x3)'s products on AVX-512 for narrow planes (rows of up to 24 tiles, 96 pixels),
 * where winograd4_avx512.c's vectors of 16 tiles would run part empty: M as [tile][output], as the
 * AVX2 path keeps it, and a micro-kernel of 8 tiles x 32 outputs of accumulators in 16 zmm
 * registers: per input channel 2 vector loads of U and 8 broadcasts of V feed 16 fused
 * multiply-adds. Panels of 16 outputs take 8 tiles x 16. The sums are the AVX2 kernel's (from
 * zero, channel by channel), so the AVX2 output transform follows and the floats are the same.
 * Measured alone (64 -> 64, a block of 24 tiles, one core): AVX2 40 GMAC/s, this 78-87; 12 tiles
 * (24 accumulators) ran at 30, and 11 or 10 tiles no faster than 8. */
#include "kernels_avx512.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

enum { W4_NT = 8 };

/* M[t + i][o0 ..< o0 + 16 NO] = sum_c V[c][t + i] U[c][o0 ..< o0 + 16 NO] for i < NT. NO and NT are
 * constants at every call site, so the accumulators live in registers. */
__attribute__((target("avx512f"), always_inline))
static inline void product_tile(const float *U, int C, int op, const float *V, int vrow, float *M, int o0, int t,
                                const int NO, const int NT) {
    __m512 acc[W4_NT][2];
    for (int i = 0; i < NT; i++)
        for (int k = 0; k < NO; k++) acc[i][k] = _mm512_setzero_ps();
    const float *u = U + o0;
    const float *v = V + t;
    for (int c = 0; c < C; c++, u += op, v += vrow) {
        __m512 w[2];
        for (int k = 0; k < NO; k++) w[k] = _mm512_loadu_ps(u + 16 * k);
        for (int i = 0; i < NT; i++) {
            __m512 x = _mm512_set1_ps(v[i]);
            for (int k = 0; k < NO; k++) acc[i][k] = _mm512_fmadd_ps(x, w[k], acc[i][k]);
        }
    }
    for (int i = 0; i < NT; i++)
        for (int k = 0; k < NO; k++) _mm512_storeu_ps(M + (size_t)(t + i) * op + o0 + 16 * k, acc[i][k]);
}

/* Tiles 0 ..< n of one panel of 16 NO outputs: 8 at a time, then the remainder. */
__attribute__((target("avx512f"), always_inline))
static inline void product_panel(const float *U, int C, int op, const float *V, int vrow, float *M, int n, int o0,
                                 const int NO) {
    int t = 0;
    for (; t + W4_NT <= n; t += W4_NT) product_tile(U, C, op, V, vrow, M, o0, t, NO, W4_NT);
    switch (n - t) {
    case 7: product_tile(U, C, op, V, vrow, M, o0, t, NO, 7); break;
    case 6: product_tile(U, C, op, V, vrow, M, o0, t, NO, 6); break;
    case 5: product_tile(U, C, op, V, vrow, M, o0, t, NO, 5); break;
    case 4: product_tile(U, C, op, V, vrow, M, o0, t, NO, 4); break;
    case 3: product_tile(U, C, op, V, vrow, M, o0, t, NO, 3); break;
    case 2: product_tile(U, C, op, V, vrow, M, o0, t, NO, 2); break;
    case 1: product_tile(U, C, op, V, vrow, M, o0, t, NO, 1); break;
    default: break;
    }
}

__attribute__((target("avx512f")))
void sk_w4_product_avx512_channels(const float *U, int C, int op, const float *V, int vrow, float *M, int n) {
    int o0 = 0;
    for (; o0 + 32 <= op; o0 += 32) product_panel(U, C, op, V, vrow, M, n, o0, 2);
    if (o0 < op) product_panel(U, C, op, V, vrow, M, n, o0, 1);
}

#endif
