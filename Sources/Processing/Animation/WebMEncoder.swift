import CFFmpeg

/// Writes a WebM with VP9 video that keeps its alpha channel (yuva420p), the format Telegram takes
/// for video stickers, through FFmpeg's `libvpx-vp9` encoder and `webm` muxer into memory. There is
/// no audio stream and nothing about looping: Telegram loops every video sticker itself.
///
/// libvpx encodes the alpha plane as a second VP9 stream that the muxer carries in each block's
/// BlockAdditional and announces with the track's AlphaMode; decoders that ignore it (FFmpeg's
/// native vp9) still show the colour picture.
///
/// The same frames give the same bytes: one encoder thread, FFmpeg's bit-exact flags (without them
/// the muxer writes a random segment UID and its version), and libswscale's bit-exact conversion, so
/// the output does not depend on which SIMD paths the machine has either.
public enum WebMEncoder {
    /// libvpx's speed/quality trade-off at `deadline good` (0 slowest ... 5 fastest). 90 frames of
    /// 512x512 on one thread (x86-64, 2 cores, user time): a disc over transparency 1.3 s; a busy
    /// test pattern (testsrc2 in a disc) 5.5 s at 4, 6.4 s at 3, 8.4 s at 2, where 2 is 18-36 %
    /// smaller at the same crf. A byte budget is met by encoding more than once, so speed wins; above
    /// 4 `good` is no faster. `encodeTimeAtTelegramSize` in WebMEncoderTests prints the figure.
    static let cpuUsed = 4

    /// The WebM of `frames` (one size, any width and height, straight alpha as ``RGBAImage`` holds
    /// it), frame i shown for `durations[i]` milliseconds (at least 1), at `quality` 0...100 (higher
    /// is better and bigger; clamped). `frameRate`: the constant rate the frames are on (see
    /// ``AnimationClip/steadied(atMost:within:)``), written as the track's default frame duration, which
    /// readers take for its frame rate; nil for other timings. Byte for byte the same for the same input.
    public static func encode(_ frames: [RGBAImage], durations: [Int], quality: Int, frameRate: Double? = nil) throws(ProcessingError) -> [UInt8] {
        guard let first = frames.first else { throw .encodingFailed("an animation needs at least one frame") }
        guard durations.count == frames.count else { throw .encodingFailed("\(frames.count) frames but \(durations.count) durations") }
        guard frames.allSatisfy({ $0.width == first.width && $0.height == first.height }) else {
            throw .encodingFailed("an animation's frames must all be \(first.width)x\(first.height)")
        }
        guard durations.allSatisfy({ $0 > 0 }) else { throw .encodingFailed("every frame must show for at least 1 ms") }
        guard first.width <= maxDimension, first.height <= maxDimension else {
            throw .encodingFailed("\(first.width)x\(first.height) is larger than VP9 allows (\(maxDimension) a side)")
        }
        _ = ClipDecoder.quietLibraries
        guard let encoder = avcodec_find_encoder_by_name("libvpx-vp9") else {
            throw .encodingFailed("this FFmpeg has no VP9 encoder (libvpx-vp9)")
        }
        let session = try WebMSession(
            encoder: encoder, width: first.width, height: first.height, crf: crf(quality: quality), frames: frames.count,
            frameRate: frameRate.flatMap { $0.isFinite && $0 > 0 ? av_d2q($0, 1001) : nil })
        var start = 0
        for (frame, duration) in zip(frames, durations) {
            try session.add(frame, start: start, duration: duration)
            start += duration
        }
        return try session.finish()
    }

    /// VP9's frame header stores each side less one in 16 bits.
    static let maxDimension = 65_536

    /// libvpx's constant-quality level for `quality`: 0 is crf 63 (the coarsest), 100 is crf 10,
    /// where a sticker's size has stopped buying visible detail; never rising as quality rises.
    static func crf(quality: Int) -> Int {
        63 - (min(100, max(0, quality)) * 53 + 50) / 100
    }
}

/// The bytes the muxer writes, at the position it last sought to: the webm muxer goes back to fill
/// in the segment's size, duration and seek head once the clusters and cues are written.
private final class MemoryOutput {
    var bytes: [UInt8] = []
    var position = 0

    func write(_ source: UnsafeRawBufferPointer) {
        if position > bytes.count { bytes.append(contentsOf: repeatElement(0, count: position - bytes.count)) }
        let overwritten = min(source.count, bytes.count - position)
        if overwritten > 0 {
            bytes.withUnsafeMutableBytes { target in
                target.baseAddress!.advanced(by: position).copyMemory(from: source.baseAddress!, byteCount: overwritten)
            }
        }
        bytes.append(contentsOf: source[overwritten...])
        position += source.count
    }

    func seek(offset: Int64, whence: Int32) -> Int64 {
        if whence & AVSEEK_SIZE != 0 { return Int64(bytes.count) }
        let target: Int64
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = Int64(position) + offset
        case SEEK_END: target = Int64(bytes.count) + offset
        default: return -1
        }
        guard target >= 0 else { return -1 }
        position = Int(target)
        return target
    }
}

/// One encode: the encoder, the muxer and its I/O, the frame, packet and scaler, freed together by
/// `deinit` on every path.
private final class WebMSession {
    private let output = MemoryOutput()
    private let width: Int
    private let height: Int
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var container: UnsafeMutablePointer<AVFormatContext>?
    private var io: UnsafeMutablePointer<AVIOContext>?
    private var stream: UnsafeMutablePointer<AVStream>!
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var scaler: OpaquePointer?
    /// Each frame's duration by its start: libvpx's packets carry the start only, and the muxer takes
    /// the last packet's duration to make the stream as long as the frames' durations add up to.
    private var durations: [Int64: Int64] = [:]
    /// Milliseconds, so that every frame keeps its own duration exactly (Matroska's own unit too).
    private let timeBase = AVRational(num: 1, den: 1000)

    init(encoder: UnsafePointer<AVCodec>, width: Int, height: Int, crf: Int, frames: Int, frameRate: AVRational?) throws(ProcessingError) {
        self.width = width
        self.height = height
        guard avformat_alloc_output_context2(&container, nil, "webm", nil) >= 0, let container else {
            throw .encodingFailed("this FFmpeg has no WebM muxer")
        }
        container.pointee.flags |= AVFMT_FLAG_BITEXACT

        codec = avcodec_alloc_context3(encoder)
        guard let codec else { throw .encodingFailed("out of memory opening the VP9 encoder") }
        codec.pointee.width = Int32(width)
        codec.pointee.height = Int32(height)
        codec.pointee.pix_fmt = AV_PIX_FMT_YUVA420P
        codec.pointee.time_base = timeBase
        // Constant quality: crf alone decides, with no bit rate to aim at.
        codec.pointee.bit_rate = 0
        // One key frame: a sticker is seconds long and always played from its start.
        codec.pointee.gop_size = Int32(clamping: max(1, frames))
        // More threads would split the frame into tiles and rows whose results can depend on timing.
        codec.pointee.thread_count = 1
        codec.pointee.flags |= Int32(AV_CODEC_FLAG_BITEXACT)
        if container.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            codec.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        // What libswscale converts with by default (BT.601, limited range), said in the stream so that
        // players do not guess BT.709 from the size.
        codec.pointee.colorspace = AVCOL_SPC_SMPTE170M
        codec.pointee.color_range = AVCOL_RANGE_MPEG
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "crf", String(crf), 0)
        av_dict_set(&options, "deadline", "good", 0)
        av_dict_set(&options, "cpu-used", String(WebMEncoder.cpuUsed), 0)
        let opened = avcodec_open2(codec, encoder, &options)
        guard opened >= 0 else { throw Self.error(opened, "opening the libvpx-vp9 encoder") }

        let bufferSize = 64 * 1024
        guard let buffer = av_malloc(bufferSize) else { throw .encodingFailed("out of memory opening the WebM output") }
        // The callbacks are closures written in place so that they take the buffer as this FFmpeg's
        // header declares it (FFmpeg 7 made write_packet's buffer const).
        io = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), Int32(bufferSize), 1, Unmanaged.passUnretained(output).toOpaque(), nil,
            { opaque, buffer, size in
                guard let opaque, let buffer, size >= 0 else { return -1 }
                Unmanaged<MemoryOutput>.fromOpaque(opaque).takeUnretainedValue().write(UnsafeRawBufferPointer(start: buffer, count: Int(size)))
                return size
            },
            { opaque, offset, whence in
                guard let opaque else { return -1 }
                return Unmanaged<MemoryOutput>.fromOpaque(opaque).takeUnretainedValue().seek(offset: offset, whence: whence)
            })
        guard let io else {
            av_free(buffer)
            throw .encodingFailed("out of memory opening the WebM output")
        }
        container.pointee.pb = io

        guard let stream = avformat_new_stream(container, nil) else { throw .encodingFailed("out of memory adding the video stream") }
        self.stream = stream
        let copied = avcodec_parameters_from_context(stream.pointee.codecpar, codec)
        guard copied >= 0 else { throw Self.error(copied, "describing the video stream") }
        stream.pointee.time_base = timeBase
        // The muxer writes it as the track's DefaultDuration: readers then see the steady rate, not one
        // guessed from millisecond timestamps (33, 34, 33 ms).
        if let frameRate { stream.pointee.avg_frame_rate = frameRate }
        // Without it the muxer writes FlagDefault 0, a track that players need not pick.
        stream.pointee.disposition = AV_DISPOSITION_DEFAULT
        let header = avformat_write_header(container, nil)
        guard header >= 0 else { throw Self.error(header, "writing the WebM header") }

        packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard packet != nil, let frame else { throw .encodingFailed("out of memory opening the VP9 encoder") }
        frame.pointee.format = AV_PIX_FMT_YUVA420P.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        let allocated = av_frame_get_buffer(frame, 0)
        guard allocated >= 0 else { throw Self.error(allocated, "allocating a frame") }
        // Bit-exact, so the bytes do not depend on the machine's SIMD paths.
        scaler = sws_getContext(
            Int32(width), Int32(height), AV_PIX_FMT_RGBA, Int32(width), Int32(height), AV_PIX_FMT_YUVA420P,
            SWS_BICUBIC | SWS_ACCURATE_RND | SWS_BITEXACT, nil, nil, nil)
        guard scaler != nil else { throw .encodingFailed("no conversion from RGBA to yuva420p") }
    }

    deinit {
        sws_freeContext(scaler)
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
        avformat_free_context(container)
        if io != nil { av_freep(&io!.pointee.buffer) }
        avio_context_free(&io)
    }

    /// Converts `image` and hands it to the encoder, to show from `start` for `duration` milliseconds.
    func add(_ image: RGBAImage, start: Int, duration: Int) throws(ProcessingError) {
        // The encoder may still hold the previous picture's buffer.
        let writable = av_frame_make_writable(frame)
        guard writable >= 0 else { throw Self.error(writable, "allocating a frame") }
        // Colour under full transparency is unseen: black, it costs the colour stream no bytes.
        let scaled = ColorReducer.clearingHiddenColor(image).pixels.withUnsafeBufferPointer { pixels in
            cffmpeg_scale_from_rgba(scaler, pixels.baseAddress, Int32(width * 4), Int32(height), frame)
        }
        guard scaled > 0 else { throw .encodingFailed("converting a frame to yuva420p failed: \(FFmpegStatus.message(scaled))") }
        frame!.pointee.pts = Int64(start)
        durations[Int64(start)] = Int64(duration)
        try send(frame)
    }

    /// Drains the encoder (it holds frames back to look ahead) and closes the file.
    func finish() throws(ProcessingError) -> [UInt8] {
        try send(nil)
        let trailer = av_write_trailer(container)
        guard trailer >= 0 else { throw Self.error(trailer, "finishing the WebM file") }
        return output.bytes
    }

    /// Sends `frame` (nil: the end) and muxes every packet the encoder has ready.
    private func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws(ProcessingError) {
        let sent = avcodec_send_frame(codec, frame)
        guard sent >= 0 else { throw Self.error(sent, "encoding a frame") }
        while true {
            let received = avcodec_receive_packet(codec, packet)
            if received == cffmpeg_error_eagain() || received == cffmpeg_error_eof() { return }
            guard received >= 0 else { throw Self.error(received, "encoding a frame") }
            let packet = packet!
            if packet.pointee.duration <= 0 { packet.pointee.duration = durations[packet.pointee.pts] ?? 0 }
            packet.pointee.stream_index = stream.pointee.index
            av_packet_rescale_ts(packet, timeBase, stream.pointee.time_base)
            // Takes the packet's data and leaves it blank for the next one, on failure too.
            let written = av_interleaved_write_frame(container, packet)
            guard written >= 0 else { throw Self.error(written, "writing the WebM file") }
        }
    }

    private static func error(_ code: Int32, _ doing: String) -> ProcessingError {
        .encodingFailed(FFmpegStatus.failure(code, doing))
    }
}
