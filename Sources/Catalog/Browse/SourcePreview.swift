import Foundation
import Processing

/// The source photo of an entry, upright and scaled down, as a JPEG: the detail view's picture.
public enum SourcePreview {
    /// Sizes a preview may have on its long side.
    public static let sizes = 64...2048
    public static let defaultSize = 1024

    /// Why there is no preview.
    public enum Failure: Error, Sendable, Equatable {
        /// The source file is not at its recorded path (moved or deleted).
        case sourceMissing(path: String)
        /// The file is there but cannot be read or decoded; the text says why.
        case unreadable(path: String, reason: String)
    }

    /// The photo at `path` (a clip's or an animation's first frame), oriented by its EXIF, fitted to `longSide` (never enlarged; a large JPEG
    /// may come out up to 1/32 smaller, at the DCT scale that reaches `DecodeOptions.jpegLongSide`),
    /// as JPEG bytes. Decoding happens off the caller's executor. The file is read as an import reads
    /// it, and no further: its first bytes must be an image's, it must be a regular file within the
    /// import's size limit, and the decode stops at `maxPixels`.
    @concurrent
    public static func jpeg(path: String, longSide: Int, maxPixels: Int = DecodeOptions.defaultMaxPixels) async throws(Failure) -> [UInt8] {
        guard EscapedPath.exists(path) else { throw .sourceMissing(path: path) }
        let read: SourceBytes
        switch SourceReader.read(path: path, requiringImage: true) {
        case .success(let bytes): read = bytes
        case .failure(let problem): throw .unreadable(path: path, reason: problem.message)
        }
        do throws(ProcessingError) {
            // A clip or an animated image shows its first frame.
            if AnimationFormat.detect(read.bytes) != nil {
                let window = AnimationWindow(duration: 1, maxFrames: 1, maxPixels: maxPixels, workingSize: longSide)
                let first = try AnimationDecoder.decode(read.bytes, window: window).frames[0].image
                return try JPEGCodec.encode(first, quality: 85)
            }
            let photo = try PhotoDecoder.decode(read.bytes, options: DecodeOptions(maxPixels: maxPixels, workingSize: longSide))
            return try JPEGCodec.encode(photo.workingImage(longSide: longSide), quality: 85)
        } catch {
            throw .unreadable(path: path, reason: error.errorDescription ?? error.code)
        }
    }
}
