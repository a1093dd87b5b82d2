#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>

// Function-like and cast macros Swift does not import, as functions it can call.
static inline int cffmpeg_error_eagain(void) { return AVERROR(EAGAIN); }
static inline int cffmpeg_error_eof(void) { return AVERROR_EOF; }
static inline int64_t cffmpeg_nopts_value(void) { return AV_NOPTS_VALUE; }

// The stream's display matrix (9 int32), or NULL. FFmpeg 6.1 moved stream side data into the codec
// parameters and deprecated av_stream_get_side_data; one place picks the call the headers offer.
static inline const int32_t *cffmpeg_display_matrix(const AVStream *stream) {
#if LIBAVFORMAT_VERSION_MAJOR > 60 || (LIBAVFORMAT_VERSION_MAJOR == 60 && LIBAVFORMAT_VERSION_MINOR >= 15)
    const AVPacketSideData *data = av_packet_side_data_get(stream->codecpar->coded_side_data,
                                                           stream->codecpar->nb_coded_side_data,
                                                           AV_PKT_DATA_DISPLAYMATRIX);
    return data && data->size >= 9 * sizeof(int32_t) ? (const int32_t *)data->data : NULL;
#else
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    return data && size >= 9 * sizeof(int32_t) ? (const int32_t *)data : NULL;
#endif
}

// How long the frame shows, in its stream's time base (0 when unknown). lavu 57.30 renamed
// pkt_duration to duration and later deprecated the old name.
static inline int64_t cffmpeg_frame_duration(const AVFrame *frame) {
#if LIBAVUTIL_VERSION_INT >= AV_VERSION_INT(57, 30, 100)
    return frame->duration;
#else
    return frame->pkt_duration;
#endif
}

// sws_scale into one packed RGBA buffer: the frame's plane pointers are a C array that Swift sees
// as a tuple.
static inline int cffmpeg_scale_to_rgba(struct SwsContext *context, const AVFrame *frame, uint8_t *pixels, int stride) {
    uint8_t *planes[4] = { pixels, NULL, NULL, NULL };
    int strides[4] = { stride, 0, 0, 0 };
    return sws_scale(context, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
}

// sws_scale from one packed RGBA buffer into a frame's planes (the encoder's side of the above).
static inline int cffmpeg_scale_from_rgba(struct SwsContext *context, const uint8_t *pixels, int stride, int height, AVFrame *frame) {
    const uint8_t *planes[4] = { pixels, NULL, NULL, NULL };
    const int strides[4] = { stride, 0, 0, 0 };
    return sws_scale(context, planes, strides, 0, height, frame->data, frame->linesize);
}
