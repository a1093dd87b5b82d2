#ifndef STICKER_CATALOG_WINOGRAD4_INTERNAL_H
#define STICKER_CATALOG_WINOGRAD4_INTERNAL_H

#include <stddef.h>

/*
 * What winograd4.c lends winograd4_compact.c (not public; arguments already checked there).
 */

/* Floats between V's 36 matrices for C channels of rows `vrow` floats (a cache line of stagger). */
size_t sk_w4_vstride(int C, int vrow);

/* Floats of row scratch the input transform needs (16 rows of SK_W4_ROW). */
enum { SK_W4_ROWS_SCRATCH = 16 * (4 * 48 + 16) };

/* F(4x4, 3x3)'s input transform of every tile of an H x W plane on path `kernels`, channels below
 * cA from inA, the rest from inB (each resized 2x on the fly when its flag is set): tile (ty, tx)
 * at column ty * ceil(W / 4) + tx of V's rows, which are `vrow` floats (at least
 * (ceil(H / 4) - 1) * ceil(W / 4) + the tiles a row rounded up to 8); W at most 192 pixels.
 * `rows` holds SK_W4_ROWS_SCRATCH floats. */
void sk_w4_input_plane(int kernels, const float *inA, int cA, int upA, const float *inB, int upB, int C, int H, int W,
                       int vrow, float *rows, float *V);

/* F(4x4, 3x3)'s output transform (the AVX2 one, the same floats as the AVX-512 one) for the n
 * tiles t0 ..< t0 + n of tile row ty: M as [tile][output] (`op` floats a tile, the 36 matrices
 * `mstride` apart), outputs 0 ..< O; out = A^T M A + bias, then ReLU, then + residual. */
void sk_w4_output_tiles(const float *M, size_t mstride, const float *bias, int O, int op, int H, int W, int ty, int t0, int n,
                        int relu, const float *residual, float *out);

#endif
