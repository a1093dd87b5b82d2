import Foundation
import Processing

@testable import Catalog

/// A sticker-like PNG: a coloured disc with a gradient on transparency, distinct for each `seed`.
func stickerPNG(width: Int = 160, height: Int = 120, seed: Int) throws -> [UInt8] {
    var image = RGBAImage(width: width, height: height, red: 0, green: 0, blue: 0, alpha: 0)
    let cx = Double(width) / 2, cy = Double(height) / 2, radius = Double(min(width, height)) * 0.45
    for y in 0..<height {
        for x in 0..<width {
            let dx = Double(x) - cx, dy = Double(y) - cy
            guard dx * dx + dy * dy < radius * radius else { continue }
            let offset = (y * width + x) * 4
            image.pixels[offset] = UInt8(truncatingIfNeeded: seed * 37 + x)
            image.pixels[offset + 1] = UInt8(truncatingIfNeeded: seed * 91 + y)
            image.pixels[offset + 2] = UInt8(truncatingIfNeeded: 200 - seed * 13)
            image.pixels[offset + 3] = 255
        }
    }
    return try PNGCodec.encode(image)
}

/// Deterministic noise as an opaque PNG: incompressible, for byte limits nothing can meet.
func noisePNG(width: Int, height: Int, seed: UInt64) throws -> [UInt8] {
    var state = seed
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for index in pixels.indices where index % 4 != 3 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        pixels[index] = UInt8(truncatingIfNeeded: state >> 33)
    }
    return try PNGCodec.encode(RGBAImage(width: width, height: height, pixels: pixels))
}

/// Records `count` stickers (ids 1...count in a new catalog) and returns their ids.
@discardableResult
func addStickers(_ repository: any CatalogStore, count: Int, firstSeed: Int = 0, width: Int = 160, height: Int = 120) async throws -> [Int64] {
    var ids: [Int64] = []
    for index in 0..<count {
        let seed = firstSeed + index
        let png = try stickerPNG(width: width, height: height, seed: seed)
        ids.append(try await record(repository, png: png, width: width, height: height, seed: seed))
    }
    return ids
}

/// Records one sticker with these PNG bytes; the palette has two colours for even seeds, none for odd.
func record(_ repository: any CatalogStore, png: [UInt8], width: Int, height: Int, seed: Int) async throws -> Int64 {
    let palette = seed % 2 == 0
        ? Palette(colors: [
            PaletteColor(hex: "#ff8800", l: 0.75, a: 0.125, b: 0.15, share: 0.6),
            PaletteColor(hex: "#0044cc", l: 0.4, a: -0.05, b: -0.2, share: 0.4),
        ])
        : Palette()
    let photo = ProcessedPhoto(
        format: .jpeg, width: 4000, height: 3000, exif: sampleExif,
        sticker: StickerImage(png: png, width: width, height: height), palette: palette,
        pipelineVersion: 1, settings: StickerSettings(size: 512, paletteColors: 2)
    )
    switch try await repository.recordProcessed(photo, sha256: sha(10_000 + seed), source: source("/photos/\(seed).jpg")) {
    case .imported(let id), .duplicate(let id, _): return id
    case .failed(let id): return id
    }
}

/// A new read-write catalog of `kind` for a test that works in `directory`.
func newCatalog(_ kind: StoreKind, _ directory: URL) async throws -> any CatalogStore {
    try await openStore(kind, in: directory, name: "catalog")
}
