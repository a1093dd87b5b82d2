import CFFmpeg

/// Clips (MP4/MOV with H.264 or HEVC, WebM/Matroska with VP8 or VP9), animated GIFs and APNGs
/// decoded into upright RGBA frames with FFmpeg's libraries, read from memory through a custom
/// `AVIOContext`. The one owner of FFmpeg's pointers: each is freed by `ClipSession`'s `deinit`,
/// on every path, and every failure becomes a `ProcessingError`.
///
/// The decoder runs on one thread (`thread_count` 1): the pipeline already decodes one file a core.
enum ClipDecoder {
    /// FFmpeg's own log goes to stderr, in the middle of the catalog's output; what goes wrong is
    /// reported as the entry's error instead. Set once, for the process.
    static let quietLibraries: Void = av_log_set_level(AV_LOG_QUIET)

    static func decode(
        _ bytes: [UInt8], format: AnimationFormat, window: AnimationWindow, loopCount: Int?
    ) throws(ProcessingError) -> DecodedAnimation {
        try window.validate()
        _ = quietLibraries
        let session = try ClipSession(bytes: bytes, format: format)
        let (width, height) = session.codedSize
        guard width > 0, height > 0 else { throw .corruptImage("the \(format.displayName) video stream has no size") }
        guard width * height <= window.maxPixels else { throw .tooLarge(width: width, height: height, limit: window.maxPixels) }
        try window.check(sourceDuration: session.duration)
        let frames = try session.frames(in: window, format: format)
        let swapsSides = [6, 8].contains(session.orientation)
        let (containerTags, streamTags) = session.tags
        return DecodedAnimation(
            format: format, width: swapsSides ? height : width, height: swapsSides ? width : height, frames: frames, loopCount: loopCount,
            exif: ClipMetadata.exif(container: containerTags, stream: streamTags))
    }
}

/// The bytes FFmpeg reads through the read and seek callbacks.
private final class MemoryInput {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

private let readPacket: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, buffer, size in
    guard let opaque, let buffer, size > 0 else { return cffmpeg_error_eof() }
    let input = Unmanaged<MemoryInput>.fromOpaque(opaque).takeUnretainedValue()
    let count = min(Int(size), input.bytes.count - input.position)
    guard count > 0 else { return cffmpeg_error_eof() }
    input.bytes.withUnsafeBufferPointer { source in
        buffer.update(from: source.baseAddress! + input.position, count: count)
    }
    input.position += count
    return Int32(count)
}

private let seekInput: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
    guard let opaque else { return -1 }
    let input = Unmanaged<MemoryInput>.fromOpaque(opaque).takeUnretainedValue()
    if whence & AVSEEK_SIZE != 0 { return Int64(input.bytes.count) }
    let target: Int64
    switch whence & ~AVSEEK_FORCE {
    case SEEK_SET: target = offset
    case SEEK_CUR: target = Int64(input.position) + offset
    case SEEK_END: target = Int64(input.bytes.count) + offset
    default: return -1
    }
    guard target >= 0, target <= Int64(input.bytes.count) else { return -1 }
    input.position = Int(target)
    return target
}

/// One open clip: the I/O, demuxer, decoder, frame, packet and scaler contexts, freed together.
private final class ClipSession {
    private let input: MemoryInput
    private var io: UnsafeMutablePointer<AVIOContext>?
    private var container: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var scaler: OpaquePointer?
    private var streamIndex: Int32 = -1
    private var stream: UnsafeMutablePointer<AVStream> { container!.pointee.streams[Int(streamIndex)]! }

    init(bytes: [UInt8], format: AnimationFormat) throws(ProcessingError) {
        input = MemoryInput(bytes)
        let bufferSize = 64 * 1024
        guard let buffer = av_malloc(bufferSize) else { throw .corruptImage("out of memory opening the \(format.displayName) data") }
        io = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), Int32(bufferSize), 0, Unmanaged.passUnretained(input).toOpaque(), readPacket, nil, seekInput)
        guard let io else {
            av_free(buffer)
            throw .corruptImage("out of memory opening the \(format.displayName) data")
        }
        guard let context = avformat_alloc_context() else { throw .corruptImage("out of memory opening the \(format.displayName) data") }
        context.pointee.pb = io
        // The demuxer the bytes were recognised as, not FFmpeg's own guess.
        let demuxer = av_find_input_format(Self.demuxerName(format))
        var opening: UnsafeMutablePointer<AVFormatContext>? = context
        let opened = avformat_open_input(&opening, nil, demuxer, nil)
        container = opening  // Freed and set to nil on failure.
        guard opened >= 0 else { throw Self.error(opened, "reading the \(format.displayName) container") }
        let found = avformat_find_stream_info(container, nil)
        guard found >= 0 else { throw Self.error(found, "reading the \(format.displayName) streams") }

        let streams = (0 ..< Int(container!.pointee.nb_streams)).map { container!.pointee.streams[$0]! }
        let videos = streams.filter {
            $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO && $0.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        }
        guard let firstVideo = videos.first else {
            let others = streams.isEmpty ? "no streams" : "only \(Self.kinds(of: streams))"
            throw .noVideo("the \(format.displayName) data has \(others), no video stream")
        }
        var decoder: UnsafePointer<AVCodec>?
        streamIndex = av_find_best_stream(container, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        guard streamIndex >= 0, let decoder else {
            let name = String(cString: avcodec_get_name(firstVideo.pointee.codecpar.pointee.codec_id))
            throw .unsupportedFormat("\(format.displayName) with \(name) video, which this build's FFmpeg does not decode")
        }
        for (index, other) in streams.enumerated() where index != Int(streamIndex) { other.pointee.discard = AVDISCARD_ALL }

        codec = avcodec_alloc_context3(decoder)
        guard let codec else { throw .corruptImage("out of memory opening the video decoder") }
        let copied = avcodec_parameters_to_context(codec, stream.pointee.codecpar)
        guard copied >= 0 else { throw Self.error(copied, "reading the video stream's parameters") }
        codec.pointee.thread_count = 1
        codec.pointee.pkt_timebase = stream.pointee.time_base
        let codecOpened = avcodec_open2(codec, decoder, nil)
        guard codecOpened >= 0 else { throw Self.error(codecOpened, "opening the \(String(cString: decoder.pointee.name)) decoder") }
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard packet != nil, frame != nil else { throw .corruptImage("out of memory opening the video decoder") }
    }

    deinit {
        sws_freeContext(scaler)
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
        avformat_close_input(&container)
        if io != nil { av_freep(&io!.pointee.buffer) }
        avio_context_free(&io)
    }

    var codedSize: (width: Int, height: Int) {
        (Int(stream.pointee.codecpar.pointee.width), Int(stream.pointee.codecpar.pointee.height))
    }

    /// The stream's length in seconds, or the container's, nil when neither says.
    var duration: Double? {
        if stream.pointee.duration != cffmpeg_nopts_value(), stream.pointee.duration > 0 {
            return Double(stream.pointee.duration) * timeBase
        }
        let total = container!.pointee.duration
        return total != cffmpeg_nopts_value() && total > 0 ? Double(total) / Double(AV_TIME_BASE) : nil
    }

    /// The text tags of the container and of the video stream, for ``ClipMetadata`` to read.
    var tags: (container: [String: String], stream: [String: String]) {
        (Self.strings(container!.pointee.metadata), Self.strings(stream.pointee.metadata))
    }

    /// Every entry of an FFmpeg dictionary, copied out (the dictionary stays the container's).
    private static func strings(_ dictionary: OpaquePointer?) -> [String: String] {
        var result: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            if let key = next.pointee.key, let value = next.pointee.value {
                result[String(cString: key)] = String(cString: value)
            }
            entry = next
        }
        return result
    }

    /// `audio`, `audio and subtitle`...: what a file without video holds, for the message.
    private static func kinds(of streams: [UnsafeMutablePointer<AVStream>]) -> String {
        var names: [String] = []
        for stream in streams {
            let type = stream.pointee.codecpar.pointee.codec_type
            let name = type == AVMEDIA_TYPE_VIDEO ? "a cover picture"
                : av_get_media_type_string(type).map { String(cString: $0) } ?? "unknown"
            if !names.contains(name) { names.append(name) }
        }
        return names.joined(separator: " and ") + (names == ["a cover picture"] ? "" : " streams")
    }

    /// The EXIF orientation (1, 3, 6 or 8) that turns decoded frames the way the display matrix says.
    var orientation: Int {
        guard let matrix = cffmpeg_display_matrix(stream) else { return 1 }
        let counterclockwise = av_display_rotation_get(matrix)
        guard counterclockwise.isFinite else { return 1 }
        let clockwise = ((-Int(counterclockwise.rounded()) % 360) + 360) % 360
        return [90: 6, 180: 3, 270: 8][clockwise] ?? 1
    }

    private var timeBase: Double { Double(stream.pointee.time_base.num) / Double(stream.pointee.time_base.den) }

    /// How long a frame shows when the stream does not say: one frame at its average rate.
    private var fallbackFrameDuration: Double {
        for rate in [stream.pointee.avg_frame_rate, stream.pointee.r_frame_rate] where rate.num > 0 && rate.den > 0 {
            return Double(rate.den) / Double(rate.num)
        }
        return 0.1
    }

    /// `start + offset` stream ticks, held inside Int64: both come from the container, which may say anything.
    static func ticks(_ start: Int64, plus offset: Double) -> Int64 {
        let sum = Double(start) + offset
        guard sum.isFinite else { return start }
        // 2^63 itself is not an Int64; the largest Double below it is.
        return Int64(min(max(sum, -9.223372036854775e18), 9.223372036854775e18))
    }

    /// Decodes the window's frames, seeking to the key frame before it first.
    func frames(in window: AnimationWindow, format: AnimationFormat) throws(ProcessingError) -> [DecodedAnimation.Frame] {
        guard timeBase.isFinite, timeBase > 0 else {
            throw .corruptImage("the \(format.displayName) video's time base \(stream.pointee.time_base.num)/\(stream.pointee.time_base.den) is not a positive fraction")
        }
        let startTime = stream.pointee.start_time != cffmpeg_nopts_value() ? stream.pointee.start_time : 0
        if window.start > 0 {
            // A failed seek leaves the position at the start: the frames before the window are then
            // decoded and skipped.
            _ = av_seek_frame(container, streamIndex, Self.ticks(startTime, plus: window.start / timeBase), AVSEEK_FLAG_BACKWARD)
        }
        let outputSize = Self.outputSize(codedSize, workingSize: window.workingSize)
        let orientation = orientation
        var sampler = FrameSampler(window: window)
        var sourceEnd: Double?
        var lastTime: Double?
        var firstError: String?

        func receiveFrames() throws(ProcessingError) {
            while !sampler.isFinished {
                let received = avcodec_receive_frame(codec, frame)
                if received == cffmpeg_error_eagain() || received == cffmpeg_error_eof() { return }
                guard received >= 0 else {
                    firstError = firstError ?? FFmpegStatus.message(received)
                    return
                }
                defer { av_frame_unref(frame) }
                let timestamp = frame!.pointee.best_effort_timestamp
                let time = timestamp != cffmpeg_nopts_value()
                    // In Double: the container's times are any Int64, their difference may not be one.
                    ? (Double(timestamp) - Double(startTime)) * timeBase
                    : (lastTime.map { $0 + fallbackFrameDuration } ?? 0)
                let ticks = cffmpeg_frame_duration(frame)
                sourceEnd = max(sourceEnd ?? 0, time + (ticks > 0 ? Double(ticks) * timeBase : fallbackFrameDuration))
                lastTime = time
                try sampler.offer(time: time) { () throws(ProcessingError) in
                    Orientation.apply(orientation, to: try rgba(size: outputSize, limit: window.maxPixels))
                }
            }
        }

        while !sampler.isFinished {
            let read = av_read_frame(container, packet)
            if read < 0 {
                if read != cffmpeg_error_eof() { firstError = firstError ?? FFmpegStatus.message(read) }
                break
            }
            defer { av_packet_unref(packet) }
            guard packet!.pointee.stream_index == streamIndex else { continue }
            let sent = avcodec_send_packet(codec, packet)
            if sent < 0, sent != cffmpeg_error_eagain() { firstError = firstError ?? FFmpegStatus.message(sent) }
            try receiveFrames()
        }
        if !sampler.isFinished {
            avcodec_send_packet(codec, nil)  // Drain the frames the decoder still holds.
            try receiveFrames()
        }
        let frames = sampler.finish(sourceEnd: sourceEnd)
        guard frames.isEmpty else { return frames }
        if let firstError { throw .corruptImage("FFmpeg could not decode the \(format.displayName) video: \(firstError)") }
        throw .noFrames(String(format: "no frame between %.3f s and %.3f s", window.start, window.end)
            + (sourceEnd.map { String(format: " (the video ends at %.3f s)", $0) } ?? ""))
    }

    /// The current frame converted to straight RGBA at `size`, colour matrix and range as it declares.
    private func rgba(size: (width: Int, height: Int), limit: Int) throws(ProcessingError) -> RGBAImage {
        let source = frame!.pointee
        guard source.width > 0, source.height > 0 else { throw .corruptImage("a decoded frame has no size") }
        guard Int(source.width) * Int(source.height) <= limit else {
            throw .tooLarge(width: Int(source.width), height: Int(source.height), limit: limit)
        }
        scaler = sws_getCachedContext(
            scaler, source.width, source.height, AVPixelFormat(rawValue: source.format), Int32(size.width), Int32(size.height),
            AV_PIX_FMT_RGBA, SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nil, nil, nil)
        guard let scaler else { throw .corruptImage("no conversion from the video's pixel format to RGBA") }
        let matrix = source.colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_DEFAULT
        // Fails (harmlessly) for RGB and palette sources, which have no YUV matrix.
        _ = sws_setColorspaceDetails(
            scaler, sws_getCoefficients(matrix), source.color_range == AVCOL_RANGE_JPEG ? 1 : 0,
            sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        let count = size.width * size.height * 4
        var scaled: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            scaled = cffmpeg_scale_to_rgba(scaler, frame, buffer.baseAddress, Int32(size.width * 4))
            initialized = count  // Discarded unread when the conversion failed.
        }
        guard scaled > 0 else { throw .corruptImage("converting a frame to RGBA failed: \(FFmpegStatus.message(scaled))") }
        return RGBAImage(width: size.width, height: size.height, pixels: pixels)
    }

    /// The coded size fitted to `workingSize` on the long side, never enlarged.
    private static func outputSize(_ size: (width: Int, height: Int), workingSize: Int?) -> (width: Int, height: Int) {
        let longSide = max(size.width, size.height)
        guard let workingSize, workingSize > 0, longSide > workingSize else { return size }
        let scale = Double(workingSize) / Double(longSide)
        return (max(1, Int((Double(size.width) * scale).rounded())), max(1, Int((Double(size.height) * scale).rounded())))
    }

    private static func demuxerName(_ format: AnimationFormat) -> String {
        switch format {
        case .mp4, .quickTime: "mov"
        case .webm, .matroska: "matroska"
        case .gif: "gif"
        case .apng: "apng"
        case .webp: "webp_pipe"
        }
    }

    private static func error(_ code: Int32, _ doing: String) -> ProcessingError {
        .corruptImage(FFmpegStatus.failure(code, doing))
    }
}
