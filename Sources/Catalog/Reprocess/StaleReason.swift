import Processing

/// Why an entry is re-run by `catalog reprocess` (and shown by `catalog list --stale`).
public enum StaleReason: String, Sendable, Codable, Equatable, Comparable, CaseIterable {
    /// Its sticker was made by an older pipeline version than this binary's.
    case pipeline
    /// It failed as `unsupported-format` under a binary that decoded fewer formats than this one
    /// (format support is a property of the binary, recorded as `PhotoDecoder.decoderVersion`).
    case decoder
    /// Its sticker was made with other settings than the catalog's current ones.
    case settings
    /// Its source file's size or modification time changed and its bytes now hash differently.
    case sourceChanged = "source-changed"
    /// Its last processing failed with a failure worth retrying (see ``StaleReason/retriedFailureCodes``).
    case failed
    /// Its source file is gone: reported, never re-run, not an error.
    case sourceMissing = "source-missing"

    public static func < (lhs: StaleReason, rhs: StaleReason) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Failures that are a property of the bytes, so re-running the same bytes fails the same way: an
    /// entry failed with one of these is retried only when its bytes change (or with `--all`).
    /// `no-subject` is in the list too: for the same bytes, pipeline and settings the mask is the same.
    /// (`unsupported-format` comes back as `decoder` for a binary that decodes more formats.)
    /// Every other code (`unreadable`, `too-large`, `encoding-failed`, `segmentation-unavailable`,
    /// `invalid-model`, ...) depends on the file's permissions, a limit or the installed model, and is retried.
    public static let permanentFailureCodes: Set<String> = ["unsupported-format", "corrupt-image", "truncated", "no-subject", "no-video"]

    /// The reasons an entry is stale that the catalog alone tells (the source file is checked separately).
    /// `sticker` is nil for a failed entry.
    static func recorded(
        sticker: (pipelineVersion: Int, settings: StickerSettings)?, failureCode: String?,
        current settings: StickerSettings, pipelineVersion: Int,
        recordedDecoderVersion: Int = PhotoDecoder.decoderVersion, decoderVersion: Int = PhotoDecoder.decoderVersion
    ) -> [StaleReason] {
        if let failureCode {
            if failureCode == "unsupported-format" && recordedDecoderVersion < decoderVersion { return [.decoder] }
            return permanentFailureCodes.contains(failureCode) ? [] : [.failed]
        }
        guard let sticker else { return [.pipeline] }
        var reasons: [StaleReason] = []
        if sticker.pipelineVersion < pipelineVersion { reasons.append(.pipeline) }
        if sticker.settings != settings { reasons.append(.settings) }
        return reasons
    }
}
