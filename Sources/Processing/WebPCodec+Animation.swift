import CWebP

extension WebPCodec {
    /// An animated WebP (the format WhatsApp takes for animated stickers, and the catalog's own store
    /// of animated stickers) through libwebpmux's `WebPAnimEncoder`: frame i shown for `durations[i]`
    /// milliseconds, played `loops` times (0: for ever). The encoder keeps only what changes between
    /// frames where that is smaller. Deterministic, as ``encode(_:mode:method:)`` is.
    public static func encodeAnimation(
        _ frames: [RGBAImage], durations: [Int], loops: Int = 0, mode: Mode, method: Int = 4
    ) throws(ProcessingError) -> [UInt8] {
        guard let first = frames.first else { throw .encodingFailed("an animation needs at least one frame") }
        guard durations.count == frames.count else { throw .encodingFailed("\(frames.count) frames but \(durations.count) durations") }
        guard frames.allSatisfy({ $0.width == first.width && $0.height == first.height }) else {
            throw .encodingFailed("an animation's frames must all be \(first.width)x\(first.height)")
        }
        guard first.width <= maxDimension, first.height <= maxDimension else {
            throw .encodingFailed("\(first.width)x\(first.height) is larger than WebP allows (\(maxDimension) a side)")
        }
        var config = try configuration(mode: mode, method: method)
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else { throw .encodingFailed("libwebpmux version mismatch") }
        options.anim_params.loop_count = Int32(max(0, loops))
        options.anim_params.bgcolor = 0x0000_0000
        guard let encoder = WebPAnimEncoderNew(Int32(first.width), Int32(first.height), &options) else {
            throw .encodingFailed("libwebpmux could not start an animation (out of memory)")
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var timestamp: Int32 = 0
        for (frame, duration) in zip(frames, durations) {
            var picture = try picture(of: frame)
            defer { WebPPictureFree(&picture) }
            guard WebPAnimEncoderAdd(encoder, &picture, timestamp, &config) != 0 else {
                throw .encodingFailed("libwebpmux could not add a frame (\(animationError(encoder)))")
            }
            timestamp += Int32(max(1, duration))
        }
        guard WebPAnimEncoderAdd(encoder, nil, timestamp, nil) != 0 else {
            throw .encodingFailed("libwebpmux could not end the animation (\(animationError(encoder)))")
        }
        var data = WebPData()
        WebPDataInit(&data)
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes, data.size > 0 else {
            throw .encodingFailed("libwebpmux could not assemble the animation (\(animationError(encoder)))")
        }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }

    private static func animationError(_ encoder: OpaquePointer) -> String {
        WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "unknown error"
    }
}

extension WebPCodec {
    /// Decodes the frames of an animated WebP in `window` with libwebp's `WebPAnimDecoder`, which
    /// composes each frame onto the canvas as the file's blend and dispose rules say. The canvas
    /// size and the animation's length are checked against the window's limits before any frame is
    /// decoded; frames larger than the working size are scaled down after.
    static func decodeAnimation(_ bytes: [UInt8], window: AnimationWindow) throws(ProcessingError) -> DecodedAnimation {
        try window.validate()
        guard !WebPChunks(bytes).isTruncated else { throw .truncated("the RIFF container is longer than the data") }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(ProcessingError) -> DecodedAnimation in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw .corruptImage("libwebp version mismatch") }
            options.color_mode = MODE_RGBA
            options.use_threads = 0
            guard let decoder = WebPAnimDecoderNew(&data, &options) else {
                throw .corruptImage("libwebp could not read the animated WebP")
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else { throw .corruptImage("libwebp could not read the animation's header") }
            let width = Int(info.canvas_width)
            let height = Int(info.canvas_height)
            guard width > 0, height > 0 else { throw .corruptImage("invalid WebP canvas size \(width)x\(height)") }
            guard width * height <= window.maxPixels else { throw .tooLarge(width: width, height: height, limit: window.maxPixels) }
            try window.check(sourceDuration: Double(animationMilliseconds(WebPAnimDecoderGetDemuxer(decoder))) / 1000)

            var sampler = FrameSampler(window: window)
            var frameStart = 0
            while !sampler.isFinished, WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var pixels: UnsafeMutablePointer<UInt8>?
                var frameEnd: Int32 = 0  // libwebp's timestamp is when the frame stops showing.
                guard WebPAnimDecoderGetNext(decoder, &pixels, &frameEnd) != 0, let pixels else {
                    throw .corruptImage("libwebp could not decode frame \(sampler.offered + 1) of the animated WebP")
                }
                try sampler.offer(time: Double(frameStart) / 1000) { () throws(ProcessingError) in
                    // The canvas belongs to the decoder and is overwritten by the next frame: copy it.
                    let image = RGBAImage(width: width, height: height, pixels: Array(UnsafeBufferPointer(start: pixels, count: width * height * 4)))
                    guard let workingSize = window.workingSize, max(width, height) > workingSize else { return image }
                    return ImageResizer.fitted(image, longSide: workingSize)
                }
                frameStart = Int(frameEnd)
            }
            let frames = sampler.finish(sourceEnd: Double(frameStart) / 1000)
            guard !frames.isEmpty else {
                throw .noFrames(String(format: "no frame between %.3f s and %.3f s of the animated WebP", window.start, window.end))
            }
            return DecodedAnimation(format: .webp, width: width, height: height, frames: frames, loopCount: Int(info.loop_count))
        }
    }

    /// The sum of the frames' durations, read from the demuxer's index without decoding.
    private static func animationMilliseconds(_ demuxer: OpaquePointer?) -> Int {
        var iterator = WebPIterator()
        guard let demuxer, WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 else { return 0 }
        defer { WebPDemuxReleaseIterator(&iterator) }
        var total = 0
        repeat { total += Int(iterator.duration) } while WebPDemuxNextFrame(&iterator) != 0
        return total
    }
}
