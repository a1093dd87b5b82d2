import Processing

/// An entry's cut-out with its stored guidance: the one rule every re-make of an entry follows (reprocess,
/// `work`, an import of a file edited in place, `catalog recut`).
///
/// Guidance is kept when the bytes change, as long as it still fits the new upright photo (an edit that keeps
/// the size: colours, retouching). When it does not fit (the photo was cropped or rotated), the entry fails
/// with `invalid-guidance` and a message saying how to give new guidance or clear it: what the person set is
/// never dropped silently, and a sticker cut with guidance meant for other pixels is never recorded.
enum GuidedAttempt {
    /// Processes `bytes` with `guidance`; a guidance that does not fit the decoded photo fails it (entry `id`
    /// names the command that fixes it).
    /// `clip` is the entry's chosen part of a clip (nil: the default part); a still ignores it.
    static func attempt(
        _ processor: PhotoProcessor, bytes: [UInt8], guidance: CutoutGuidance, clip: ClipWindow?, id: Int64
    ) async -> ProcessingAttempt {
        var attempt = await processor.attempt(bytes, guidance: guidance, clip: clip)
        // The segmenter checks the guidance against the photo too; checked here as well, so that the rule holds
        // whatever the segmenter does with it, and the message names the way out.
        guard !guidance.isEmpty, let facts = attempt.facts else { return attempt }
        do throws(GuidanceError) {
            try guidance.validate(width: facts.width, height: facts.height)
        } catch {
            attempt.result = .failure(.invalidGuidance(
                "\(error.description); give new guidance with `catalog recut \(id) --reset --box X,Y,W,H` or clear it with `catalog recut \(id) --reset`"))
        }
        return attempt
    }
}
