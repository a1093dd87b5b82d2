/// How a pack's stickers are grouped into the sets a platform takes: one set, or where a set is
/// either still or moving (Telegram, WhatsApp) a still set `NAME` and a moving set
/// `NAME-animated`; each split again into parts when over the platform's maximum.
struct ExportSet {
    /// One part to write: its name and title, and the pack positions (0-based) it holds.
    struct Part {
        var name: String
        var title: String
        /// 1-based, over all parts of the export.
        var number: Int
        var indices: [Int]
        /// Its stickers go out moving (those that have an animation).
        var animated: Bool
    }

    var indices: [Int]
    /// Exported moving; nil for a set that mixes both (each sticker as it is).
    var moving: Bool?

    /// The parts of `source` under `limits`. `stills` exports every sticker still.
    static func parts(of source: PackSource, limits: PlatformLimits, stills: Bool) throws(ExportError) -> [Part] {
        try parts(name: source.name, title: source.title, moving: source.items.map { $0.animation != nil }, limits: limits, stills: stills)
    }

    /// The parts of pack `name` whose stickers move where `moving` is true, in pack order.
    static func parts(name packName: String, title: String, moving: [Bool], limits: PlatformLimits, stills: Bool) throws(ExportError) -> [Part] {
        guard !moving.isEmpty else { throw .emptyPack(name: packName) }
        let sets = sets(moving: moving, limits: limits, stills: stills)
        var parts: [Part] = []
        for set in sets {
            if let range = limits.stickersPerPack, set.indices.count < range.lowerBound {
                if sets.count == 1 {
                    throw .tooFewStickers(format: limits.format, count: set.indices.count, minimum: range.lowerBound, source: limits.source)
                }
                throw .tooFewInSet(format: limits.format, animated: set.moving == true, count: set.indices.count, minimum: range.lowerBound)
            }
            let separate = sets.count > 1 && set.moving == true
            let name = separate ? packName + "-animated" : packName
            let groups = Exporter.split(count: set.indices.count, maximum: limits.stickersPerPack?.upperBound)
            for (index, range) in groups.enumerated() {
                let count = groups.count
                let suffix = [separate ? "animated" : nil, count > 1 ? "\(index + 1)/\(count)" : nil].compactMap(\.self).joined(separator: " ")
                parts.append(Part(
                    name: count == 1 ? name : "\(name)-\(index + 1)",
                    title: suffix.isEmpty ? title : "\(title) (\(suffix))",
                    number: parts.count + 1,
                    indices: Array(set.indices[range]),
                    animated: !stills && set.moving != false))
            }
        }
        // Split parts are titled "Title (1/2)", "Title (animated)": the suffix counts against the limit too.
        if let maxTitle = limits.maxTitleLength, let longest = parts.map(\.title.count).max(), longest > maxTitle {
            throw .titleTooLong(format: limits.format, length: longest, limit: maxTitle)
        }
        return parts
    }

    /// The sets, before any split by size: still first.
    static func sets(moving isMoving: [Bool], limits: PlatformLimits, stills: Bool) -> [ExportSet] {
        let all = Array(isMoving.indices)
        guard !stills else { return [ExportSet(indices: all, moving: false)] }
        guard limits.animation.separateSets else { return [ExportSet(indices: all, moving: nil)] }
        let moving = all.filter { isMoving[$0] }
        let still = all.filter { !isMoving[$0] }
        if moving.isEmpty { return [ExportSet(indices: still, moving: false)] }
        if still.isEmpty { return [ExportSet(indices: moving, moving: true)] }
        return [ExportSet(indices: still, moving: false), ExportSet(indices: moving, moving: true)]
    }
}
