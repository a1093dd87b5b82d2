#ifndef STICKER_CATALOG_INT8_CONV_H
#define STICKER_CATALOG_INT8_CONV_H

/*
 * The int8 3x3 convolution (int8_conv.c owns its packing and its scalar reference; the vector
 * paths are int8_conv_avx2.c and int8_conv_avx512.c).
 *
 * A layer runs in two steps. sk_q8_input quantizes the input to unsigned bytes with one scale
 * for the whole tensor, or one for each part of a concatenation (x / scale rounded to nearest,
 * clamped to 0 ..< 256: the inputs are ReLU outputs and their sums and resizes, never negative),
 * into "quads": 4 channels a pixel,
 * [ceil(C / 4)][H + 2d][W + 2d][4] with d rows and columns of zeros around each plane, each quad
 * plane followed by SK_Q8_SLACK zero pixels. sk_q8_conv_rows then sums u8 x s8 products in int32
 * (exact: no saturation, u2net's 1024 channels stay far from 2^31) against weights quantized per
 * output channel (sk_q8_pack: w / wscale[o] rounded, in -127 ... 127), and writes
 * (float)sum * (scale * wscale[o]) + bias[o] as one fused multiply-add (and the second part's sum
 * at its scale added by another), then ReLU, then + residual.
 *
 * Every path computes the same integers and the same float operations on them, so the scalar,
 * AVX2 (16-bit pair products widened to int32 by vpmaddwd: never vpmaddubsw, whose 16-bit pair
 * sums saturate at 255 x 127 x 2), AVX-VNNI and AVX-512 VNNI paths give bit-identical outputs.
 * Every function checks its arguments and returns -1 without writing on bad ones (or a path the
 * CPU lacks), else 0.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The int8 paths, narrowest first. */
enum { SK_Q8_SCALAR = 0, SK_Q8_AVX2 = 1, SK_Q8_AVXVNNI = 2, SK_Q8_AVX512VNNI = 3 };

/* Zero pixels after each quad plane: the vector paths read whole blocks of positions past a
 * plane's last row and drop those lanes. */
enum { SK_Q8_SLACK = 64 };

/* 1 when this CPU runs int8 path `path` (AVX2 needs AVX2; AVX-VNNI needs AVX2 and AVX-VNNI;
 * AVX-512 VNNI needs AVX-512 F, BW and VNNI), else 0. */
int sk_q8_supported(int path);

/* The widest int8 path within the float32 kernel path `kernels` (SK_KERNELS_*) this CPU runs:
 * AVX-512 VNNI under SK_KERNELS_AVX512, AVX-VNNI or else AVX2 under SK_KERNELS_AVX2, scalar under
 * SK_KERNELS_SCALAR; -1 for a bad value. */
int sk_q8_path_for_kernels(int kernels);

/* Bytes of packed weights for C inputs and O outputs (0 for bad sizes): output channels in
 * blocks of 8, then the 9 taps, then quads of input channels, then 8 outputs x 4 inputs. */
size_t sk_q8_packed_bytes(int C, int O);

/* Quantizes weight [O][C][3][3] into `packed` (sk_q8_packed_bytes) and wscale (O floats): per
 * output channel, wscale = max |w| / 127 (1 for an all-zero channel). */
int sk_q8_pack(const float *weight, int C, int O, int8_t *packed, float *wscale);

/* Bytes of quads for C channels of H x W planes padded by d. */
size_t sk_q8_input_bytes(int C, int H, int W, int d);

/* Where the second scale of a concatenation of inC and in2C channels starts: inC when there is
 * a second part and inC is a whole number of quads, else inC + in2C (one scale). */
int sk_q8_split(int inC, int in2C);

/* Quantizes the channel concatenation of `in` (inC planes) and `in2` (in2C planes; NULL and 0
 * for none), each H x W, or H/2 x W/2 when its `Up` flag is set and then read as
 * sk_resize_bilinear_halfpixel would resize it (the same arithmetic, no fused multiply-adds), into
 * quads padded by d. `scales`: on entry the scales to use (the channels below sk_q8_split, the
 * rest), or scales[0] = 0 for scales measured on the input: each part's clip level / 255, where
 * the clip level keeps all but 1 in 10,000 of a fixed sample (every 7th) of its positive values
 * below it (a few outliers would leave every other value a handful of levels), or is the largest
 * value when the sample is under 10,000; 1 for an all-zero part.
 * They are stored back. Negative inputs become 0, values above the clip level 255. */
int sk_q8_input(const float *in, int inC, int inUp, const float *in2, int in2C, int in2Up, int H, int W, int d,
                float scales[2], uint8_t *quads);

/* Output rows y0 ..< y1 of the convolution of dilation d (zero padding d) of the quads (C
 * channels, those below `split` quantized with scales[0], the rest with scales[1]) on path
 * `path`: out [O][H][W] = fma((float)sum, scales[0] wscale[o], bias[o]) (bias may be NULL: 0),
 * then fma((float)sum2, scales[1] wscale[o], .) when split < C, then max(0, .) when relu, then
 * + residual ([O][H][W], may be NULL or `out` itself). Calls for disjoint rows may run at the
 * same time. */
int sk_q8_conv_rows(int path, const uint8_t *quads, int C, int split, int H, int W, int d, const float scales[2],
                    const int8_t *packed, const float *wscale, const float *bias, int O, int relu, const float *residual, int y0,
                    int y1, float *out);

#ifdef __cplusplus
}
#endif

#endif
