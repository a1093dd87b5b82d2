import Processing

extension CatalogSetting {
    /// The settings the stored `(key, value)` rows make, over the defaults. Keys this binary does not know
    /// (written by a newer one) are ignored; a known key with a value it refuses is an error, since guessing
    /// would silently make stickers with other settings than the user chose. `catalog` names the catalog in it.
    /// `cutout.precision` `auto` is resolved here, on the machine that runs the job.
    static func settings(from rows: [(key: String, value: String)], catalog: String) throws(CatalogError) -> StickerSettings {
        var settings = StickerSettings.default
        for (key, value) in rows {
            guard let setting = CatalogSetting(rawValue: key) else { continue }
            do {
                settings = try setting.applying(value, to: settings)
            } catch {
                throw refused(error, key: key, catalog: catalog)
            }
        }
        return settings
    }

    /// The stored rows as the user set them (``SettingValues``), checked as ``settings(from:catalog:)`` checks them.
    static func values(from rows: [(key: String, value: String)], catalog: String) throws(CatalogError) -> SettingValues {
        var texts: [CatalogSetting: String] = [:]
        for (key, value) in rows {
            guard let setting = CatalogSetting(rawValue: key) else { continue }
            do {
                texts[setting] = try setting.canonical(value)
            } catch {
                throw refused(error, key: key, catalog: catalog)
            }
        }
        return SettingValues(texts)
    }

    private static func refused(_ error: SettingError, key: String, catalog: String) -> CatalogError {
        .database(path: catalog, message: "\(error); fix it with `catalog config set \(key) VALUE`")
    }
}

/// The catalog's settings as the user set them: each one's stored text, or its default's when it was
/// never set. What `catalog config` and `GET /api/settings` show: `cutout.precision` `auto` stays `auto`
/// here, where ``StickerSettings`` holds the precision it runs on this machine.
public struct SettingValues: Sendable, Equatable {
    private let texts: [CatalogSetting: String]

    /// Every setting at its default (a catalog that does not exist yet).
    public static let defaults = SettingValues([:])

    init(_ texts: [CatalogSetting: String]) {
        self.texts = texts
    }

    /// The text of `setting`.
    public subscript(_ setting: CatalogSetting) -> String { texts[setting] ?? setting.defaultValue }

    /// The sticker settings these values make on this machine (`auto` resolved here).
    public var settings: StickerSettings {
        // Every text was checked when it was read or stored, so none is refused here.
        CatalogSetting.allCases.reduce(StickerSettings.default) { settings, setting in
            (try? setting.applying(self[setting], to: settings)) ?? settings
        }
    }

    /// The text of `setting`, with what it runs on this machine when the text alone does not say:
    /// `auto (fp32 on AVX-512)`.
    public func described(_ setting: CatalogSetting) -> String {
        let text = self[setting]
        return setting.note(for: text).map { "\(text) (\($0))" } ?? text
    }
}
