import Foundation
import PostgresTestSupport
import Processing
import Testing

@testable import Catalog

/// Colour search on PostgreSQL (range queries on the cube GiST index of colour and share) gives the SQLite catalog's results for the
/// same content: the same entries, in the same order, ΔE and scores to 0.1.
@Suite(.enabled(if: TestPostgresServer.isAvailable, "PostgreSQL is not installed (make test installs it)"), .timeLimit(.minutes(15)))
struct PostgresSearchParityTests {
    /// A deterministic generator, so a failure can be replayed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A processed photo with `count` random palette colours (shares summing to at most 1), some EXIF.
    private func randomPhoto(_ random: inout SplitMix, index: Int) -> ProcessedPhoto {
        let count = Int.random(in: 1...5, using: &random)
        var remaining = 1.0
        var colors: [PaletteColor] = []
        for _ in 0..<count {
            let rgb = (0..<3).map { _ in Int.random(in: 0...255, using: &random) }
            let hex = String(format: "#%02x%02x%02x", rgb[0], rgb[1], rgb[2])
            let lab = ColorName.parse(hex)!.oklab
            let share = max(0.01, (remaining * Double.random(in: 0.3...0.9, using: &random) * 100).rounded() / 100)
            remaining = max(0.01, remaining - share)
            colors.append(PaletteColor(hex: hex, l: lab.l, a: lab.a, b: lab.b, share: share))
        }
        let exif = index % 3 == 0 ? nil : ExifMetadata(
            make: index % 2 == 0 ? "Canon" : "Nikon", model: "M\(index % 5)", lensModel: nil,
            takenAt: String(format: "2024-%02d-10T12:00:00Z", index % 12 + 1), exposureTime: nil, fNumber: nil, iso: nil,
            focalLength: nil, orientation: nil, gpsLatitude: nil, gpsLongitude: nil, gpsAltitude: nil, tags: [:])
        return ProcessedPhoto(
            format: .png, width: 10, height: 10, exif: exif,
            sticker: StickerImage(png: [0x89, 0x50, 0x4E, 0x47], width: 10, height: 10),
            palette: Palette(colors: colors), pipelineVersion: 0, settings: .default)
    }

    @Test func sameResultsAsSQLite() async throws {
        let server = try TestPostgresServer.server
        let name = try await server.makeDatabase()
        let postgres = try await PostgresCatalogStore.open(
            address: PostgresAddress(parsing: server.address(database: name)), access: .readWrite, environment: [:])
        try await withTemporaryDirectory { directory in
            let sqlite = try await CatalogStores.open(.sqlite(directory.appending(path: "c.sqlite")), access: .readWrite)
            var random = SplitMix(state: 18)
            for index in 1...400 {
                let photo = randomPhoto(&random, index: index)
                let a = try await sqlite.recordProcessed(photo, sha256: sha(index), source: source("/p/\(index)"))
                let b = try await postgres.recordProcessed(photo, sha256: sha(index), source: source("/p/\(index)"))
                #expect(a == b)
            }
            var queries: [ColorQuery] = []
            for hex in ["#ff8800", "teal", "#ffffff", "#202020", "#3366cc", "#c0ffee"] {
                let color = ColorName.parse(hex)!.oklab
                queries.append(ColorQuery(colors: [color]))
                queries.append(ColorQuery(colors: [color], within: 30, limit: 7))
                queries.append(ColorQuery(colors: [color], within: 25, limit: 50, camera: "canon"))
                queries.append(ColorQuery(colors: [color], within: 40, limit: 20, takenAfter: "2024-03-01", takenBefore: "2024-09-01T00:00:00Z"))
            }
            queries.append(ColorQuery(colors: [ColorName.parse("#ff8800")!.oklab, ColorName.parse("#3366cc")!.oklab], within: 35, limit: 10))
            // Small limits stop at a high score floor, at every reach (narrower and
            // wider than the share axis's scale), with one to three colours.
            for within in [4.0, 12, 60] {
                for limit in [1, 3] {
                    for hexes in [["#ff8800"], ["#808080"], ["#ff8800", "#3366cc"], ["teal", "#ffffff", "#c0ffee"]] {
                        queries.append(ColorQuery(colors: hexes.map { ColorName.parse($0)!.oklab }, within: within, limit: limit))
                    }
                }
            }
            for query in queries {
                let expected = try await sqlite.search(query)
                let indexed = try await postgres.search(query)
                let scanned = try await postgres.searchByFullScan(query)
                for actual in [indexed, scanned] {
                    #expect(actual.map(\.id) == expected.map(\.id), "query \(query)")
                    for (left, right) in zip(actual, expected) {
                        #expect(abs(left.score - right.score) < 1e-9)
                        #expect(left.path == right.path)
                        for (l, r) in zip(left.matches, right.matches) {
                            #expect(l.hex == r.hex)
                            #expect(abs(l.distance - r.distance) < 0.1)
                        }
                    }
                }
            }
        }
        await postgres.close()
    }
}
