import Processing

/// One entry of a page as a back end reads it: its `photo` row left-joined with its `sticker` row.
/// ``EntryPage/Item/init(_:settings:)`` makes the page's item from it, with its recorded stale reasons.
struct EntryPageRow {
    var id: Int64
    var sha256: String?
    var path: String
    var status: String
    var failureCode, failureMessage: String?
    /// nil when the entry has no sticker.
    var pipelineVersion: Int?
    var settingsJSON: String?
    /// Whether the sticker moves (the entry has an `animation` row).
    var animated = false
}

extension EntryPageQuery {
    /// The page size served: `limit` within 1...``maxLimit``.
    var boundedLimit: Int { min(max(limit, 1), Self.maxLimit) }
    /// The offset served: never below 0.
    var boundedOffset: Int { max(offset, 0) }

    /// `settings` as the stored `settings_json` texts a stale filter compares with (canonical JSON, so text
    /// equality is value equality): always two, for fixed SQL. The second is the text stickers stored before
    /// precision was a setting have, which decodes as float32 (``InferencePrecision/legacy``): it stands for
    /// `settings` when they run in float32, else it repeats the first.
    static func storedJSON(of settings: StickerSettings, catalog: String) throws(CatalogError) -> [String] {
        do {
            let current = try CatalogJSON.string(settings)
            guard settings.precision == .legacy else { return [current, current] }
            return [current, try CatalogJSON.string(SettingsBeforePrecision(settings))]
        } catch {
            throw .database(path: catalog, message: "cannot encode the settings: \(error)")
        }
    }

    /// The settings JSON as stickers made before `cutout.precision` existed stored it.
    private struct SettingsBeforePrecision: Encodable {
        let size, outline, paletteColors: Int
        let shadow: Bool
        let model: CutoutModel

        init(_ settings: StickerSettings) {
            (size, outline, paletteColors, shadow, model) = (settings.size, settings.outline, settings.paletteColors, settings.shadow, settings.model)
        }
    }
}

extension EntryPage.Item {
    /// The item for `row`, its stale reasons measured against `settings` and this binary's pipeline.
    init(_ row: EntryPageRow, settings: StickerSettings) throws {
        var sticker: (pipelineVersion: Int, settings: StickerSettings)?
        if let version = row.pipelineVersion, let json = row.settingsJSON {
            sticker = (version, try CatalogJSON.decode(StickerSettings.self, from: json))
        }
        self.init(
            id: row.id, sha256: row.sha256, path: row.path, status: EntryStatus(storedValue: row.status),
            failure: row.failureCode.map { EntryDetail.Failure(code: $0, message: row.failureMessage ?? "") }, animated: row.animated,
            reasons: StaleReason.recorded(
                sticker: sticker, failureCode: row.failureCode, current: settings, pipelineVersion: PhotoProcessor.pipelineVersion))
    }
}
