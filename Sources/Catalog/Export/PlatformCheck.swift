/// Whether a messaging app takes a pack as it is, by the rules that need no encoding: how many
/// stickers, still and moving mixed, the title's length. Sizes and byte limits are met when the pack
/// is exported (`export --dry-run` checks them).
public struct PlatformCheck: Sendable, Equatable, Codable {
    private enum CodingKeys: String, CodingKey { case format, ok, sets, note }

    public var format: ExportFormat
    public var ok: Bool
    /// How many packs an export makes: more than one when the pack is split by size, or into
    /// still and animated sets.
    public var sets: Int
    /// Why not, or how it is split; nil when it goes out as one pack.
    public var note: String?

    /// The messaging apps, in the order the page shows them.
    public static let platforms: [ExportFormat] = [.telegram, .whatsapp, .signal, .imessage]

    /// The check of every messaging app for pack `name` titled `title` whose stickers move where
    /// `moving` is true.
    public static func all(name: String, title: String, moving: [Bool]) -> [PlatformCheck] {
        platforms.map { format in
            do throws(ExportError) {
                let parts = try ExportSet.parts(name: name, title: title, moving: moving, limits: .of(format), stills: false)
                return PlatformCheck(format: format, ok: true, sets: parts.count, note: note(parts, limits: .of(format)))
            } catch {
                return PlatformCheck(format: format, ok: false, sets: 0, note: error.errorDescription)
            }
        }
    }

    /// How the pack is split, in words.
    static func note(_ parts: [ExportSet.Part], limits: PlatformLimits) -> String? {
        guard parts.count > 1 else { return nil }
        let moving = parts.filter(\.animated).count
        if moving > 0, moving < parts.count {
            return "still and animated stickers go in separate packs"
        }
        return "at most \(limits.stickersPerPack?.upperBound ?? 0) stickers a pack"
    }
}

// JSON: `note` is always present, null when there is nothing to say (the JSON contract).
extension PlatformCheck: JSONObject {
    public var jsonFields: [JSONField] { [("format", format), ("ok", ok), ("sets", sets), ("note", note)] }
}
