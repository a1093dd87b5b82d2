#ifndef STICKER_CATALOG_KERNELS_AVX512_H
#define STICKER_CATALOG_KERNELS_AVX512_H

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

#endif
