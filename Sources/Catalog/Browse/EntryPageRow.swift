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

    /// `settings` as the stored `settings_json` text a stale filter compares with (canonical JSON, so text
    /// equality is value equality).
    static func storedJSON(of settings: StickerSettings, catalog: String) throws(CatalogError) -> String {
        do {
            return try CatalogJSON.string(settings)
        } catch {
            throw .database(path: catalog, message: "cannot encode the settings: \(error)")
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
