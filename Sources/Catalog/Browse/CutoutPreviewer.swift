import Processing
import Synchronization

/// The sticker an entry would get with some guidance, made and not saved: the page's "Fix the
/// cut-out" preview. The last photos stay decoded (keyed by entry, hash and decode size), so trying
/// guidance again on the same photo costs only the cut-out and the render, not reading, hashing and
/// decoding 12 MP again.
public final class CutoutPreviewer: Sendable {
    /// Why there is no preview; each case names the entry and what to do.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The entry's photo was never decoded (unreadable, unsupported): there is no photo to guide.
        case noPhoto(id: Int64, reason: String)
        /// The guidance does not fit the entry's upright photo.
        case invalidGuidance(GuidanceError)
        /// The source file is gone.
        case sourceMissing(id: Int64, path: String)
        /// The source file cannot be read.
        case sourceUnreadable(id: Int64, path: String, message: String)
        /// The source file now holds other bytes than the entry's.
        case sourceChanged(id: Int64, path: String)
        /// The cut-out failed (no subject inside the box, say), or the model is missing.
        case processingFailed(id: Int64, ProcessingError)

        public var description: String {
            switch self {
            case .noPhoto(let id, let reason):
                "entry \(id) has no photo to guide: it was never decoded (\(reason))"
            case .invalidGuidance(let error):
                error.description
            case .sourceMissing(let id, let path):
                "entry \(id): its source \(path) is missing (moved or deleted)"
            case .sourceUnreadable(let id, let path, let message):
                "entry \(id): its source \(path) cannot be read (\(message))"
            case .sourceChanged(let id, let path):
                "entry \(id): its source \(path) holds other bytes than the entry's now; reprocess it (or import the file) first"
            case .processingFailed(let id, let error):
                "entry \(id): the cut-out failed: \(error.errorDescription ?? error.code) [\(error.code)]"
            }
        }
    }

    struct Key: Hashable {
        let id: Int64
        let sha256: String
        let workingSize: Int
        let maxPixels: Int
    }

    /// Most recently used last. Two photos: the one being fixed, and the one before it (stepping back
    /// and forth in the detail view); each is about 3 MB.
    private let kept = Mutex<[(key: Key, photo: DecodedPhoto)]>([])
    private let capacity: Int

    public init(capacity: Int = 2) {
        self.capacity = max(1, capacity)
    }

    /// The sticker `entry` would get with `guidance` under `settings`, cut out by `predictor`.
    /// The guidance is checked against the entry's recorded size before the source is read.
    public func sticker(
        for entry: EntryDetail, guidance: CutoutGuidance, settings: StickerSettings, predictor: (any MaskPredictor)?,
        maxPixels: Int = DecodeOptions.defaultMaxPixels
    ) async throws(Failure) -> StickerImage {
        guard let width = entry.width, let height = entry.height, let sha256 = entry.sha256 else {
            throw .noPhoto(id: entry.id, reason: entry.failure.map { "\($0.message) [\($0.code)]" } ?? "no size recorded")
        }
        do throws(GuidanceError) {
            try guidance.validate(width: width, height: height)
        } catch {
            throw .invalidGuidance(error)
        }
        let processor = PhotoProcessor(settings: settings, maxPixels: maxPixels, predictor: predictor)
        let key = Key(id: entry.id, sha256: sha256, workingSize: processor.decodeOptions.workingSize, maxPixels: maxPixels)
        let photo = try await decoded(entry, key: key, processor: processor)
        do throws(ProcessingError) {
            return try await processor.sticker(of: photo, guidance: guidance)
        } catch {
            throw .processingFailed(id: entry.id, error)
        }
    }

    /// The entry's photo decoded: the kept copy, or the source read, checked against the entry's hash and decoded.
    private func decoded(_ entry: EntryDetail, key: Key, processor: PhotoProcessor) async throws(Failure) -> DecodedPhoto {
        if let photo = take(key) { return photo }
        let read: SourceBytes
        switch SourceReader.read(path: entry.path) {
        case .success(let bytes): read = bytes
        case .failure(let problem):
            if !EscapedPath.exists(entry.path) { throw .sourceMissing(id: entry.id, path: entry.path) }
            throw .sourceUnreadable(id: entry.id, path: entry.path, message: problem.message)
        }
        guard Importer.hexDigest(read.bytes) == key.sha256 else { throw .sourceChanged(id: entry.id, path: entry.path) }
        let photo: DecodedPhoto
        do throws(ProcessingError) {
            photo = try await processor.decode(read.bytes)
        } catch {
            throw .processingFailed(id: entry.id, error)
        }
        keep(photo, as: key)
        return photo
    }

    private func take(_ key: Key) -> DecodedPhoto? {
        kept.withLock { kept in
            guard let index = kept.firstIndex(where: { $0.key == key }) else { return nil }
            let item = kept.remove(at: index)
            kept.append(item)
            return item.photo
        }
    }

    private func keep(_ photo: DecodedPhoto, as key: Key) {
        kept.withLock { kept in
            kept.removeAll { $0.key == key }
            kept.append((key, photo))
            if kept.count > capacity { kept.removeFirst(kept.count - capacity) }
        }
    }
}
