import Processing
import Synchronization

/// The sticker an entry would get with some guidance, made and not saved: the page's "Fix the
/// cut-out" preview. The last photos stay decoded (keyed by entry, hash and decode size), so trying
/// guidance again on the same photo costs only the cut-out and the render, not reading, hashing and
/// decoding 12 MP again. It fails as `recut` would, with nothing written either way.
public final class CutoutPreviewer: Sendable {
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
    ) async throws(RecutError) -> StickerImage {
        let (width, height, sha256) = try EntrySource.photo(of: entry)
        do throws(GuidanceError) {
            try guidance.validate(width: width, height: height)
        } catch {
            throw .invalidGuidance(error)
        }
        let processor = PhotoProcessor(settings: settings, maxPixels: maxPixels, predictor: predictor)
        let photo = try await decoded(entry, key: Self.key(entry, sha256: sha256, processor: processor, maxPixels: maxPixels), processor: processor)
        do throws(ProcessingError) {
            return try await processor.sticker(of: photo, guidance: guidance)
        } catch {
            throw .processingFailed(id: entry.id, error)
        }
    }

    /// Reads and decodes the entry's photo ahead of its first preview ("Fix the cut-out" opened), so the
    /// first box drawn costs only the cut-out.
    public func prepare(_ entry: EntryDetail, settings: StickerSettings, maxPixels: Int = DecodeOptions.defaultMaxPixels) async throws(RecutError) {
        let sha256 = try EntrySource.photo(of: entry).sha256
        let processor = PhotoProcessor(settings: settings, maxPixels: maxPixels, predictor: nil)
        _ = try await decoded(entry, key: Self.key(entry, sha256: sha256, processor: processor, maxPixels: maxPixels), processor: processor)
    }

    private static func key(_ entry: EntryDetail, sha256: String, processor: PhotoProcessor, maxPixels: Int) -> Key {
        Key(id: entry.id, sha256: sha256, workingSize: processor.decodeOptions.workingSize, maxPixels: maxPixels)
    }

    /// The entry's photo decoded: the kept copy, or the source read, checked against the entry's hash and decoded.
    private func decoded(_ entry: EntryDetail, key: Key, processor: PhotoProcessor) async throws(RecutError) -> DecodedPhoto {
        if let photo = take(key) { return photo }
        let read = try EntrySource.read(entry, sha256: key.sha256)
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
