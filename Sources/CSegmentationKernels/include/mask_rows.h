#ifndef STICKER_CATALOG_MASK_ROWS_H
#define STICKER_CATALOG_MASK_ROWS_H

/*
 * Row loops of the mask and edge work kept in C so they vectorise, each giving the same values
 * as the Swift it replaced:
 * - resampling a mask to bytes row by row (PlaneResampler.Rows): one output row as the blend of
 *   two source rows already interpolated across (Swift checks every Float-to-integer conversion;
 *   a bit trick around the check ran at less than half this speed);
 * - the per-pixel step of Blur-Fusion decontamination (EdgeDecontamination), one channel of one
 *   row: the foreground and background estimates from the box means (Swift's SIMD selects ran
 *   lane by lane).
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[x] = clamp(top[x] + (bottom[x] - top[x]) * weight + 0.5, 0, 255), truncated, for x < count:
 * the same arithmetic, in the same order and without fused multiply-adds, as
 * PlaneResampler.bilinear's byte rounding, so both give the same bytes. */
void sk_blend_rows_to_bytes(const float *top, const float *bottom, float weight, int count, uint8_t *out);

/* For x < count, with a = alpha[x], m = blurred_alpha[x], s = seen[x]:
 *   F^ = m > 1e-5 ? weighted_fg[x] / m : s;   B^ = 1 - m > 1e-5 ? weighted_bg[x] / (1 - m) : s;
 *   r = s - a F^ - (1 - a) B^;
 *   fg[x] = min(1, max(0, F^ + a r));   bg[x] = min(1, max(0, B^ + (1 - a) r)) unless bg is NULL,
 * with min and max as Swift's standard library defines them and no fused multiply-adds, so the
 * floats are the same, bit for bit, as the Swift scalar expressions. */
void sk_edge_estimates(int count, const float *alpha, const float *blurred_alpha, const float *weighted_fg,
                       const float *weighted_bg, const float *seen, float *fg, float *bg);
/* The same on path `kernels` (see segmentation_kernels.h); every path gives the same floats. */
void sk_edge_estimates_with(int kernels, int count, const float *alpha, const float *blurred_alpha, const float *weighted_fg,
                            const float *weighted_bg, const float *seen, float *fg, float *bg);

/* The seven rows one Blur-Fusion pass filters, one after another (`count` each) at `rows`:
 * alpha; foreground channel c times alpha (c = 0, 1, 2; channel c at foreground + c * foreground_stride);
 * background channel c times (1 - alpha). One multiplication each, as the Swift expressions. */
void sk_edge_weighted_rows(int count, const float *alpha, const float *foreground, long foreground_stride,
                           const float *background, long background_stride, float *rows);
void sk_edge_weighted_rows_with(int kernels, int count, const float *alpha, const float *foreground, long foreground_stride,
                                const float *background, long background_stride, float *rows);

/* The red, green and blue of `count` RGBA pixels as three planes of `count` floats,
 * (float)byte / 255 each (Swift's `Float(byte) / 255`). */
void sk_rgb_unit_planes(const uint8_t *rgba, int count, float *planes);
void sk_rgb_unit_planes_with(int kernels, const uint8_t *rgba, int count, float *planes);

/* StickerRenderer's per-pixel loops over a premultiplied RGBA float canvas (4 floats a pixel,
 * `count` pixels), with the Swift expressions' operations and Swift's min/max:
 * sk_sticker_outline: amount = min(1, max(0, width + 0.5 - distances[i])); where amount > 0, with
 *   below = 1 - alpha, each colour and alpha += amount * below, and cover[i] = the new alpha;
 * sk_sticker_bytes: straight RGBA bytes, min(255, max(0, round(colour / alpha * 255))) (halves away
 *   from zero) and likewise alpha * 255; all four 0 where alpha is not above 0;
 * sk_sticker_premultiplied: `count` RGBA pixels as canvas pixels, alpha a = byte / 255 (also into
 *   `alpha`), colours byte / 255 * a. */
void sk_sticker_outline(float *canvas, float *cover, const float *distances, float width, long count);
void sk_sticker_outline_with(int kernels, float *canvas, float *cover, const float *distances, float width, long count);
void sk_sticker_bytes(const float *canvas, long count, uint8_t *pixels);
void sk_sticker_bytes_with(int kernels, const float *canvas, long count, uint8_t *pixels);
void sk_sticker_premultiplied(const uint8_t *rgba, int count, float *canvas, float *alpha);
void sk_sticker_premultiplied_with(int kernels, const uint8_t *rgba, int count, float *canvas, float *alpha);

/* The row steps of BoxFilter.means, where a row of up to `lanes` (4 or 8) planes is kept
 * interleaved (value of plane k at column x at [x * lanes + k]) so the planes run as SIMD lanes.
 * Each path (`kernels`, see segmentation_kernels.h; the forms without `_with` take the default)
 * does the same double operations in the same order, so all give the same floats.
 *
 * sk_box_sums_across: `planes` planar rows of `width` at `planar` are interleaved into
 * `interleaved` (lanes * width; lanes at or past `planes` must hold zeros, and are never written)
 * and their running window sums over columns x - radius ... x + radius (cut at the frame) written
 * to `sums` (interleaved): per lane, a double sum starting at zero adds columns 0 ... radius, then
 * for each x stores (float)sum, adds column x + radius + 1 and subtracts column x - radius (each
 * while it exists). */
void sk_box_sums_across(const float *planar, int planes, int lanes, int width, int radius, float *interleaved, float *sums);
void sk_box_sums_across_with(int kernels, const float *planar, int planes, int lanes, int width, int radius,
                             float *interleaved, float *sums);
/* sk_box_sums_across for two rows at once (a and b, each with its own buffers): the same sums,
 * faster, as each step's two chains of additions a lane run side by side. */
void sk_box_sums_across_pair(const float *planar_a, const float *planar_b, int planes, int lanes, int width, int radius,
                             float *interleaved_a, float *interleaved_b, float *sums_a, float *sums_b);
void sk_box_sums_across_pair_with(int kernels, const float *planar_a, const float *planar_b, int planes, int lanes, int width,
                                  int radius, float *interleaved_a, float *interleaved_b, float *sums_a, float *sums_b);

/* sums[i] = (sums[i] + (double)entering[i]) - (double)leaving[i] for i < count; either may be NULL
 * (then that step is left out). */
void sk_box_column_update(double *sums, const float *entering, const float *leaving, long count);
void sk_box_column_update_with(int kernels, double *sums, const float *entering, const float *leaving, long count);

/* For x0 <= x < x1 and k < planes: out[k * width + x] = (float)(sums[x * lanes + k] / (rows_in * columns_in[x])). */
void sk_box_means(const double *sums, int planes, int lanes, int width, int x0, int x1, double rows_in,
                  const double *columns_in, float *out);
void sk_box_means_with(int kernels, const double *sums, int planes, int lanes, int width, int x0, int x1,
                       double rows_in, const double *columns_in, float *out);

#ifdef __cplusplus
}
#endif

#endif
