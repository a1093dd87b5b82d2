import Foundation
import Processing

/// `catalog preview`: a pack's contact sheet (every sticker over a gradient of its own palette,
/// in a grid, under the pack's title), encoded as PNG and written like an export (temporary name,
/// renamed into place, nothing replaced without `force`).
public enum PreviewSheet {
    /// Columns when none are asked for: about square, at most 8.
    public static func defaultColumns(count: Int) -> Int {
        min(8, max(1, Int(Double(count).squareRoot().rounded(.up))))
    }

    /// The sheet of `source` as PNG bytes, with its pixel size.
    @concurrent
    public static func render(_ source: PackSource, columns: Int?) async throws(ExportError) -> (png: [UInt8], width: Int, height: Int) {
        guard !source.items.isEmpty else { throw .emptyPack(name: source.name) }
        var cells: [ContactSheet.Cell] = []
        for item in source.items {
            do {
                let image = try PNGCodec.decode(item.png, maxPixels: 64_000_000)
                cells.append(ContactSheet.Cell(sticker: atFullSize(image, fullSize: item.fullSize), palette: item.palette, caption: "#\(item.id)"))
            } catch {
                throw .unreadableSticker(id: item.id, reason: error.errorDescription ?? error.code)
            }
        }
        let sheet = ContactSheet().render(
            title: source.title, cells: cells, columns: columns ?? defaultColumns(count: cells.count)
        )
        do {
            return (try PNGCodec.encode(sheet, compression: .fast), sheet.width, sheet.height)
        } catch {
            throw .io(path: "preview", reason: error.errorDescription ?? error.code)
        }
    }

    /// A sticker smaller than its settings' size (from a small source) centred on transparency as
    /// long as a full-size one, so the sheet shows it at its pack's scale, as the apps do, rather
    /// than blown up to the cell.
    static func atFullSize(_ image: RGBAImage, fullSize: Int?) -> RGBAImage {
        guard let fullSize, let placement = CanvasRule.longSide(fullSize).placement(width: image.width, height: image.height, fullSize: fullSize),
              (placement.canvasWidth, placement.canvasHeight) != (image.width, image.height) else { return image }
        return CanvasFitter.centred(image, resizedTo: (placement.width, placement.height), onCanvas: (placement.canvasWidth, placement.canvasHeight))
    }

    /// Writes `png` to `url` through a temporary file in the same folder (see `OutputFile`): an existing
    /// file only with `force`, a folder or special file never.
    public static func write(_ png: [UInt8], to url: URL, force: Bool) throws(ExportError) {
        let path = url.standardizedFileURL.path
        if !force, case .regular = FileKind.of(path) { throw .outputExists(path: path) }
        do throws(OutputFileError) {
            try OutputFile.write(png, to: path, force: force)
        } catch {
            throw .io(path: path, reason: error.reason)
        }
    }
}
