/*
 * The direct 3x3 convolution's speed on the shapes u2netp runs it on at full size: 3 -> 64 (its
 * first layer) and 64 -> 1 (a side output) at 320 x 320, 160 and 80 for the side outputs, on the
 * widest kernel path this CPU has; random data, best of 7 calls, thread CPU time and
 * multiply-adds a second.
 *
 *   K=Sources/CSegmentationKernels; clang -O2 -I$K/include -I$K Benchmarks/direct-conv.c \
 *       $K/segmentation_kernels.c $K/conv3x3_avx512.c $K/kernel_paths.c $K/winograd4.c \
 *       $K/winograd4_avx512.c $K/winograd4_avx512_channels.c $K/scale2x.c -lm -o /tmp/direct-conv
 *   /tmp/direct-conv
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "segmentation_kernels.h"

static double now(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

static float *random_floats(size_t count) {
    float *values = malloc(count * sizeof(float));
    for (size_t i = 0; i < count; i++) values[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    return values;
}

static void measure(int inC, int size, int outC) {
    float *in = random_floats((size_t)inC * size * size), *weight = random_floats((size_t)outC * inC * 9);
    float *bias = random_floats((size_t)outC), *out = random_floats((size_t)outC * size * size);
    double best = 1e9;
    for (int run = 0; run < 7; run++) {
        double start = now();
        sk_conv3x3(in, inC, size, size, weight, bias, outC, 1, 1, out);
        double seconds = now() - start;
        if (seconds < best) best = seconds;
    }
    double macs = (double)inC * outC * 9 * size * size;
    printf("%3d -> %3d at %3d x %3d: %.2f ms, %.1f GMAC/s\n", inC, outC, size, size, best * 1e3, macs / best / 1e9);
    free(in), free(weight), free(bias), free(out);
}

int main(void) {
    printf("kernel path %d (0 scalar, 1 AVX2, 2 AVX-512)\n", sk_kernels_default());
    measure(3, 320, 64);
    measure(64, 320, 1);
    measure(64, 160, 1);
    measure(64, 80, 1);
    return 0;
}
