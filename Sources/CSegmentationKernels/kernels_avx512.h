#ifndef STICKER_CATALOG_KERNELS_AVX512_H
#define STICKER_CATALOG_KERNELS_AVX512_H

#include <stddef.h>

/*
 * The AVX-512 (F) kernels, for the dispatchers in segmentation_kernels.c and winograd4.c only
 * (not public: callers go through sk_conv3x3_with and sk_conv3x3_winograd4_fused_with, which
 * check sizes and the CPU). Arguments as there, already checked.
 */

/* 3x3 convolution, any dilation: sk_conv3x3's sums, in its order, 16 pixels per vector; output
 * rows y0 ..< y1 only. */
void sk_conv3x3_avx512(const float *in, int C, int H, int W, const float *weight, const float *bias, int O,
                       int d, int relu, int y0, int y1, float *out);

/* Tiles per block of the AVX-512 Winograd path (the AVX2 path takes 24): a whole tile row of up to
 * 48 tiles (rounded up to 8), wider rows in blocks of 32, so that the products' vectors of 16
 * tiles are full (u2netp's rows: 80, 40, 20 ... tiles). Rows of up to SK_W4_NARROW_TILES tiles
 * take sk_w4_product_avx512_channels and the AVX2 output transform instead. */
enum { SK_W4_TILES_AVX512 = 48, SK_W4_NARROW_TILES = 24 };
static inline int sk_w4_tiles_avx512(int tilesWide) {
    return tilesWide <= SK_W4_TILES_AVX512 ? (tilesWide + 7) & ~7 : 32;
}

/* The products for narrow planes (winograd4_avx512_channels.c), M as the AVX2 path keeps it:
 * M[t][o] for t < n, o < op, rows op floats apart; V's rows `vrow` floats apart. */
void sk_w4_product_avx512_channels(const float *U, int C, int op, const float *V, int vrow, float *M, int n);

/* One of Winograd F(4x4, 3x3)'s 36 matrix products for tiles 0 ..< n (n <= vrow <= SK_W4_TILES_AVX512) of
 * a block: M[o][t] = sum_c V[c][t] U[c][o] for o < op (a multiple of 16), V's rows and M's rows
 * `vrow` floats apart (tiles contiguous, so the output transform reads 16 tiles per vector). */
void sk_w4_product_avx512(const float *U, int C, int op, const float *V, int vrow, float *M, int n);

/* The output transform on that layout: out = A^T M A + bias (then ReLU, then + residual) for the
 * tiles t0 ..< t0 + n of tile row ty, every output channel; M's 36 matrices `mstride` floats
 * apart, their rows `mrow` floats. The same operations per value as the AVX2 one. */
void sk_w4_output_avx512(const float *M, size_t mstride, int mrow, const float *bias, int O, int op, int H, int W, int ty,
                         int t0, int n, int relu, const float *residual, float *out);

/* Floats between the rows the Winograd input transform reads (SK_W4_ROW in winograd4.c). */
enum { SK_W4_ROW_FLOATS = 4 * SK_W4_TILES_AVX512 + 16 };

/* Winograd F(4x4, 3x3)'s input transform of one channel, as w4_transform_avx2 in winograd4.c:
 * V[p][m] (p = 6 i + j, `pstride` floats apart) = (B^T d B)[p] for the tiles m < n8 (a multiple of
 * 8) from the six rows at d (SK_W4_ROW_FLOATS apart, 8 vecs floats of each, rounded up to 16,
 * readable), e scratch for six such rows. */
void sk_w4_transform_avx512(const float *d, float *e, int vecs, int n8, float *vc, size_t pstride);

/* The same for a channel read in place (not upsampled): its six rows r0 ..< r0 + 6, columns
 * x0 ..< x0 + count of a plane of H x W, zero outside. */
void sk_w4_transform_plane_avx512(const float *plane, int H, int W, int r0, int x0, int count, float *e, int n8,
                                  float *vc, size_t pstride);

/* The same for a channel stored at half size (Hs x Ws) and resized to 2 Hs x 2 Ws on the fly, as
 * the AVX2 path resizes it (the same floats): rows r0 ..< r0 + 6 and columns x0 ..< x0 + count of
 * the resized plane, zero outside. */
void sk_w4_transform_upsampled_avx512(const float *src, int Hs, int Ws, int r0, int x0, int count, float *e, int n8,
                                      float *vc, size_t pstride);

#endif
