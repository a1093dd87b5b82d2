#ifndef STICKER_CATALOG_RESAMPLE_ROWS_H
#define STICKER_CATALOG_RESAMPLE_ROWS_H

/*
 * The two passes of ImageResizer, in C so that the widening of 8-bit rows and their
 * conversion to premultiplied float run four pixels a step (AVX2, chosen at run time), and the
 * vertical sums and the way back to bytes four pixels a step (AVX-512); and both
 * passes of LanczosResampler in integers (AVX-512 or AVX2 chosen at run time, portable fallback).
 * No state, no allocation: thread-safe.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The horizontal half of ImageResizer's area-averaging/bilinear resample: converts a row of
 * `source_width` 8-bit pixels of `channels` samples (1 grey, 2 grey + alpha, 3 RGB, 4 RGBA) to
 * premultiplied float RGBA (colour times alpha, alpha) in `scratch` (4 * source_width floats),
 * then writes `width` float RGBA pixels to `target`, pixel x being the sum over t < counts[x]
 * (at least 1), in order, of weights[offsets[x] + t] times pixel starts[x] + t. Every product and
 * sum is rounded to float separately (no fused multiply-add), so the results are those of the
 * same steps in Swift, to the bit.
 */
void resample_row_premultiplied(const uint8_t *source, unsigned channels, size_t source_width, float *scratch,
                                size_t width, const intptr_t *starts, const intptr_t *counts, const intptr_t *offsets, const float *weights,
                                float *target);

/*
 * The vertical half of the same resample, and the way back to bytes: output pixel x of one row is
 * the sum over t < taps, in order, of weights[t] times pixel x of rows[t] (premultiplied float RGBA
 * rows of `width` pixels), rounded to float at every step; then straight 8-bit RGBA in `target`:
 * (0, 0, 0, 0) below half a level of alpha, else each colour times the float reciprocal of alpha,
 * alpha itself, clamped at 255 and rounded to nearest. The same bytes as ImageResizer's former Swift
 * loop; AVX-512 (four pixels a step) when the CPU has it.
 */
void resample_column_unpremultiplied(const float *const *rows, size_t taps, const float *weights, size_t width,
                                     uint8_t *target);

/*
 * LanczosResampler's two passes (Pillow's 8-bit resample, to the byte) in Pillow's integer
 * arithmetic: int32 sums from 1 << 21 of 8-bit samples times 22-bit fixed-point weights, clipped
 * as Pillow's clip8 (sum >> 22, clamped to 0..255). Every path gives the same bytes.
 */

/* The paths, narrowest first; numbered as CSegmentationKernels' SK_KERNELS_* so that one
 * choice (ConvolutionKernels, STICKER_KERNELS) picks both. */
enum { LANCZOS_KERNELS_PORTABLE = 0, LANCZOS_KERNELS_AVX2 = 1, LANCZOS_KERNELS_AVX512 = 2 };

/* 1 when this CPU can run path `kernels` (portable always; AVX2; AVX-512 needs F, BW and VL
 * besides AVX2), else 0. */
int lanczos_kernels_supported(int kernels);

/*
 * The horizontal pass over one row of RGBA pixels: `width` pixels to `target` (4 bytes each, all
 * four samples filtered), pixel x the clipped sum over t < counts[x] of source pixel starts[x] + t
 * times weights[x * weight_stride + t]. Runs the widest supported path not wider than `kernels`
 * and returns it.
 */
int lanczos_resample_across(int kernels, const uint8_t *source, size_t width, const int32_t *starts, const int32_t *counts,
                            const int32_t *weights, size_t weight_stride, uint8_t *target);

/*
 * The vertical pass for one output row: `width` RGBA pixels to `target`, byte i the clipped sum
 * over t < taps of rows[t][i] times weights[t], alpha set to 255. Runs the widest supported path
 * not wider than `kernels` and returns it.
 */
int lanczos_resample_down(int kernels, const uint8_t *const *rows, size_t taps, const int32_t *weights, size_t width,
                          uint8_t *target);

#ifdef __cplusplus
}
#endif

#endif
