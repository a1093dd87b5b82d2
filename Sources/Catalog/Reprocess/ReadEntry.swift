import Processing

/// A stale entry whose source was read and is to be re-made: the entry as it was, the bytes' hash and
/// file now, and why it is re-made.
struct ReadEntry: Sendable {
    let candidate: ReprocessCandidate
    let sha256: String
    let source: SourceFile
    let reasons: [StaleReason]

    /// True when a failed re-run leaves the entry's sticker: it was made from these very bytes (a missing
    /// model, or a new pipeline that finds no subject, must not lose it).
    var keepsSticker: Bool { candidate.hasSticker && sha256 == candidate.sha256 }
}

extension EventProblem {
    /// A processing failure as events report it: its code, and its message (else the code again).
    init(_ error: ProcessingError) {
        self.init(code: error.code, message: error.errorDescription ?? error.code)
    }
}
