/// Turns the bytes of a clip or animated image into upright RGBA frames with their display times:
/// the first stage of an animated sticker. Synchronous CPU work with no shared state, safe to call
/// from any task (`@concurrent` work included).
public enum AnimationDecoder {
    /// Decodes the frames of `window` from MP4/MOV (H.264, HEVC), WebM/Matroska (VP8, VP9),
    /// animated GIF, APNG or animated WebP, told apart by their bytes.
    ///
    /// - Limits are checked before any frame is decoded: the frame size against `maxPixels`
    ///   (`.tooLarge`), and a window that starts after the source ends (`.noFrames`).
    /// - A clip's container tags (QuickTime/MP4 make, model, creation date, location) become
    ///   `exif`.
    /// - The display matrix of a clip (a phone held upright) is applied; `width`/`height` are the
    ///   upright size.
    /// - Audio is ignored; a file without video fails with `.noVideo`. Data cut short fails with
    ///   `.truncated`, damaged data with `.corruptImage`.
    public static func decode(_ bytes: [UInt8], window: AnimationWindow = AnimationWindow()) throws(ProcessingError) -> DecodedAnimation {
        guard !bytes.isEmpty else { throw .truncated("empty file") }
        guard let format = AnimationFormat.detect(bytes) else {
            let still = ImageFormat.detect(bytes).map { "a still \($0.displayName)" } ?? "unknown data"
            throw .unsupportedFormat("\(still), not a clip or an animation")
        }
        switch format {
        case .webp:
            return try WebPCodec.decodeAnimation(bytes, window: window)
        case .mp4, .quickTime:
            try ISOBoxes.checkComplete(bytes)
            return try ClipDecoder.decode(bytes, format: format, window: window, loopCount: nil)
        case .webm, .matroska:
            if MatroskaHeader.isTruncated(bytes) { throw .truncated("the \(format.displayName) segment is longer than the data") }
            return try ClipDecoder.decode(bytes, format: format, window: window, loopCount: nil)
        case .gif:
            let blocks = GIFBlocks(bytes)
            if blocks.isTruncated { throw .truncated("the GIF data ends before its trailer") }
            // Without a NETSCAPE2.0 loop extension a GIF plays once.
            return try ClipDecoder.decode(bytes, format: format, window: window, loopCount: blocks.loopCount ?? 1)
        case .apng:
            let chunks = PNGAnimationChunks(bytes)
            if chunks.isTruncated { throw .truncated("the APNG data ends before its IEND chunk") }
            return try ClipDecoder.decode(bytes, format: format, window: window, loopCount: chunks.loopCount)
        }
    }
}
