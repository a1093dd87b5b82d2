import Foundation

/// iPhone Live Photos among the files an import recorded: a still (HEIC, HEIF or JPEG) and a MOV with the
/// same base name in the same folder (`IMG_0001.HEIC` + `IMG_0001.MOV`), names and extensions compared
/// without case. Pairing by name is what every copy of a Live Photo keeps (AirDrop, exports, backups);
/// the content identifier Apple writes into both halves is kept in the clip's EXIF tags, not needed here.
enum LivePhotoPairs {
    /// Which half of a Live Photo a file can be.
    enum Half: Equatable {
        case still
        case clip
    }

    static let stillExtensions: Set<String> = ["heic", "heif", "jpg", "jpeg"]
    static let clipExtensions: Set<String> = ["mov"]

    /// The half `path` can be, by its extension; nil for any other file.
    static func half(_ path: String) -> Half? {
        let ext = (path as NSString).pathExtension.lowercased()
        return stillExtensions.contains(ext) ? .still : clipExtensions.contains(ext) ? .clip : nil
    }

    /// The file beside `path` that is its other half, found by listing the folder; nil when there is none,
    /// or more than one (`IMG_1.jpg` and `IMG_1.heic` beside `IMG_1.mov`: which is the still is not known).
    static func partner(of path: String) -> String? {
        guard let half = half(path), !EscapedPath.isEscaped(path) else { return nil }
        let folder = (path as NSString).deletingLastPathComponent
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension.lowercased()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        let sameBase = names.filter { ($0 as NSString).deletingPathExtension.lowercased() == base }
        let matches = sameBase.filter { Self.half($0).map { $0 != half } == true }
        // Exactly one still and one clip, seen from either side.
        guard matches.count == 1, sameBase.filter({ Self.half($0) == half }).count == 1 else { return nil }
        return folder.isEmpty ? matches[0] : (folder as NSString).appendingPathComponent(matches[0])
    }
}

extension Importer {
    /// Links the Live Photos among `recorded` (path → entry id of this run's files): each still with the
    /// clip beside it, whether that clip came in this run or an earlier one (and each clip with an earlier
    /// still). Nothing for a dry run.
    func linkLivePhotos(_ recorded: [String: Int64]) async throws(CatalogError) {
        guard let repository, !options.dryRun else { return }
        var linked = Set<Int64>()
        for (path, id) in recorded.sorted(by: { $0.key < $1.key }) where !linked.contains(id) {
            guard let half = LivePhotoPairs.half(path), let partner = LivePhotoPairs.partner(of: path) else { continue }
            // No hash is empty: "" asks for any entry with a hash at the partner's path.
            let other: Int64? = if let known = recorded[partner] { known } else {
                try await repository.entryClaiming(path: partner, otherThan: "")?.id
            }
            guard let other, other != id, !linked.contains(other) else { continue }
            let (still, clip) = half == .still ? (id, other) : (other, id)
            try await repository.linkLivePhoto(still: still, clip: clip)
            linked.formUnion([still, clip])
        }
    }
}
