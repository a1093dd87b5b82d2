import Processing

/// `catalog recut`: stores an entry's new guidance and re-makes its sticker and palette with it, at once, for the
/// CLI and the server alike. The source is read and checked against the entry's hash, cut out with the new
/// guidance and the catalog's settings, and committed with the guidance in one transaction, checked against the
/// hash and the guidance the entry had when it was read.
/// The run's settings, not the catalog's alone, so that `serve --model` and `recut --model` make the sticker they name. Nothing is written unless the whole re-make succeeded.
public struct Recutter: Sendable {
    let repository: any EntryStore & ReprocessStore
    let settings: StickerSettings
    let predictor: (any MaskPredictor)?
    let maxPixels: Int

    /// `settings` are the run's (the catalog's, with a `--model` or `serve --model` applied); `predictor` finds
    /// the subject with `settings.model` (nil: only photos with their own transparency can be re-made).
    public init(
        repository: any EntryStore & ReprocessStore, settings: StickerSettings, predictor: (any MaskPredictor)?,
        maxPixels: Int = DecodeOptions.defaultMaxPixels
    ) {
        self.repository = repository
        self.settings = settings
        self.predictor = predictor
        self.maxPixels = maxPixels
    }

    /// The guidance entry `id` would have after `change`, checked against its upright photo, without reading
    /// the source or writing anything (what `recut` refuses first), with the entry as it is now.
    public func plan(id: Int64, change: GuidanceChange) async throws(RecutError) -> (entry: EntryDetail, guidance: CutoutGuidance) {
        let found: EntryDetail?
        do {
            found = try await repository.entry(id: id)
        } catch {
            throw .catalog(error)
        }
        guard let entry = found else { throw .entryNotFound(id: id) }
        let (width, height, _) = try EntrySource.photo(of: entry)
        let guidance = change.applied(to: entry.guidance ?? CutoutGuidance.none)
        do throws(GuidanceError) {
            try guidance.validate(width: width, height: height)
        } catch {
            throw .invalidGuidance(error)
        }
        return (entry, guidance)
    }

    /// Applies `change` to entry `id`'s guidance and re-makes its cut-out with it; the entry as it now is.
    public func recut(id: Int64, change: GuidanceChange) async throws(RecutError) -> EntryDetail {
        let (entry, guidance) = try await plan(id: id, change: change)
        let sha256 = try EntrySource.photo(of: entry).sha256
        let read = try EntrySource.read(entry, sha256: sha256)
        // A part of a clip means nothing to a still: refused rather than ignored, so the person knows.
        if !change.clip.isEmpty, AnimationFormat.detect(read.bytes) == nil { throw .notAClip(id: id) }
        let clip = change.clip.applied(to: entry.clip)
        let processor = PhotoProcessor(settings: settings, maxPixels: maxPixels, predictor: predictor)
        let photo: ProcessedPhoto
        switch await GuidedAttempt.attempt(processor, bytes: read.bytes, guidance: guidance, clip: clip, id: id).result {
        case .success(let processed): photo = processed
        case .failure(let error): throw .processingFailed(id: id, error)
        }
        let outcome: ReprocessOutcome
        do {
            outcome = try await repository.replace(
                id: id, expectedSHA256: entry.sha256, expectedGuidance: entry.guidance ?? CutoutGuidance.none, with: photo, sha256: sha256,
                source: read.source, guidance: guidance)
        } catch {
            throw .catalog(error)
        }
        guard case .replaced = outcome else { throw .changedMeanwhile(id: id) }
        let updated: EntryDetail?
        do {
            updated = try await repository.entry(id: id)
        } catch {
            throw .catalog(error)
        }
        // Removed right after the commit by another process: as if it had been before.
        guard let updated else { throw .entryNotFound(id: id) }
        return updated
    }
}
