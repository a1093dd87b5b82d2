import Crypto
import Foundation
import Processing

/// How an import runs.
public struct ImportOptions: Sendable {
    /// Files in flight at once (read, hash, decode, process).
    public var jobs: Int
    public var maxPixels: Int
    public var settings: StickerSettings
    /// Examine and process every file but write nothing.
    public var dryRun: Bool
    /// Finds the subject in photos: loaded once and shared by every file. nil: only photos with
    /// their own transparency can be imported (the CLI refuses to start without a model).
    public var predictor: (any MaskPredictor)?
    /// The part of each clip or animation new entries are cut from (`--clip`, `--max-frames`); nil: the
    /// default part. Stored with each entry made from a clip; stills ignore it.
    public var clip: ClipWindow?

    public init(
        jobs: Int, maxPixels: Int = DecodeOptions.defaultMaxPixels, settings: StickerSettings = .default,
        dryRun: Bool = false, predictor: (any MaskPredictor)?, clip: ClipWindow? = nil
    ) {
        self.clip = clip
        self.jobs = max(1, jobs)
        self.maxPixels = maxPixels
        self.settings = settings
        self.dryRun = dryRun
        self.predictor = predictor
    }
}

/// Imports files and folders: a bounded task group reads, hashes and processes files in parallel,
/// and hands each finished result to the repository, which commits it in its own transaction.
public struct Importer: Sendable {
    /// nil only for a dry run against a catalog that does not exist yet.
    let repository: (any EntryStore & ReprocessStore & SimilarityStore)?
    let options: ImportOptions

    public init(repository: (any EntryStore & ReprocessStore & SimilarityStore)?, options: ImportOptions) {
        self.repository = repository
        self.options = options
    }

    /// How many files the arguments name (a cheap walk, for progress bars).
    public static func countFiles(_ arguments: [String]) -> Int {
        FileWalker(arguments: arguments).reduce(0) { count, item in
            if case .skipped = item { count } else { count + 1 }
        }
    }

    /// Imports everything the arguments name, calling `onEvent` once per file as results commit.
    /// Stops starting new files when the task is cancelled; what finished is committed.
    /// Throws only for catalog failures (busy, disk full, ...), after which nothing more is written.
    public func run(_ arguments: [String], onEvent: @Sendable (ImportEvent) -> Void) async throws(CatalogError) -> ImportSummary {
        let processor = PhotoProcessor(settings: options.settings, maxPixels: options.maxPixels, predictor: options.predictor)
        let repository = self.repository
        var summary = ImportSummary()
        // The entry of every file recorded, for pairing Live Photos once all are in.
        var recorded: [String: Int64] = [:]
        var files = FileWalker(arguments: arguments, catalogPath: repository?.displayName).makeIterator()

        /// The next file to start; argument problems are reported inline.
        func nextFile() -> String? {
            while let item = files.next() {
                switch item {
                case .file(let path): return path
                case .unreadable(let problem):
                    let event = ImportEvent.failed(id: nil, path: problem.path, code: "unreadable", message: problem.message)
                    summary.count(event)
                    onEvent(event)
                case .notAFile(let problem):
                    let event = ImportEvent.failed(id: nil, path: problem.path, code: problem.code, message: problem.message)
                    summary.count(event)
                    onEvent(event)
                case .skipped(let skipped):
                    let event = ImportEvent.skipped(path: skipped.path, code: skipped.code, message: skipped.message)
                    summary.count(event)
                    onEvent(event)
                }
            }
            return nil
        }
        // In the files' order, so the same folder gives the same entry ids (and export names) at any --jobs.
        try await BoundedWork.run(jobs: options.jobs, inOrder: true, next: nextFile) { path in
            await Self.examine(path: path, repository: repository, processor: processor, clip: options.clip)
        } finished: { examined throws(CatalogError) in
            for warning in examined.warnings {
                onEvent(.warning(path: warning.path, message: warning.message))
            }
            if let event = try await commit(examined) {
                switch event {
                case .imported(let id?, let path), .duplicate(let id, let path, _), .updated(let id?, let path), .failed(let id?, let path, _, _):
                    recorded[path] = id
                default: break
                }
                summary.count(event)
                onEvent(event)
                if let near = try await nearDuplicate(of: examined, recordedAs: event) {
                    summary.count(near)
                    onEvent(near)
                }
            }
        }
        if Task.isCancelled {
            summary.interrupted = true
        }
        try await linkLivePhotos(recorded)
        StageClock.writeReport(photos: summary.imported)
        return summary
    }

    /// The outcome of examining one file, before anything is written.
    /// `replacing`: the entry recorded at the same path with other bytes (the file was edited in place).
    enum Examined: Sendable {
        case processed(ProcessedPhoto, sha256: String, source: SourceFile, replacing: PathClaim? = nil)
        case known(ExistingEntry, source: SourceFile)
        case failed(FailedFile)
        case skipped

        /// Problems that did not stop the work, with the file they are about.
        var warnings: [(path: String, message: String)] {
            switch self {
            case .processed(let photo, _, let source, _): photo.warnings.map { (source.path, $0) }
            case .failed(let file): file.warnings.map { (file.source.path, $0) }
            case .known, .skipped: []
            }
        }
    }

    /// Reads, hashes and (for new bytes) processes one file. Runs in a child task, off every actor.
    /// A file edited in place is cut out with its entry's guidance, to replace that entry.
    /// `clip` is the part of a clip a new entry is cut from (`import --clip`; nil: the default part).
    static func examine(path: String, repository: (any EntryStore)?, processor: PhotoProcessor, clip: ClipWindow?) async -> Examined {
        if Task.isCancelled { return .skipped }
        let read: SourceBytes
        switch StageClock.measure(.readAndHash, { SourceReader.read(path: path) }) {
        case .success(let bytes): read = bytes
        case .failure(let problem):
            return .failed(FailedFile(source: SourceFile(path: path, size: 0, modificationTime: 0), code: problem.code, message: problem.message))
        }
        let sha256 = StageClock.measure(.readAndHash) { hexDigest(read.bytes) }
        // Not on the stage clock: it measures one thread's CPU time, and an async lookup may resume on another.
        if let repository, let existing = try? await repository.existingEntry(sha256: sha256) {
            return .known(existing, source: read.source)
        }
        let edited = (try? await repository?.entryClaiming(path: path, otherThan: sha256)) ?? nil
        if Task.isCancelled { return .skipped }
        // An edit in place keeps the entry, and with it the guidance the person gave it.
        let attempt = if let edited {
            await GuidedAttempt.attempt(processor, bytes: read.bytes, guidance: edited.guidance, clip: edited.clip, id: edited.id)
        } else {
            await processor.attempt(read.bytes, clip: clip)
        }
        switch attempt.result {
        case .success(let processed):
            return .processed(processed, sha256: sha256, source: read.source, replacing: edited)
        case .failure(let error):
            return .failed(FailedFile(
                sha256: sha256, source: read.source, format: ImageFormat.detect(Array(read.bytes.prefix(64))), facts: attempt.facts,
                warnings: attempt.warnings, code: error.code, message: error.errorDescription ?? error.code, replacing: edited))
        }
    }

    /// Commits one examined file (one transaction) and says what happened; nil when nothing did.
    private func commit(_ examined: Examined) async throws(CatalogError) -> ImportEvent? {
        guard let repository, !options.dryRun else { return Self.dryRunEvent(examined) }
        switch examined {
        case .skipped:
            return nil
        case .processed(let photo, let sha256, let source, let claim?):
            let outcome = try await repository.replace(
                id: claim.id, expectedSHA256: claim.sha256, expectedGuidance: claim.guidance, with: photo, sha256: sha256, source: source,
                guidance: nil)
            if let event = Self.event(outcome, id: claim.id, path: source.path, failure: nil) { return event }
            return Self.event(try await repository.recordProcessed(photo, sha256: sha256, source: source), path: source.path, failure: nil)
        case .processed(let photo, let sha256, let source, nil):
            return Self.event(try await repository.recordProcessed(photo, sha256: sha256, source: source), path: source.path, failure: nil)
        case .known(let existing, let source):
            let outcome = try await repository.noteDuplicate(id: existing.id, source: source)
            // Bytes that failed before fail again: said so, with the recorded reason (and the exit code).
            if existing.status != .ok, let failure = try await repository.failure(id: existing.id) {
                return .failed(id: existing.id, path: source.path, code: failure.code, message: failure.message)
            }
            return Self.event(outcome, path: source.path, failure: nil)
        case .failed(let file):
            if let claim = file.replacing, let sha256 = file.sha256 {
                let outcome = try await repository.replaceWithFailure(
                    id: claim.id, expectedSHA256: claim.sha256, expectedGuidance: claim.guidance, sha256: sha256, source: file.source,
                    format: file.format, facts: file.facts, code: file.code, message: file.message
                )
                if case .failed = outcome { return .failed(id: claim.id, path: file.source.path, code: file.code, message: file.message) }
            } else if file.sha256 == nil && !EscapedPath.exists(file.source.path) {
                // A file that cannot even be opened has no bytes to identify it: recorded by path only if it exists.
                return .failed(id: nil, path: file.source.path, code: file.code, message: file.message)
            }
            let outcome = try await repository.recordFailure(
                sha256: file.sha256, source: file.source, format: file.format, facts: file.facts, code: file.code, message: file.message)
            return Self.event(outcome, path: file.source.path, failure: (file.code, file.message))
        }
    }

    /// The note that a newly recorded entry is a near-duplicate of one already in the catalog (the
    /// nearest, within the default distance, not marked distinct from it); nil when it has none. The
    /// entry is kept either way: nothing is dropped without the user asking.
    private func nearDuplicate(of examined: Examined, recordedAs event: ImportEvent) async throws(CatalogError) -> ImportEvent? {
        guard let repository, case .processed(let photo, _, _, _) = examined, let signature = photo.signature else { return nil }
        let id: Int64
        switch event {
        case .imported(let new?, _), .updated(let new?, _): id = new
        default: return nil
        }
        let near = try await repository.nearDuplicates(of: signature, within: SimilaritySignature.defaultWithin, excluding: id)
        guard !near.isEmpty else { return nil }
        let distinct = try await repository.duplicateDecisions().distinct
        guard let nearest = near.first(where: { !distinct.contains(EntryPair(id, $0.id)) }) else { return nil }
        return .nearDuplicate(id: id, path: event.path, of: nearest.id, distance: nearest.distance)
    }

    /// The event of an edit in place (entry `id` re-made); nil when it did not happen (the entry changed
    /// meanwhile, or the new bytes are another entry's), and the file is then recorded as usual.
    private static func event(_ outcome: ReprocessOutcome, id: Int64, path: String, failure: (code: String, message: String)?) -> ImportEvent? {
        switch outcome {
        case .replaced: .updated(id: id, path: path)
        case .failed: .failed(id: id, path: path, code: failure?.code ?? "failed", message: failure?.message ?? "")
        default: nil
        }
    }

    private static func event(_ outcome: ImportOutcome, path: String, failure: (code: String, message: String)?) -> ImportEvent {
        switch outcome {
        case .imported(let id): .imported(id: id, path: path)
        case .duplicate(let id, let pathUpdated): .duplicate(id: id, path: path, moved: pathUpdated)
        case .failed(let id): .failed(id: id, path: path, code: failure?.code ?? "failed", message: failure?.message ?? "")
        }
    }

    private static func dryRunEvent(_ examined: Examined) -> ImportEvent? {
        switch examined {
        case .skipped: nil
        case .processed(_, _, let source, let claim?): .updated(id: claim.id, path: source.path)
        case .processed(_, _, let source, nil): .imported(id: nil, path: source.path)
        case .known(let existing, let source) where existing.status != .ok: .failed(id: existing.id, path: source.path, code: "failed", message: "failed before (see `catalog list --failed`)")
        case .known(let existing, let source): .duplicate(id: existing.id, path: source.path, moved: existing.path != source.path)
        case .failed(let file): .failed(id: nil, path: file.source.path, code: file.code, message: file.message)
        }
    }

    /// Lower-case hex SHA-256 of the bytes: the identity of a photo.
    static func hexDigest(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
