#ifndef STICKER_CATALOG_SEGMENTATION_KERNELS_H
#define STICKER_CATALOG_SEGMENTATION_KERNELS_H

/*
 * Float32 kernels for a small convolutional segmentation network (u2netp).
 *
 * Layout: plain NCHW with N = 1, i.e. a tensor is C planes of H rows of W floats, contiguous,
 * no padding ("CHW"). Channel concatenation is then a copy of whole planes, and a kernel's
 * output planes can be written straight into a slice of a concatenation buffer.
 *
 * Every function checks its sizes (positive, products fit in an int) and pointers (non-null)
 * and returns 0 on success or -1 without touching the output otherwise. No kernel allocates
 * or keeps state; the caller owns every buffer. Inputs and outputs must not overlap, except
 * for sk_add and sk_sigmoid, which may work in place (out == a or out == in).
 *
 * The convolutions pick a path at run time (__builtin_cpu_supports): AVX-512 (F) where the CPU
 * has it, else AVX2+FMA, else a portable scalar path. The direct paths sum in the same order per
 * output (bias, then input channel by channel, taps row by row), so they agree to rounding of
 * fused multiply-adds, and the AVX2 and AVX-512 paths give the same floats. The `_with` forms
 * take the path explicitly (tests run every path the CPU has against the scalar one); the others
 * use sk_kernels_default().
 */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel paths, narrowest first. */
enum { SK_KERNELS_SCALAR = 0, SK_KERNELS_AVX2 = 1, SK_KERNELS_AVX512 = 2 };

/* 1 when this CPU can run path `kernels` (scalar always; AVX2 needs AVX2+FMA; AVX-512 needs
 * AVX-512F besides), else 0. */
int sk_kernels_supported(int kernels);

/* The path the kernels without `_with` use: the widest this CPU supports, unless sk_kernels_narrow
 * chose another (the CLI does for STICKER_KERNELS=scalar|avx2|avx512). Chosen once per process. */
int sk_kernels_default(void);

/* Makes `kernels` the default path when this CPU supports it (else the widest it does). Called once,
 * before any kernel runs. */
void sk_kernels_narrow(int kernels);

/* 3x3 convolution, stride 1, zero padding = dilation on every side, so the output is H x W.
 * in [inC][H][W], weight [outC][inC][3][3], bias [outC] (may be NULL: zero), out [outC][H][W].
 * relu != 0 clamps the result at 0. dilation >= 1. */
int sk_conv3x3(const float *in, int inC, int H, int W,
               const float *weight, const float *bias, int outC,
               int dilation, int relu, float *out);

/* The same on path `kernels`; -1 when the CPU lacks it. */
int sk_conv3x3_with(int kernels, const float *in, int inC, int H, int W,
                    const float *weight, const float *bias, int outC,
                    int dilation, int relu, float *out);

/* sk_conv3x3_with for output rows y0 ..< y1 only (the same floats there as the whole call gives).
 * Calls for disjoint rows may run at the same time on the same input and output. */
int sk_conv3x3_rows_with(int kernels, const float *in, int inC, int H, int W,
                         const float *weight, const float *bias, int outC,
                         int dilation, int relu, int y0, int y1, float *out);

/* The same, always on the portable scalar path (for tests and CPUs without AVX2+FMA). */
int sk_conv3x3_portable(const float *in, int inC, int H, int W,
                        const float *weight, const float *bias, int outC,
                        int dilation, int relu, float *out);

/* The same convolution (dilation 1) by Winograd F(4x4, 3x3): 4x fewer multiply-adds than direct,
 * results equal to sk_conv3x3's up to float rounding (about 1e-5 relative: the transforms scale by
 * up to 8 and 1/24). The weights are transformed once, ahead of time, by sk_winograd4_pack into
 * `packed` (sk_winograd4_packed_count(inC, outC) floats, which must stay unchanged between the
 * two calls). Vector paths only (no scalar version): returns -1 when sk_uses_winograd4() is 0,
 * so callers check that first and keep sk_conv3x3 otherwise. The AVX2 and AVX-512 paths give
 * the same floats (same multiply-adds in the same order). `workspace` holds at least
 * sk_winograd4_workspace(inC, outC) floats of scratch, overwritten by every call. */
int sk_conv3x3_winograd4(const float *in, int inC, int H, int W,
                         const float *packed, const float *bias, int outC,
                         int relu, float *workspace, float *out);

/* The same with fusions that save whole-tensor passes: the input is the channel concatenation
 * of `in` (inC planes) and `in2` (in2C planes; NULL and 0 for none), read in place; an input
 * whose `Up` flag is set holds planes of H/2 x W/2 (H and W even) and is read as
 * sk_resize_bilinear_halfpixel would resize it to H x W (same coefficients and rounding); and
 * when `residual` (outC x H x W, may be NULL) is given it is added after the ReLU:
 * out = relu(conv(concat(up?(in), up?(in2))) + bias) + residual. `packed` is for inC + in2C inputs.
 * `residual` may be `out` itself (each sum is written over the value it read), but neither may
 * overlap `in` or `in2`. */
int sk_conv3x3_winograd4_fused(const float *in, int inC, int inUp, const float *in2, int in2C, int in2Up, int H, int W,
                               const float *packed, const float *bias, int outC, int relu,
                               const float *residual, float *workspace, float *out);

/* The same on path `kernels` (SK_KERNELS_AVX2 or SK_KERNELS_AVX512; the packed weights and the
 * workspace are the same for both); -1 for the scalar path or one the CPU lacks. */
int sk_conv3x3_winograd4_fused_with(int kernels, const float *in, int inC, int inUp, const float *in2, int in2C, int in2Up,
                                    int H, int W, const float *packed, const float *bias, int outC, int relu,
                                    const float *residual, float *workspace, float *out);

/* Tile rows of sk_conv3x3_winograd4 at height H: each is 4 output rows (the last may be cut short). */
int sk_winograd4_tile_rows(int H);

/* sk_conv3x3_winograd4_fused_with for output tile rows ty0 ..< ty1 only (rows 4 * ty0 ..< 4 * ty1),
 * the same floats there as the whole call gives. Calls for disjoint tile rows may run at the same
 * time on the same input and output, each with a workspace of its own. */
int sk_conv3x3_winograd4_fused_rows_with(int kernels, const float *in, int inC, int inUp, const float *in2, int in2C,
                                         int in2Up, int H, int W, const float *packed, const float *bias, int outC,
                                         int relu, const float *residual, int ty0, int ty1, float *workspace,
                                         float *out);

/* Transforms weight [outC][inC][3][3] for sk_conv3x3_winograd4 into `packed`. */
int sk_winograd4_pack(const float *weight, int inC, int outC, float *packed);

/* Floats of packed weights, and of workspace, sk_conv3x3_winograd4 needs (0 for bad sizes). */
size_t sk_winograd4_packed_count(int inC, int outC);
size_t sk_winograd4_workspace(int inC, int outC);

/* The same convolution by F(4x4, 3x3) from compact weights (winograd4_compact.c): the kernels kept
 * in half precision (IEEE binary16, 2 bytes a weight where packed floats take 16) and transformed
 * at every call, for planes of few tiles whose packed weights would be large next to the products
 * they feed. The weights are laid out by sk_winograd4c_pack: [inC][3][3][outC rounded up to 32],
 * each rounded to nearest. A call is two steps: sk_winograd4c_input_with transforms the input
 * (the fused concatenation and 2x resizes of sk_conv3x3_winograd4_fused) into V
 * (sk_winograd4c_input_count floats), then sk_winograd4c_output_with computes panels
 * panel0 ..< panel1 of 32 output channels (of sk_winograd4c_panels(outC)) from V, adding bias,
 * ReLU and residual as sk_conv3x3_winograd4_fused does; calls for disjoint panels may run at the
 * same time on the same V and output, each with scratch of its own (sk_winograd4c_scratch_count
 * floats; the input step takes one too). With weights that half precision holds exactly, the
 * outputs are sk_conv3x3_winograd4_fused's up to the transformed weights' rounding (computed in
 * float here, in double there); the AVX2 and AVX-512 paths give the same floats. Planes up to
 * 192 pixels wide. Vector paths
 * with F16C only (sk_winograd4c_supported); -1 for bad sizes or another path. */
size_t sk_winograd4c_weight_count(int inC, int outC);
int sk_winograd4c_pack(const float *weight, int inC, int outC, unsigned short *compact);
int sk_winograd4c_supported(int kernels);
int sk_winograd4c_panels(int outC);
size_t sk_winograd4c_input_count(int inC, int H, int W);
size_t sk_winograd4c_scratch_count(int inC, int H, int W);
int sk_winograd4c_input_with(int kernels, const float *in, int inC, int inUp, const float *in2, int in2C, int in2Up, int H,
                             int W, float *scratch, float *V);
int sk_winograd4c_output_with(int kernels, const float *V, int inC, int H, int W, const unsigned short *compact,
                              const float *bias, int outC, int relu, const float *residual, int panel0, int panel1,
                              float *scratch, float *out);

/* A 3x3 convolution of dilation d on H x W planes as one of dilation 1 on a tall plane of
 * tallH x tallW (sk_dilated_tall_size): the d x d subplanes of pixels d apart stacked, each in a
 * block of zero-padded rows (dilated_planes.c). sk_dilated_gather writes C planes of `in` that way
 * (zeros between), sk_dilated_scatter writes C tall planes' kept pixels back to H x W planes. */
int sk_dilated_tall_size(int H, int W, int d, int *tallH, int *tallW);
int sk_dilated_gather(const float *in, int C, int H, int W, int d, float *tall);
int sk_dilated_scatter(const float *tall, int C, int H, int W, int d, float *out);

/* 1 when sk_conv3x3_winograd4 can run on the default path (AVX2 or AVX-512), else 0. */
int sk_uses_winograd4(void);

/* 1x1 convolution: out[o][p] = bias[o] + sum_c weight[o][c] * in[c][p] (then ReLU if relu). */
int sk_conv1x1(const float *in, int inC, int H, int W,
               const float *weight, const float *bias, int outC,
               int relu, float *out);

/* 2x2 max pooling, stride 2, no padding, ceil mode: out is [C][(H+1)/2][(W+1)/2]; windows at
 * an odd border are clipped (a 1- or 2-pixel window). */
int sk_maxpool2x2_ceil(const float *in, int C, int H, int W, float *out);

/* Bilinear resize of each plane to outH x outW with half-pixel centres (PyTorch
 * align_corners=False): src = (dst + 0.5) * in / out - 0.5, clamped below at 0, the upper
 * neighbour clamped to in - 1. */
int sk_resize_bilinear_halfpixel(const float *in, int C, int H, int W,
                                 int outH, int outW, float *out);

/* out[i] = a[i] + b[i] for i < count. */
int sk_add(const float *a, const float *b, long count, float *out);

/* out[i] = 1 / (1 + exp(-in[i])) for i < count. */
int sk_sigmoid(const float *in, long count, float *out);

/* 1 when this CPU has AVX2+FMA (the default path may still be narrower, see sk_kernels_default), else 0. */
int sk_uses_avx2(void);

#ifdef __cplusplus
}
#endif

#endif
