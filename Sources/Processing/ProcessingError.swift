import Foundation

/// Everything that can go wrong while turning bytes into a sticker, with a stable code for scripts
/// and a message a user understands. The caller adds the file name.
public enum ProcessingError: Error, Equatable, Sendable, LocalizedError {
    /// The bytes are not an image format this build decodes; the associated text names what was found.
    case unsupportedFormat(String)
    /// The decoder rejected the data; the associated text is the decoder's reason.
    case corruptImage(String)
    /// The data ends before the image does.
    case truncated(String)
    /// The image has more pixels than the limit allows (checked before decoding).
    case tooLarge(width: Int, height: Int, limit: Int)
    /// Encoding an image (PNG, JPEG, WebP) failed.
    case encodingFailed(String)
    /// No subject could be found to make a sticker of (the mask is empty).
    case noSubject(String)
    /// The segmentation model is missing or unusable (not installed, damaged file).
    case segmentationUnavailable(String)
    /// A neural network's graph or weights file is missing, malformed or inconsistent.
    case invalidModel(String)
    /// The cut-out's guidance (box, points) does not fit the photo, e.g. after its file changed.
    case invalidGuidance(String)
    /// A clip or animation has no frame in the asked window (it lies past the clip's end).
    case noFrames(String)
    /// A clip container holds no video stream (an audio-only MP4 or M4A, say).
    case noVideo(String)

    /// The failure's stable reason code, as stored in the catalog and printed in JSON.
    public var code: String {
        switch self {
        case .unsupportedFormat: "unsupported-format"
        case .corruptImage: "corrupt-image"
        case .truncated: "truncated"
        case .tooLarge: "too-large"
        case .encodingFailed: "encoding-failed"
        case .noSubject: "no-subject"
        case .segmentationUnavailable: "segmentation-unavailable"
        case .invalidModel: "invalid-model"
        case .invalidGuidance: "invalid-guidance"
        case .noFrames: "no-frames"
        case .noVideo: "no-video"
        }
    }

    public var errorDescription: String? {
        switch self {
        case .unsupportedFormat(let found): "unsupported format: \(found) (JPEG, PNG, WebP, HEIF/HEIC and AVIF are supported)"
        case .corruptImage(let reason): "corrupt image: \(reason)"
        case .truncated(let reason): "truncated image: \(reason)"
        case .tooLarge(let width, let height, let limit):
            "image too large: \(width)x\(height) is \(width * height) pixels, the limit is \(limit) (see --max-pixels)"
        case .encodingFailed(let reason): "encoding failed: \(reason)"
        case .noSubject(let reason): "no subject found: \(reason)"
        case .segmentationUnavailable(let reason): "cannot cut out the subject: \(reason)"
        case .invalidModel(let reason): "invalid model: \(reason)"
        case .invalidGuidance(let reason): "invalid guidance: \(reason)"
        case .noFrames(let reason): "no frames to decode: \(reason)"
        case .noVideo(let reason): "no video to decode: \(reason)"
        }
    }
}
