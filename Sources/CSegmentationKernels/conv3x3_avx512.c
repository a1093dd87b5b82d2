/* Direct 3x3 convolution on AVX-512 (segmentation_kernels.c has the contract and the AVX2 and
 * scalar paths). Same loop order and partial sums as the AVX2 path, with 16-pixel vectors, up to
 * 16 accumulators (32 zmm registers), and AVX-512's mask registers for the borders: a masked load
 * reads zeros for taps in the padding without touching memory there, so one tile function serves
 * the edges and the interior. u2netp runs only its first layer (3 -> 64), its 64 -> 1 side outputs
 * and its dilated layers this way; the rest go by Winograd. */
#include "kernels_avx512.h"

#include <stddef.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/* Input channels per pass over a row: see SK_CHANNEL_CHUNK in segmentation_kernels.c. */
enum { CHANNEL_CHUNK = 4 };

/* Lanes whose position start + lane lies in 0 ..< W. */
static inline __mmask16 inside(int start, int W) {
    int lo = start < 0 ? -start : 0;
    int hi = W - start < 16 ? W - start : 16;
    if (hi <= lo) return 0;
    unsigned bits = (hi >= 16 ? 0xFFFFu : (1u << hi) - 1) & ~((1u << lo) - 1);
    return (__mmask16)bits;
}

/* OCB output channels x NV vectors of 16 pixels of row y from x0, over input channels c0 ..< c1;
 * the sums start from the bias when c0 == 0, else from the output; ReLU when c1 == C. */
__attribute__((target("avx512f"), always_inline))
static inline void conv_tile(const float *in, int C, int H, int W, const float *weight, const float *bias, int o0,
                             int y, int x0, int d, int relu, int c0, int c1, float *out, const int OCB, const int NV) {
    __m512 acc[4][8];
    __mmask16 mask[3][8];
    size_t plane = (size_t)H * W;
    size_t wstride = (size_t)C * 9;
    for (int kx = 0; kx < 3; kx++)
        for (int v = 0; v < NV; v++) mask[kx][v] = inside(x0 + 16 * v + (kx - 1) * d, W);
    for (int j = 0; j < OCB; j++) {
        const float *op = out + (size_t)(o0 + j) * plane + (size_t)y * W + x0;
        __m512 b = _mm512_set1_ps(bias ? bias[o0 + j] : 0.0f);
        for (int v = 0; v < NV; v++) acc[j][v] = c0 == 0 ? b : _mm512_maskz_loadu_ps(mask[1][v], op + 16 * v);
    }
    int ky0 = y - d < 0 ? 1 : 0;
    int ky1 = y + d >= H ? 2 : 3;
    const float *wbase = weight + (size_t)o0 * wstride;
    for (int c = c0; c < c1; c++) {
        const float *ip = in + (size_t)c * plane;
        const float *wc = wbase + (size_t)c * 9;
        for (int ky = ky0; ky < ky1; ky++) {
            const float *row = ip + (size_t)(y + (ky - 1) * d) * W;
            for (int kx = 0; kx < 3; kx++) {
                /* Address arithmetic in integers: the first vector may start before the row. */
                ptrdiff_t start = (ptrdiff_t)row + (ptrdiff_t)(x0 + (kx - 1) * d) * 4;
                __m512 x[8];
                for (int v = 0; v < NV; v++) x[v] = _mm512_maskz_loadu_ps(mask[kx][v], (const void *)(start + 64 * v));
                for (int j = 0; j < OCB; j++) {
                    __m512 w = _mm512_set1_ps(wc[j * wstride + ky * 3 + kx]);
                    for (int v = 0; v < NV; v++) acc[j][v] = _mm512_fmadd_ps(w, x[v], acc[j][v]);
                }
            }
        }
    }
    int clamp = relu && c1 == C;
    for (int j = 0; j < OCB; j++) {
        float *op = out + (size_t)(o0 + j) * plane + (size_t)y * W + x0;
        for (int v = 0; v < NV; v++) {
            __m512 r = clamp ? _mm512_max_ps(acc[j][v], _mm512_setzero_ps()) : acc[j][v];
            _mm512_mask_storeu_ps(op + 16 * v, mask[1][v], r);
        }
    }
}

/* OCB output channels of row y: tiles of NV vectors, then the remainder in as few vectors as it
 * needs. 4 x 4 (16 accumulators) for blocks of 4 channels; 1 x 8 for a single channel (u2netp's
 * 64 -> 1 side outputs), where 4 accumulators could not hide the latency of the adds. */
__attribute__((target("avx512f"), always_inline))
static inline void conv_row(const float *in, int C, int H, int W, const float *weight, const float *bias, int o0, int y,
                            int d, int relu, float *out, const int OCB, const int NV) {
    for (int c0 = 0; c0 < C; c0 += CHANNEL_CHUNK) {
        int c1 = c0 + CHANNEL_CHUNK < C ? c0 + CHANNEL_CHUNK : C;
        int x = 0;
        for (; x + 16 * NV <= W; x += 16 * NV) conv_tile(in, C, H, W, weight, bias, o0, y, x, d, relu, c0, c1, out, OCB, NV);
        switch ((W - x + 15) / 16) {
        case 7: conv_tile(in, C, H, W, weight, bias, o0, y, x, d, relu, c0, c1, out, OCB, 7); break;
        case 6: conv_tile(in, C, H, W, weight, bias, o0, y, x, d, relu, c0, c1, out, OCB, 6); break;
        case 5: conv_tile(in, C, H, W, weight, bias, o0, y, x, d, relu, c0, c1, out, OCB, 5); break;
        case 4: conv_tile(in, C, H, W, weight, bias, o0, y, x, d, relu, c0, c1, out, OCB, 4); break;
        case 3: conv_tile(in, C, H, W, weight, bias, o0, y, x, d, relu, c0, c1, out, OCB, 3); break;
        case 2: conv_tile(in, C, H, W, weight, bias, o0, y, x, d, relu, c0, c1, out, OCB, 2); break;
        case 1: conv_tile(in, C, H, W, weight, bias, o0, y, x, d, relu, c0, c1, out, OCB, 1); break;
        default: break;
        }
    }
}

__attribute__((target("avx512f")))
void sk_conv3x3_avx512(const float *in, int C, int H, int W, const float *weight, const float *bias, int O, int d,
                       int relu, int y0, int y1, float *out) {
    /* Rows outermost, as on the AVX2 path: a row's input stays in L2 for every output block. */
    for (int y = y0; y < y1; y++) {
        int o0 = 0;
        for (; o0 + 4 <= O; o0 += 4) conv_row(in, C, H, W, weight, bias, o0, y, d, relu, out, 4, 4);
        for (; o0 < O; o0++) conv_row(in, C, H, W, weight, bias, o0, y, d, relu, out, 1, 8);
    }
}
#endif
