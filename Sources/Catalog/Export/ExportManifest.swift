/// `manifest.json`, written into every export: the pack, each sticker's id, emoji, palette, source
/// summary and file, and the SHA-256 of every other file of the export. No timestamps, so the
/// same pack gives the same manifest.
struct ExportManifest: Encodable {
    var generator = "sticker-catalog"
    var format: ExportFormat
    /// The part's pack name, and the pack it came from.
    var name, pack: String
    /// Which part of how many (a pack too large for the platform is split).
    var part, parts: Int
    var title, author: String
    /// The cover / tray icon / thumbnail file (Signal: the first sticker), or nil.
    var cover: String?
    var stickers: [Sticker]
    /// Every file of the export but this manifest, sorted by path.
    var files: [File]

    struct Sticker: Encodable {
        var id: Int64
        var position: Int
        var file: String
        var emoji: [String]
        var width, height, bytes: Int
        var sha256, encoding: String
        /// For a moving sticker: its frames, rate, running time and what was changed to fit.
        var animation: ExportReport.Motion?
        /// Files beside the sticker (a plain export's APNG).
        var companions: [Companion]?
        var palette: [Color]
        var source: SourceSummary
    }

    /// A file written beside a sticker.
    struct Companion: Encodable {
        var file: String
        var bytes: Int
        var sha256, encoding: String
        var animation: ExportReport.Motion?
    }

    struct Color: Encodable {
        var hex: String
        var share: Double
    }

    struct File: Encodable {
        var path: String
        var bytes: Int
        var sha256: String
    }
}
