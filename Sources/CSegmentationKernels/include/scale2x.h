#ifndef STICKER_CATALOG_SCALE2X_H
#define STICKER_CATALOG_SCALE2X_H

/*
 * u2netp's scaling steps for the common case of even sizes, as plain loops that vectorise.
 *
 * Bilinear upsampling by exactly 2 in both directions with half-pixel centres: every decoder step
 * of u2netp (320 <- 160 <- 80 ...). The general kernel gathers two columns from two rows for every
 * output value; here each source row is widened once and reused by the two output rows it feeds,
 * and the loops are plain enough to vectorise. Same arithmetic, in the same order, as the general
 * sk_resize_bilinear_halfpixel (x first, then y; weights 1/4 and 3/4), so the same floats.
 */

#ifdef __cplusplus
extern "C" {
#endif

/* in: C x H x W; out: C x 2H x 2W. Returns 0, or -1 for a bad shape or NULL pointer. */
int sk_resize_bilinear_2x(const float *in, int C, int H, int W, float *out);

/* 2x2 max pooling, stride 2, of a plane with even H and W (no ceil-mode edge): out C x H/2 x W/2.
 * The same values as sk_maxpool2x2_ceil. Returns 0, or -1 for a bad shape or NULL pointer. */
int sk_maxpool2x2_even(const float *in, int C, int H, int W, float *out);

#ifdef __cplusplus
}
#endif

#endif
