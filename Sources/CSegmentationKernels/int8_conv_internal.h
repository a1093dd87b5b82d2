#ifndef STICKER_CATALOG_INT8_CONV_INTERNAL_H
#define STICKER_CATALOG_INT8_CONV_INTERNAL_H

#include "int8_conv.h"

#include <stddef.h>
#include <stdint.h>

/*
 * What int8_conv.c shares with its vector paths (not public; arguments checked there).
 */

/* Pixels of one quad plane: the padded plane and its slack. */
static inline size_t sk_q8_plane(int H, int W, int d) {
    return (size_t)(H + 2 * d) * (W + 2 * d) + SK_Q8_SLACK;
}

/* Output positions are counted on the padded width: output (y, x) is position y (W + 2d) + x,
 * whose tap (ky, kx) reads quad pixel position + ky d (W + 2d) + kx d. Positions with x >= W are
 * computed and dropped. */

/* One output value from its integer sums (the second 0 and unused without a second part):
 * fma(sum2, scale2, fma(sum, scale, bias)), ReLU, + residual. The vector paths do the same operations. */
void sk_q8_store(float sum, float scale, int second, float sum2, float scale2, float bias, int relu, const float *residual,
                 float *out);

/* The AVX2 path (pair products by vpmaddwd) and, with vnni, the AVX-VNNI one (vpdpbusd on ymm). */
void sk_q8_conv_avx2(int vnni, const uint8_t *quads, int C, int split, int H, int W, int d, const float scales[2], const int8_t *packed,
                     const float *wscale, const float *bias, int O, int relu, const float *residual, int y0, int y1,
                     float *out);

/* The AVX-512 VNNI path (vpdpbusd on zmm). */
void sk_q8_conv_avx512(const uint8_t *quads, int C, int split, int H, int W, int d, const float scales[2], const int8_t *packed,
                       const float *wscale, const float *bias, int O, int relu, const float *residual, int y0, int y1,
                       float *out);

/* Positions per chunk: the quads a chunk reads stay in L2 while every output block runs over it. */
static inline int sk_q8_chunk(int C, int Wp, int d, int block) {
    long long quadBytes = 4LL * ((C + 3) / 4);
    long long fit = 384 * 1024 / quadBytes - 2LL * d * Wp - 2 * d;
    long long chunk = fit / block * block;
    return chunk < block ? block : chunk > (1 << 24) ? (1 << 24) / block * block : (int)chunk;
}

#endif
