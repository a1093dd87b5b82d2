/*
 * What each DCT scale costs libjpeg-turbo: every JPEG named is decoded to RGBA through TurboJPEG at
 * 1/4, 3/8, 1/2 and 1/1, three rounds, and the average thread CPU time of a decode printed per
 * scale. Made to choose the scale of 12 MP photos (at 3/8 libjpeg-turbo's inverse DCT has no SIMD
 * version; at 1/4 and 1/2 it has).
 *
 *   gcc -O2 Benchmarks/jpeg-scales.c -lturbojpeg -o /tmp/jpeg-scales
 *   /tmp/jpeg-scales bench-data/photos-12mp/bench-000[0-5].jpg
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <turbojpeg.h>

enum { SCALES = 4, ROUNDS = 3 };
static const int numerator[SCALES] = {1, 3, 1, 1}, denominator[SCALES] = {4, 8, 2, 1};

static double now(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

static unsigned char *contents(const char *path, long *size) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    *size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc((size_t)*size);
    if (bytes && fread(bytes, 1, (size_t)*size, file) != (size_t)*size) { free(bytes); bytes = NULL; }
    fclose(file);
    return bytes;
}

int main(int argc, char **argv) {
    double seconds[SCALES] = {0};
    int width[SCALES] = {0}, height[SCALES] = {0}, decodes = 0;
    tjhandle handle = tjInitDecompress();
    for (int round = 0; round < ROUNDS; round++)
        for (int f = 1; f < argc; f++) {
            long size;
            unsigned char *bytes = contents(argv[f], &size);
            int w, h, subsampling, colorspace;
            if (!bytes || tjDecompressHeader3(handle, bytes, (unsigned long)size, &w, &h, &subsampling, &colorspace)) {
                fprintf(stderr, "%s: not a readable JPEG\n", argv[f]);
                return 1;
            }
            for (int s = 0; s < SCALES; s++) {
                width[s] = TJSCALED(w, ((tjscalingfactor){numerator[s], denominator[s]}));
                height[s] = TJSCALED(h, ((tjscalingfactor){numerator[s], denominator[s]}));
                unsigned char *pixels = malloc((size_t)width[s] * height[s] * 4);
                double start = now();
                if (tjDecompress2(handle, bytes, (unsigned long)size, pixels, width[s], 0, height[s], TJPF_RGBA, 0))
                    fprintf(stderr, "%s: %s\n", argv[f], tjGetErrorStr2(handle));
                seconds[s] += now() - start;
                free(pixels);
            }
            free(bytes);
            decodes++;
        }
    tjDestroy(handle);
    for (int s = 0; s < SCALES && decodes > 0; s++)
        printf("%d/%d: %.1f ms a decode (%d x %d, the last file)\n", numerator[s], denominator[s], seconds[s] / decodes * 1e3,
               width[s], height[s]);
    return 0;
}
