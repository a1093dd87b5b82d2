import Processing

/// Reprocessing a catalog's entries: which are stale, and the writes that re-make one. Each write is one
/// transaction, checked against the hash the candidate was read with (and, when given, its cut-out
/// guidance: a `catalog recut` that changed it meanwhile is not overwritten by a cut-out made with the old
/// one, `.changedMeanwhile`). The rules of a rewrite are ``ReprocessStep``'s; a back end reads and writes.
public protocol ReprocessStore: CatalogHandle {
    /// Entries whose sticker is out of date for these settings and versions (every entry when `all`), read
    /// a page at a time and judged by a ``StaleScan``.
    func reprocessCandidates(
        settings: StickerSettings, all: Bool, pipelineVersion: Int, decoderVersion: Int
    ) async throws(CatalogError) -> [ReprocessCandidate]
    /// Applies `step` to its entry in one transaction, as ``ReprocessStep/plan(found:now:)`` decides from
    /// the entry and the entry that holds the new bytes (if another does).
    func rewrite(_ step: ReprocessStep) async throws(CatalogError) -> ReprocessOutcome
}

extension ReprocessStore {
    /// Replaces entry `id`'s results, unless its hash is no longer `expectedSHA256` (or its guidance
    /// `expectedGuidance`): photo fields, EXIF, sticker, sticker PNG and palette together. `guidance`, when
    /// given, is stored with the new content (`.none` clears it); nil keeps the stored guidance.
    public func replace(
        id: Int64, expectedSHA256: String?, expectedGuidance: CutoutGuidance?, with photo: ProcessedPhoto, sha256: String,
        source: SourceFile, guidance: CutoutGuidance?
    ) async throws(CatalogError) -> ReprocessOutcome {
        try await rewrite(ReprocessStep(
            entryID: id, expectedSHA256: expectedSHA256, expectedGuidance: expectedGuidance, guidance: guidance,
            change: .replace(photo, sha256: sha256, source: source)))
    }

    /// Replaces entry `id`'s results with a failure, unless its hash is no longer `expectedSHA256` (or its guidance
    /// `expectedGuidance`): its sticker, palette and EXIF go; `facts` (when the bytes decoded) are kept; the guidance stays.
    public func replaceWithFailure(
        id: Int64, expectedSHA256: String?, expectedGuidance: CutoutGuidance?, sha256: String, source: SourceFile, format: ImageFormat?,
        facts: PhotoFacts?, code: String, message: String
    ) async throws(CatalogError) -> ReprocessOutcome {
        try await rewrite(ReprocessStep(
            entryID: id, expectedSHA256: expectedSHA256, expectedGuidance: expectedGuidance,
            change: .fail(sha256: sha256, PhotoFailure(source: source, format: format, facts: facts, code: code, message: message))))
    }

    /// Records the size and modification time of entry `id`'s source, whose bytes were found unchanged,
    /// so the next run does not hash the file again.
    public func refreshSource(id: Int64, expectedSHA256: String?, source: SourceFile) async throws(CatalogError) -> ReprocessOutcome {
        try await rewrite(ReprocessStep(entryID: id, expectedSHA256: expectedSHA256, change: .refreshSource(source)))
    }

    /// Entry `id`'s source now holds the bytes `sha256`, which another entry has: a placeholder for an
    /// unreadable file is removed, any other entry is left as it was.
    public func resolveDuplicate(id: Int64, expectedSHA256: String?, sha256: String) async throws(CatalogError) -> ReprocessOutcome {
        try await rewrite(ReprocessStep(entryID: id, expectedSHA256: expectedSHA256, change: .resolveDuplicate(sha256: sha256)))
    }

    /// Replaces entry `id`'s results, unless its hash is no longer `expectedSHA256`; its guidance is neither checked nor changed.
    public func replace(
        id: Int64, expectedSHA256: String?, with photo: ProcessedPhoto, sha256: String, source: SourceFile
    ) async throws(CatalogError) -> ReprocessOutcome {
        try await replace(
            id: id, expectedSHA256: expectedSHA256, expectedGuidance: nil, with: photo, sha256: sha256, source: source, guidance: nil)
    }

    /// Replaces entry `id`'s results with a failure, unless its hash is no longer `expectedSHA256`; the guidance is not checked.
    public func replaceWithFailure(
        id: Int64, expectedSHA256: String?, sha256: String, source: SourceFile, format: ImageFormat?, facts: PhotoFacts?,
        code: String, message: String
    ) async throws(CatalogError) -> ReprocessOutcome {
        try await replaceWithFailure(
            id: id, expectedSHA256: expectedSHA256, expectedGuidance: nil, sha256: sha256, source: source, format: format, facts: facts,
            code: code, message: message)
    }

    /// ``replaceWithFailure(id:expectedSHA256:sha256:source:format:facts:code:message:)`` with no facts.
    public func replaceWithFailure(
        id: Int64, expectedSHA256: String?, sha256: String, source: SourceFile, format: ImageFormat?, code: String, message: String
    ) async throws(CatalogError) -> ReprocessOutcome {
        try await replaceWithFailure(
            id: id, expectedSHA256: expectedSHA256, sha256: sha256, source: source, format: format, facts: nil, code: code, message: message
        )
    }

    /// Candidates for this binary's pipeline and decoder versions.
    public func reprocessCandidates(settings: StickerSettings, all: Bool) async throws(CatalogError) -> [ReprocessCandidate] {
        try await reprocessCandidates(
            settings: settings, all: all, pipelineVersion: PhotoProcessor.pipelineVersion, decoderVersion: PhotoDecoder.decoderVersion
        )
    }
}
