/* Direct (no im2col) float32 kernels for u2netp; see include/segmentation_kernels.h. */
#include "kernels_avx512.h"
#include "scale2x.h"
#include "segmentation_kernels.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define SK_X86 1
#include <immintrin.h>
#else
#define SK_X86 0
#endif

/* Sizes positive and C * H * W representable as an int. */
static int valid_shape(int c, int h, int w) {
    if (c <= 0 || h <= 0 || w <= 0) return 0;
    long long n = (long long)c * h * w;
    return n <= INT_MAX;
}

/* ---------------------------------------------------------------------------------------- */
/* 3x3 convolution */

/* One output value, any position (borders included): bias, then channel by channel, taps
 * row by row, skipping taps that fall in the zero padding. */
static float conv3x3_at(const float *in, int C, int H, int W, const float *wo, float b,
                        int y, int x, int d) {
    float acc = b;
    size_t plane = (size_t)H * W;
    for (int c = 0; c < C; c++) {
        const float *ip = in + (size_t)c * plane;
        const float *wc = wo + (size_t)c * 9;
        for (int ky = 0; ky < 3; ky++) {
            int iy = y + (ky - 1) * d;
            if (iy < 0 || iy >= H) continue;
            const float *row = ip + (size_t)iy * W;
            for (int kx = 0; kx < 3; kx++) {
                int ix = x + (kx - 1) * d;
                if (ix < 0 || ix >= W) continue;
                acc += wc[ky * 3 + kx] * row[ix];
            }
        }
    }
    return acc;
}

static void conv3x3_scalar(const float *in, int C, int H, int W, const float *weight,
                           const float *bias, int O, int d, int relu, int y0, int y1, float *out) {
    size_t plane = (size_t)H * W;
    for (int o = 0; o < O; o++) {
        const float *wo = weight + (size_t)o * C * 9;
        float b = bias ? bias[o] : 0.0f;
        float *op = out + (size_t)o * plane;
        for (int y = y0; y < y1; y++)
            for (int x = 0; x < W; x++) {
                float v = conv3x3_at(in, C, H, W, wo, b, y, x, d);
                op[(size_t)y * W + x] = relu && v < 0.0f ? 0.0f : v;
            }
    }
}

#if SK_X86
/* Input channels per pass over a row. Planes of 320 x 320 floats are 100 pages apart, so the
 * same row of every channel falls in the same L1 set: summing over all channels for one tile
 * thrashes L1 (measured 2 GMAC/s). A few channels per pass, with the partial sums kept in the
 * output row, keeps the working set in a handful of ways. */
enum { SK_CHANNEL_CHUNK = 4 };

/* OCB output channels x NV vectors of 8 pixels of one row, starting at x0, all of whose taps
 * are inside the row (x0 - d >= 0, x0 + 8 * NV - 1 + d < W), over input channels c0 ..< c1.
 * The sums start from the bias when c0 == 0, else from the output (partial sums); ReLU is
 * applied when c1 == C. OCB and NV are constants at every call site, so the accumulators live
 * in registers. */
__attribute__((target("avx2,fma"), always_inline))
static inline void conv3x3_tile_avx2(const float *in, int C, int H, int W, const float *weight,
                                     const float *bias, int o0, int y, int x0, int d, int relu,
                                     int c0, int c1, float *out, const int OCB, const int NV) {
    __m256 acc[4][3];
    size_t plane = (size_t)H * W;
    size_t wstride = (size_t)C * 9;
    for (int j = 0; j < OCB; j++) {
        if (c0 == 0) {
            __m256 b = _mm256_set1_ps(bias ? bias[o0 + j] : 0.0f);
            for (int v = 0; v < NV; v++) acc[j][v] = b;
        } else {
            const float *op = out + (size_t)(o0 + j) * plane + (size_t)y * W + x0;
            for (int v = 0; v < NV; v++) acc[j][v] = _mm256_loadu_ps(op + 8 * v);
        }
    }
    int ky0 = y - d < 0 ? 1 : 0;
    int ky1 = y + d >= H ? 2 : 3;
    const float *wbase = weight + (size_t)o0 * wstride;
    for (int c = c0; c < c1; c++) {
        const float *ip = in + (size_t)c * plane + x0 - d;
        const float *wc = wbase + (size_t)c * 9;
        for (int ky = ky0; ky < ky1; ky++) {
            const float *row = ip + (size_t)(y + (ky - 1) * d) * W;
            for (int kx = 0; kx < 3; kx++) {
                __m256 in_v[3];
                for (int v = 0; v < NV; v++) in_v[v] = _mm256_loadu_ps(row + kx * d + 8 * v);
                for (int j = 0; j < OCB; j++) {
                    __m256 w = _mm256_broadcast_ss(wc + j * wstride + ky * 3 + kx);
                    for (int v = 0; v < NV; v++) acc[j][v] = _mm256_fmadd_ps(w, in_v[v], acc[j][v]);
                }
            }
        }
    }
    __m256 zero = _mm256_setzero_ps();
    int clamp = relu && c1 == C;
    for (int j = 0; j < OCB; j++) {
        float *op = out + (size_t)(o0 + j) * plane + (size_t)y * W + x0;
        for (int v = 0; v < NV; v++) {
            __m256 r = clamp ? _mm256_max_ps(acc[j][v], zero) : acc[j][v];
            _mm256_storeu_ps(op + 8 * v, r);
        }
    }
}

/* The same for 8 pixels at x0 (< W) whose taps or outputs may fall outside the row: masked
 * loads read zeros for taps in the padding (masked-off lanes are never read, so they cannot
 * fault), and a masked store writes only the x < W outputs. */
__attribute__((target("avx2,fma"), always_inline))
static inline void conv3x3_edge_avx2(const float *in, int C, int H, int W, const float *weight,
                                     const float *bias, int o0, int y, int x0, int d, int relu,
                                     int c0, int c1, float *out, const int OCB) {
    __m256 acc[4];
    size_t plane = (size_t)H * W;
    size_t wstride = (size_t)C * 9;
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i width = _mm256_set1_epi32(W);
    const __m256i minus1 = _mm256_set1_epi32(-1);
    __m256i mask[3];
    for (int kx = 0; kx < 3; kx++) {
        __m256i pos = _mm256_add_epi32(lane, _mm256_set1_epi32(x0 + (kx - 1) * d));
        mask[kx] = _mm256_and_si256(_mm256_cmpgt_epi32(pos, minus1), _mm256_cmpgt_epi32(width, pos));
    }
    __m256i store = mask[1];  /* the centre tap's positions are the outputs' */
    for (int j = 0; j < OCB; j++) {
        if (c0 == 0) {
            acc[j] = _mm256_set1_ps(bias ? bias[o0 + j] : 0.0f);
        } else {
            acc[j] = _mm256_maskload_ps(out + (size_t)(o0 + j) * plane + (size_t)y * W + x0, store);
        }
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
                /* Address arithmetic in integers: the start may lie before the row. */
                const float *p = (const float *)((ptrdiff_t)row + (ptrdiff_t)(x0 + (kx - 1) * d) * 4);
                __m256 v = _mm256_maskload_ps(p, mask[kx]);
                for (int j = 0; j < OCB; j++) {
                    __m256 w = _mm256_broadcast_ss(wc + j * wstride + ky * 3 + kx);
                    acc[j] = _mm256_fmadd_ps(w, v, acc[j]);
                }
            }
        }
    }
    __m256 zero = _mm256_setzero_ps();
    int clamp = relu && c1 == C;
    for (int j = 0; j < OCB; j++) {
        __m256 r = clamp ? _mm256_max_ps(acc[j], zero) : acc[j];
        _mm256_maskstore_ps(out + (size_t)(o0 + j) * plane + (size_t)y * W + x0, store, r);
    }
}

/* OCB output channels of row y, SK_CHANNEL_CHUNK input channels per pass: masked tiles at
 * the borders, unmasked tiles of 16 then 8 pixels in the interior. */
__attribute__((target("avx2,fma"), always_inline))
static inline void conv3x3_row_avx2(const float *in, int C, int H, int W, const float *weight,
                                    const float *bias, int o0, int y, int d, int relu, float *out,
                                    const int OCB) {
    int hi = W - d;  /* one past the last x whose right tap is inside */
    {
        for (int c0 = 0; c0 < C; c0 += SK_CHANNEL_CHUNK) {
            int c1 = c0 + SK_CHANNEL_CHUNK < C ? c0 + SK_CHANNEL_CHUNK : C;
            int x = 0;
            for (; x < d && x < W; x += 8)
                conv3x3_edge_avx2(in, C, H, W, weight, bias, o0, y, x, d, relu, c0, c1, out, OCB);
            /* 4 x 16 outputs: 8 accumulators + 2 inputs + 1 weight. 4 x 24 (12 + 3 + 1 = all 16
             * registers) made clang spill an accumulator: 20-25 GMAC/s against 25-30. */
            for (; x + 16 <= hi; x += 16)
                conv3x3_tile_avx2(in, C, H, W, weight, bias, o0, y, x, d, relu, c0, c1, out, OCB, 2);
            for (; x + 8 <= hi; x += 8)
                conv3x3_tile_avx2(in, C, H, W, weight, bias, o0, y, x, d, relu, c0, c1, out, OCB, 1);
            for (; x < W; x += 8)
                conv3x3_edge_avx2(in, C, H, W, weight, bias, o0, y, x, d, relu, c0, c1, out, OCB);
        }
    }
}

__attribute__((target("avx2,fma")))
static void conv3x3_avx2(const float *in, int C, int H, int W, const float *weight,
                         const float *bias, int O, int d, int relu, int y0, int y1, float *out) {
    /* Rows outermost: the 3 input rows of every channel (245 KB at 64 x 320) stay in L2 while
     * every output channel block uses them; blocks outermost re-read the whole input from
     * memory for each block (measured 6.5 GMAC/s at 320 x 320 against 25 at 160 x 160). */
    for (int y = y0; y < y1; y++) {
        int o0 = 0;
        for (; o0 + 4 <= O; o0 += 4) conv3x3_row_avx2(in, C, H, W, weight, bias, o0, y, d, relu, out, 4);
        for (; o0 < O; o0++) conv3x3_row_avx2(in, C, H, W, weight, bias, o0, y, d, relu, out, 1);
    }
}
#endif

static int conv3x3_valid(const float *in, int inC, int H, int W, const float *weight, int outC, int dilation,
                         const float *out) {
    return in && weight && out && dilation >= 1 && valid_shape(inC, H, W) && valid_shape(outC, H, W)
           && (long long)outC * inC * 9 <= INT_MAX;
}

int sk_conv3x3_rows_with(int kernels, const float *in, int inC, int H, int W, const float *weight, const float *bias,
                         int outC, int dilation, int relu, int y0, int y1, float *out) {
    if (!conv3x3_valid(in, inC, H, W, weight, outC, dilation, out) || !sk_kernels_supported(kernels)
        || y0 < 0 || y1 > H || y0 > y1)
        return -1;
    switch (kernels) {
#if SK_X86
    case SK_KERNELS_AVX512: sk_conv3x3_avx512(in, inC, H, W, weight, bias, outC, dilation, relu, y0, y1, out); break;
    case SK_KERNELS_AVX2: conv3x3_avx2(in, inC, H, W, weight, bias, outC, dilation, relu, y0, y1, out); break;
#endif
    default: conv3x3_scalar(in, inC, H, W, weight, bias, outC, dilation, relu, y0, y1, out); break;
    }
    return 0;
}

int sk_conv3x3_with(int kernels, const float *in, int inC, int H, int W, const float *weight, const float *bias,
                    int outC, int dilation, int relu, float *out) {
    return sk_conv3x3_rows_with(kernels, in, inC, H, W, weight, bias, outC, dilation, relu, 0, H, out);
}

int sk_conv3x3(const float *in, int inC, int H, int W, const float *weight, const float *bias,
               int outC, int dilation, int relu, float *out) {
    return sk_conv3x3_with(sk_kernels_default(), in, inC, H, W, weight, bias, outC, dilation, relu, out);
}

int sk_conv3x3_portable(const float *in, int inC, int H, int W, const float *weight,
                        const float *bias, int outC, int dilation, int relu, float *out) {
    return sk_conv3x3_with(SK_KERNELS_SCALAR, in, inC, H, W, weight, bias, outC, dilation, relu, out);
}

/* ---------------------------------------------------------------------------------------- */
/* 1x1 convolution (one in u2netp: the fusion of the six side outputs; not hot) */

int sk_conv1x1(const float *in, int inC, int H, int W, const float *weight, const float *bias,
               int outC, int relu, float *out) {
    if (!in || !weight || !out || !valid_shape(inC, H, W) || !valid_shape(outC, H, W)
        || (long long)outC * inC > INT_MAX)
        return -1;
    size_t plane = (size_t)H * W;
    for (int o = 0; o < outC; o++) {
        float *op = out + (size_t)o * plane;
        float b = bias ? bias[o] : 0.0f;
        for (size_t p = 0; p < plane; p++) op[p] = b;
        for (int c = 0; c < inC; c++) {
            float w = weight[(size_t)o * inC + c];
            const float *ip = in + (size_t)c * plane;
            for (size_t p = 0; p < plane; p++) op[p] += w * ip[p];
        }
        if (relu)
            for (size_t p = 0; p < plane; p++) op[p] = op[p] < 0.0f ? 0.0f : op[p];
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------- */

int sk_maxpool2x2_ceil(const float *in, int C, int H, int W, float *out) {
    if (!in || !out || !valid_shape(C, H, W)) return -1;
    if (H % 2 == 0 && W % 2 == 0) return sk_maxpool2x2_even(in, C, H, W, out);
    int Ho = (H + 1) / 2, Wo = (W + 1) / 2;
    for (int c = 0; c < C; c++) {
        const float *ip = in + (size_t)c * H * W;
        float *op = out + (size_t)c * Ho * Wo;
        for (int y = 0; y < Ho; y++) {
            const float *r0 = ip + (size_t)(2 * y) * W;
            const float *r1 = 2 * y + 1 < H ? r0 + W : r0;
            for (int x = 0; x < Wo; x++) {
                int a = 2 * x, b = 2 * x + 1 < W ? 2 * x + 1 : 2 * x;
                float m = r0[a];
                if (r0[b] > m) m = r0[b];
                if (r1[a] > m) m = r1[a];
                if (r1[b] > m) m = r1[b];
                op[(size_t)y * Wo + x] = m;
            }
        }
    }
    return 0;
}

/* Source index pair and weight of the upper neighbour for output position i. */
static void halfpixel(int i, int n_in, int n_out, int *i0, int *i1, float *f) {
    double src = ((double)i + 0.5) * n_in / n_out - 0.5;
    if (src < 0) src = 0;
    int lo = (int)floor(src);
    if (lo > n_in - 1) lo = n_in - 1;
    *i0 = lo;
    *i1 = lo + 1 < n_in ? lo + 1 : n_in - 1;
    *f = (float)(src - lo);
}

int sk_resize_bilinear_halfpixel(const float *in, int C, int H, int W, int outH, int outW,
                                 float *out) {
    if (!in || !out || !valid_shape(C, H, W) || !valid_shape(C, outH, outW)) return -1;
    if (outH == 2 * H && outW == 2 * W) return sk_resize_bilinear_2x(in, C, H, W, out);
    /* Column coefficients are the same for every row and channel: computed once per band of
     * columns into a stack table (computing them per pixel was 10% of a u2netp prediction). */
    enum { BAND = 256 };
    int cx0[BAND], cx1[BAND];
    float cfx[BAND];
    for (int xs = 0; xs < outW; xs += BAND) {
        int xe = xs + BAND < outW ? xs + BAND : outW;
        for (int x = xs; x < xe; x++) halfpixel(x, W, outW, &cx0[x - xs], &cx1[x - xs], &cfx[x - xs]);
        for (int c = 0; c < C; c++) {
            const float *ip = in + (size_t)c * H * W;
            float *op = out + (size_t)c * outH * outW;
            for (int y = 0; y < outH; y++) {
                int y0, y1;
                float fy;
                halfpixel(y, H, outH, &y0, &y1, &fy);
                const float *r0 = ip + (size_t)y0 * W, *r1 = ip + (size_t)y1 * W;
                float *orow = op + (size_t)y * outW;
                for (int x = xs; x < xe; x++) {
                    int x0 = cx0[x - xs], x1 = cx1[x - xs];
                    float fx = cfx[x - xs];
                    /* The reference's order: each row blended in x, then the two rows in y. */
                    float top = r0[x0] * (1.0f - fx) + r0[x1] * fx;
                    float bot = r1[x0] * (1.0f - fx) + r1[x1] * fx;
                    orow[x] = top * (1.0f - fy) + bot * fy;
                }
            }
        }
    }
    return 0;
}

int sk_add(const float *a, const float *b, long count, float *out) {
    if (!a || !b || !out || count < 0) return -1;
    for (long i = 0; i < count; i++) out[i] = a[i] + b[i];
    return 0;
}

int sk_sigmoid(const float *in, long count, float *out) {
    if (!in || !out || count < 0) return -1;
    for (long i = 0; i < count; i++) out[i] = 1.0f / (1.0f + expf(-in[i]));
    return 0;
}
