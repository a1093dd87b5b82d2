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
            var picture = WebPPicture()
            guard WebPPictureInit(&picture) != 0 else { throw .encodingFailed("libwebp version mismatch") }
            picture.use_argb = 1
            picture.width = Int32(frame.width)
            picture.height = Int32(frame.height)
            defer { WebPPictureFree(&picture) }
            let imported = frame.pixels.withUnsafeBufferPointer { WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(frame.width * 4)) }
            guard imported != 0 else { throw .encodingFailed("libwebp could not take the pixels (out of memory)") }
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
