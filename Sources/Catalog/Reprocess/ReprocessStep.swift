import Processing

/// What reprocessing one entry changes, unless the entry's hash is no longer `expectedSHA256` (or its
/// guidance `expectedGuidance`): what ``ReprocessStore/replace(id:expectedSHA256:expectedGuidance:with:sha256:source:guidance:)``
/// and its siblings write, and what a worker commits for a stale entry. Its rules (``plan(found:now:)``) are
/// the same on every back end; a back end reads the rows they need and carries out the plan.
public struct ReprocessStep: Sendable {
    /// The change itself.
    public enum Change: Sendable {
        case replace(ProcessedPhoto, sha256: String, source: SourceFile)
        case fail(sha256: String, PhotoFailure)
        case refreshSource(SourceFile)
        case resolveDuplicate(sha256: String)
        /// Nothing to write on the entry (a failed re-run keeps the sticker it has): only the queue row, as failed.
        case keep(message: String)
    }

    public var entryID: Int64
    public var expectedSHA256: String?
    /// The guidance the new content was made with: a `catalog recut` meanwhile is not overwritten. nil: not checked.
    public var expectedGuidance: CutoutGuidance?
    /// For `replace`: the guidance stored with the new content (`.none` clears it); nil keeps the stored one.
    public var guidance: CutoutGuidance?
    public var change: Change

    public init(
        entryID: Int64, expectedSHA256: String?, expectedGuidance: CutoutGuidance? = nil, guidance: CutoutGuidance? = nil, change: Change
    ) {
        self.entryID = entryID
        self.expectedSHA256 = expectedSHA256
        self.expectedGuidance = expectedGuidance
        self.guidance = guidance
        self.change = change
    }

    /// The hash the entry is to hold, when another entry may hold it already: a back end reads the entry
    /// and any entry with these bytes (`WHERE id = ? OR sha256 = ?`) for ``plan(found:now:)``.
    public var newSHA256: String? {
        switch change {
        case .replace(_, let sha256, _), .fail(let sha256, _), .resolveDuplicate(let sha256): sha256
        case .refreshSource, .keep: nil
        }
    }

    /// The message a worker leaves on the queue row when it commits this step (nil: the row is done).
    var queueMessage: String? {
        switch change {
        case .fail(_, let problem): problem.rowMessage
        case .keep(let message): message
        case .replace, .refreshSource, .resolveDuplicate: nil
        }
    }
}

/// What a back end does, inside one write transaction, to carry out a ``ReprocessStep``.
enum EntryRewritePlan {
    /// Write nothing.
    case nothing(ReprocessOutcome)
    /// Delete the entry: a placeholder for an unreadable file, whose bytes another entry now holds.
    case deleteEntry(ReprocessOutcome)
    /// Update the entry's row only.
    case updateEntry(PhotoRecord, ReprocessOutcome)
    /// Delete what was made from the entry's old bytes (palette rows first and explicitly, so triggers on
    /// the colour index see every row leave), update its row, then insert `content`, or else `exif` alone.
    case replaceContent(PhotoRecord, content: ProcessedPhoto?, exif: ExifMetadata?, outcome: ReprocessOutcome)
}

extension ReprocessStep {
    /// The plan, from `found`: the rows the transaction read, the entry and any entry holding ``newSHA256``.
    /// The entry is never merged away into another: packs and scripts keep its id.
    func plan(found: [PhotoRecord], now: String) throws -> EntryRewritePlan {
        if case .keep = change { return .nothing(.failed) }
        guard var record = found.first(where: { $0.id == entryID }), record.sha256 == expectedSHA256 else {
            return .nothing(.changedMeanwhile)
        }
        let holder: Int64? = newSHA256.flatMap { sha256 in
            sha256 == record.sha256 ? nil : found.first { $0.sha256 == sha256 && $0.id != entryID }?.id
        }
        let duplicate: EntryRewritePlan? = holder.map { other in
            // An unreadable placeholder goes (its bytes are catalogued there); any other entry stays as it was.
            record.sha256 == nil
                ? EntryRewritePlan.deleteEntry(.duplicate(of: other, removed: true))
                : EntryRewritePlan.nothing(.duplicate(of: other, removed: false))
        }
        switch change {
        case .keep:
            return .nothing(.failed)
        case .refreshSource(let source):
            record.fileSize = source.size
            record.fileMtime = source.modificationTime
            record.updatedAt = now
            return .updateEntry(record, .sourceRefreshed)
        case .resolveDuplicate:
            return duplicate ?? .nothing(.changedMeanwhile)
        case .replace(let photo, let sha256, let source):
            guard try expectedGuidance.map({ try record.guidance() == $0 }) ?? true else { return .nothing(.changedMeanwhile) }
            if let duplicate { return duplicate }
            record.holdBytes(sha256, from: source, now: now)
            if let guidance { record.guidanceJson = try guidance.storedJSON() }
            // The part of a clip the new content was cut from is the entry's from now on (a recut's new one).
            record.clipJson = try ClipWindow.storedJSON(photo.clip)
            record.format = photo.format.rawValue
            record.width = photo.width
            record.height = photo.height
            record.status = EntryStatus.ok.rawValue
            record.failureCode = nil
            record.failureMessage = nil
            return .replaceContent(record, content: photo, exif: nil, outcome: .replaced)
        case .fail(let sha256, let problem):
            guard try expectedGuidance.map({ try record.guidance() == $0 }) ?? true else { return .nothing(.changedMeanwhile) }
            if let duplicate { return duplicate }
            record.holdBytes(sha256, from: problem.source, now: now)
            record.format = (problem.facts?.format ?? problem.format)?.rawValue
            record.width = problem.facts?.width
            record.height = problem.facts?.height
            record.status = EntryStatus.failed.rawValue
            record.failureCode = problem.code
            record.failureMessage = problem.message
            return .replaceContent(record, content: nil, exif: problem.facts?.exif, outcome: .failed)
        }
    }
}

extension PhotoRecord {
    /// The row now describes the bytes `sha256` read at `source` by this binary's decoder.
    fileprivate mutating func holdBytes(_ sha256: String, from source: SourceFile, now: String) {
        self.sha256 = sha256
        fileSize = source.size
        fileMtime = source.modificationTime
        updatedAt = now
        decoderVersion = PhotoDecoder.decoderVersion
    }
}
