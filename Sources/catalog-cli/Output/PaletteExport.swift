import Catalog
import Foundation

/// A sticker's palette in the formats other tools read.
enum PaletteExport {
    static func render(_ entry: EntryDetail, as format: CatalogCommand.PaletteCommand.OutputFormat) -> String {
        switch format {
        case .gpl: gpl(entry)
        case .css: css(entry)
        case .json: JSONOutput.document(Document(entry))
        }
    }

    /// GIMP palette: header, then `R G B<TAB>name` lines.
    static func gpl(_ entry: EntryDetail) -> String {
        var text = "GIMP Palette\nName: sticker \(entry.id) \(name(entry))\nColumns: \(entry.palette.count)\n#\n"
        for color in entry.palette {
            let (r, g, b) = components(color.hex)
            text += String(format: "%3d %3d %3d\t%@ %.0f%%\n", r, g, b, color.hex, color.share * 100)
        }
        return text
    }

    /// CSS custom properties on `:root`, one per colour, largest share first.
    static func css(_ entry: EntryDetail) -> String {
        var text = "/* sticker \(entry.id): \(name(entry).replacingOccurrences(of: "*/", with: "* /")), largest share first */\n:root {\n"
        for (index, color) in entry.palette.enumerated() {
            text += String(format: "  --sticker-%lld-%d: %@; /* %.0f%% */\n", entry.id, index + 1, color.hex, color.share * 100)
        }
        return text + "}\n"
    }

    private static func name(_ entry: EntryDetail) -> String {
        URL(fileURLWithPath: entry.path).lastPathComponent
    }

    static func components(_ hex: String) -> (Int, Int, Int) {
        let value = Int(hex.dropFirst(), radix: 16) ?? 0
        return (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)
    }

    struct Document: Encodable {
        struct Color: Encodable {
            let hex: String
            let rgb: [Int]
            let share: Double
            let oklab: [Double]
        }

        let id: Int64
        let path: String
        let colors: [Color]

        init(_ entry: EntryDetail) {
            id = entry.id
            path = entry.path
            colors = entry.palette.map { color in
                let (r, g, b) = PaletteExport.components(color.hex)
                return Color(hex: color.hex, rgb: [r, g, b], share: color.share, oklab: [color.l, color.a, color.b])
            }
        }
    }
}
