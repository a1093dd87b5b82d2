#ifndef STICKER_CATALOG_KERNELS_AVX512_H
#define STICKER_CATALOG_KERNELS_AVX512_H

#include <stddef.h>

/*
 * The AVX-512 (F) kernels, for the dispatchers in segmentation_kernels.c and winograd4.c only
 * (not public: callers go through sk_conv3x3_with and sk_conv3x3_winograd4_fused_with, which
 * check sizes and the CPU). Arguments as there, already checked.
 */

/* 3x3 convolution, any dilation: sk_conv3x3's sums, in its order, 16 pixels per vector. */
void sk_conv3x3_avx512(const float *in, int C, int H, int W, const float *weight, const float *bias, int O,
                       int d, int relu, float *out);

/* One of Winograd F(4x4, 3x3)'s 36 matrix products for tiles 0 ..< n of a block:
 * M[t][o] = sum_c V[c][t] U[c][o] for o < op (a multiple of 16), V's rows `vrow` floats apart. */
void sk_w4_product_avx512(const float *U, int C, int op, const float *V, int vrow, float *M, int n);

/* Floats between the rows the Winograd input transform reads (SK_W4_ROW in winograd4.c). */
enum { SK_W4_ROW_FLOATS = 112 };

/* Winograd F(4x4, 3x3)'s input transform of one channel, as w4_transform_avx2 in winograd4.c:
 * V[p][m] (p = 6 i + j, `pstride` floats apart) = (B^T d B)[p] for the tiles m < n8 (a multiple of
 * 8) from the six rows at d (SK_W4_ROW_FLOATS apart, 8 vecs floats of each, rounded up to 16,
 * readable), e scratch for six such rows. */
void sk_w4_transform_avx512(const float *d, float *e, int vecs, int n8, float *vc, size_t pstride);

#endif
