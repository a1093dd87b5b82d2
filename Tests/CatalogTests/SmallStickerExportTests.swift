import Foundation
import Processing
import Testing

@testable import Catalog

/// Stickers from small sources (smaller than `sticker.size`) in every export: each platform's
/// pixel rule is met by transparent padding, at the scale of the pack's full-size stickers.
@Suite("Export: stickers from small sources are padded, not blown up", .timeLimit(.minutes(15)))
struct SmallStickerExportTests {
    /// The sticker a 32-pixel icon makes (a 25-pixel disc, enlarged twice): 70 x 70.
    static func iconSticker() throws -> RGBAImage {
        var icon = RGBAImage(width: 32, height: 32, red: 0, green: 0, blue: 0, alpha: 0)
        for y in 0..<32 {
            for x in 0..<32 where (x - 16) * (x - 16) + (y - 16) * (y - 16) < 13 * 13 {
                icon.pixels.replaceSubrange((y * 32 + x) * 4..<(y * 32 + x) * 4 + 4, with: [30, 160, 200, 255])
            }
        }
        return try StickerRenderer.render(icon, style: .default)
    }

    /// The box of the pixels with alpha above 0.
    func visibleBox(_ image: RGBAImage) -> (x: Int, y: Int, width: Int, height: Int)? {
        var minX = image.width, minY = image.height, maxX = -1, maxY = -1
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixel(x: x, y: y).alpha > 0 {
                (minX, maxX, minY, maxY) = (min(minX, x), max(maxX, x), min(minY, y), max(maxY, y))
            }
        }
        return maxX < 0 ? nil : (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    func decoded(_ bytes: [UInt8]) throws -> RGBAImage {
        if (try? PNGCodec.readHeader(bytes)) != nil { return try PNGCodec.decode(bytes, maxPixels: 1_000_000) }
        return try WebPCodec.decode(bytes)
    }

    @Test("placements: full-size stickers fit the canvas; smaller ones keep the pack's scale, centred")
    func placements() {
        // Full size (512 on the long side, or unknown): scaled to fit, as always.
        #expect(CanvasRule.square(512).placement(width: 512, height: 300, fullSize: 512) == CanvasPlacement(canvasWidth: 512, canvasHeight: 512, width: 512, height: 300))
        #expect(CanvasRule.longSide(512).placement(width: 256, height: 128, fullSize: 256) == CanvasPlacement(canvasWidth: 512, canvasHeight: 256, width: 512, height: 256))
        #expect(CanvasRule.longSide(512).placement(width: 64, height: 64, fullSize: nil) == CanvasPlacement(canvasWidth: 512, canvasHeight: 512, width: 512, height: 512))
        #expect(CanvasRule.square(408).placement(width: 700, height: 200, fullSize: 512) == CanvasPlacement(canvasWidth: 408, canvasHeight: 408, width: 408, height: 117))
        // Smaller than full size: the scale of a full-size one (1 at 512, 408/512 for iMessage).
        #expect(CanvasRule.square(512).placement(width: 72, height: 60, fullSize: 512) == CanvasPlacement(canvasWidth: 512, canvasHeight: 512, width: 72, height: 60))
        #expect(CanvasRule.square(408).placement(width: 72, height: 60, fullSize: 512) == CanvasPlacement(canvasWidth: 408, canvasHeight: 408, width: 57, height: 48))
        #expect(CanvasRule.square(512).placement(width: 72, height: 60, fullSize: 256) == CanvasPlacement(canvasWidth: 512, canvasHeight: 512, width: 144, height: 120))
        // Telegram: one side exactly 512 (padding along the long side), the other as scaled.
        #expect(CanvasRule.longSide(512).placement(width: 72, height: 60, fullSize: 512) == CanvasPlacement(canvasWidth: 512, canvasHeight: 60, width: 72, height: 60))
        #expect(CanvasRule.longSide(512).placement(width: 40, height: 90, fullSize: 512) == CanvasPlacement(canvasWidth: 40, canvasHeight: 512, width: 40, height: 90))
        #expect(CanvasRule.asStored.placement(width: 72, height: 60, fullSize: 512) == nil)
    }

    @Test("every format's pixel rule holds for a tiny source's sticker, padded at the pack's scale", arguments: StoreKind.allCases)
    func everyFormat(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            let sticker = try Self.iconSticker()
            #expect((sticker.width, sticker.height) == (70, 70))
            let png = try PNGCodec.encode(sticker)
            var ids: [Int64] = []
            for seed in 0..<3 { ids.append(try await record(repository, png: png, width: 70, height: 70, seed: seed)) }
            _ = try await repository.createPack(name: "icons", title: "Icons", author: "Ana")
            _ = try await repository.addToPack("icons", ids: ids, emoji: "🔵")
            let source = try await repository.packSource(named: "icons")
            #expect(source.items.map(\.fullSize) == [512, 512, 512])

            let stored = try #require(visibleBox(sticker))
            // format, iMessage size, the file's pixel size, the scale of the visible sticker on it.
            let expectations: [(ExportFormat, Int, (Int, Int), Double)] = [
                (.telegram, 408, (512, 70), 1), (.whatsapp, 408, (512, 512), 1), (.signal, 408, (512, 512), 1),
                (.imessage, 300, (300, 300), 300.0 / 512), (.imessage, 408, (408, 408), 408.0 / 512), (.imessage, 618, (618, 618), 618.0 / 512),
                (.png, 408, (70, 70), 1),
            ]
            for (format, iMessageSize, size, scale) in expectations {
                let options = ExportOptions(format: format, outputDirectory: directory.appending(path: "out-\(format)-\(iMessageSize)"), iMessageSize: iMessageSize)
                let report = try await Exporter(options: options).run(source)
                #expect(report.ok, "\(format)")
                let fits = report.parts[0].files.filter { $0.id != nil }
                #expect(fits.count == 3)
                for fit in fits {
                    #expect((fit.width, fit.height) == size, "\(format) \(iMessageSize): \(fit.width)x\(fit.height)")
                }
                let files = try exportedFiles(at: URL(fileURLWithPath: report.parts[0].path))
                let image = try decoded(try #require(files[fits[0].file], "\(format): \(fits[0].file)"))
                #expect((image.width, image.height) == size, "\(format)")
                let box = try #require(visibleBox(image))
                let expected = Double(stored.width) * scale
                #expect(abs(Double(box.width) - expected) <= 2 && abs(Double(box.height) - expected) <= 2,
                        "\(format) \(iMessageSize): visible \(box.width)x\(box.height), \(expected) expected (stored \(stored.width)x\(stored.height))")
                #expect(abs(box.x - (image.width - box.width) / 2) <= 1 && abs(box.y - (image.height - box.height) / 2) <= 1, "\(format): centred")
            }
        }
    }

    @Test("a preview shows a small sticker at its pack's scale, not blown up to the cell")
    func preview() throws {
        let sticker = try Self.iconSticker()
        let padded = PreviewSheet.atFullSize(sticker, fullSize: 512)
        #expect((padded.width, padded.height) == (512, 70))
        #expect(padded.pixel(x: 256, y: 35) == sticker.pixel(x: 35, y: 35))
        #expect(PreviewSheet.atFullSize(sticker, fullSize: nil).pixels == sticker.pixels)
        #expect(PreviewSheet.atFullSize(sticker, fullSize: 70).pixels == sticker.pixels)
    }
}
