import BenchSupport
import Catalog
import Foundation
import Processing

/// `search-bench CATALOG [--count N] [--runs R]`: fills CATALOG (a SQLite file; a `postgres://` address is
/// filled beforehand, by Benchmarks/postgres/run.sh) when it does not hold N stickers yet, with N synthetic
/// stickers of 5 palette colours each, through `CatalogStore.recordProcessed(batch:)`, then times `search`
/// (SQLite's R*Tree, PostgreSQL's cube index) and `searchByFullScan` in this process on the same queries, and
/// prints one JSON object with the figures. Used by Benchmarks/search/run.sh, which adds the
/// whole-process timings of the `catalog` binary.
var count = 1_000_000
var runs = 15
var path: String?
// `--only NAME`: that query alone, `--no-scan`: without the full scans, `--no-compare`: without the
// searches before (the R*Tree's, `palette_cell` row by row); the last two for profiling the search.
var only: String?
var scan = true
var compare = true
var remaining = CommandLine.arguments.dropFirst()[...]
while let argument = remaining.popFirst() {
    switch argument {
    case "--count": count = Int(remaining.popFirst() ?? "") ?? count
    case "--runs": runs = Int(remaining.popFirst() ?? "") ?? runs
    case "--only": only = remaining.popFirst()
    case "--no-scan": scan = false
    case "--no-compare": compare = false
    case "-h", "--help": path = nil; remaining = []
    default:
        // An unknown option is a mistake, not a catalog to fill with a million stickers.
        if argument.hasPrefix("-") { path = nil; remaining = [] } else { path = argument }
    }
}
guard let path else {
    try? FileHandle.standardError.write(contentsOf: Data(
        "usage: search-bench CATALOG [--count N] [--runs R] [--only NAME] [--no-scan] [--no-compare]\n".utf8))
    exit(64)
}

let cameras = [("Canon", "EOS R5"), ("NIKON CORPORATION", "NIKON Z 6"), ("FUJIFILM", "X100V"), ("Apple", "iPhone 15"), ("SONY", "ILCE-7M4")]
let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

/// Sticker `index`: 5 random sRGB colours (shares from sorted random weights), a camera, a date in 2020-2025.
func synthetic(_ index: Int, _ random: inout BenchGenerator) -> ProcessedEntry {
    var weights = (0..<5).map { _ in random.unit() + 0.02 }
    let total = weights.reduce(0, +)
    weights = weights.map { $0 / total }.sorted(by: >)
    let colors = weights.map { share in
        let srgb = SRGBColor(red: UInt8(random.unit() * 255.999), green: UInt8(random.unit() * 255.999), blue: UInt8(random.unit() * 255.999))
        let lab = srgb.oklab
        return PaletteColor(hex: srgb.hex, l: lab.l, a: lab.a, b: lab.b, share: share)
    }
    let camera = cameras[index % cameras.count]
    let day = Int(random.unit() * 365 * 6)
    let taken = String(format: "%04d-%02d-%02dT12:00:00", 2020 + day / 365, 1 + (day % 365) / 31 % 12, 1 + day % 28)
    let exif = ExifMetadata(
        make: camera.0, model: camera.1, lensModel: nil, takenAt: taken, exposureTime: nil, fNumber: nil, iso: nil,
        focalLength: nil, orientation: nil, gpsLatitude: nil, gpsLongitude: nil, gpsAltitude: nil, tags: [:]
    )
    let photo = ProcessedPhoto(
        format: .jpeg, width: 4000, height: 3000, exif: exif,
        sticker: StickerImage(png: png, width: 512, height: 384),
        palette: Palette(colors: colors), pipelineVersion: PhotoProcessor.pipelineVersion, settings: .default
    )
    return ProcessedEntry(
        photo: photo, sha256: String(format: "%064x", index + 1),
        source: SourceFile(path: "/synthetic/\(index / 1000)/sticker-\(index).jpg", size: 3_000_000, modificationTime: 1_700_000_000)
    )
}

struct Report: Encodable {
    var stickers = 0
    var colors = 0
    var fillSeconds: Double?
    var fillStickersPerSecond: Double?
    var fileBytes: Int64 = 0
    var fileBytesPerMillion: Double = 0
    var tableBytes: [String: Int64] = [:]
    var queries: [Query] = []

    struct Query: Encodable {
        var name: String
        var arguments: String
        var results: Int
        var indexP50Ms: Double
        var indexP95Ms: Double
        var indexCpuP50Ms: Double
        var fullScanP50Ms: Double
        var speedup: Double
        var sameResults: Bool
        /// With several colours, the same search following the R*Tree for the rarest colour (the search
        /// before `palette_cell`), timed in the same run.
        var rarestColorP50Ms: Double?
        var rarestColorCpuP50Ms: Double?
        var rarestColorSameResults: Bool?
        /// With several colours, the same search reading `palette_cell` row by row instead of
        /// `palette_pack` (the search before the pack), timed in the same runs, alternating with it.
        var cellRowsP50Ms: Double?
        var cellRowsP95Ms: Double?
        var cellRowsCpuP50Ms: Double?
        var cellRowsSameResults: Bool?
    }
}

do {
    var report = Report()
    // A file is the SQLite back end (its R*Tree is what is measured); a postgres:// address the PostgreSQL one
    // (its cube GiST index), filled beforehand by Benchmarks/postgres/run.sh.
    let location = CatalogEnvironment(ProcessInfo.processInfo.environment).catalogAddress(explicitPath: path)
    let repository = try await CatalogStores.open(location, access: .readWrite)
    let present = try await repository.stats().ok
    if present != count {
        guard present < count else {
            try? FileHandle.standardError.write(contentsOf: Data("search-bench: \(path) holds \(present) stickers, not \(count): remove it first\n".utf8))
            exit(65)
        }
        // An interrupted fill resumes: the generator is replayed over the stickers already there.
        var random = BenchGenerator()
        for index in 0..<present { _ = synthetic(index, &random) }
        let start = BenchClock.wallSeconds()
        let batchSize = 20_000
        for batchStart in stride(from: present, to: count, by: batchSize) {
            let batch = (batchStart..<min(count, batchStart + batchSize)).map { synthetic($0, &random) }
            _ = try await repository.recordProcessed(batch: batch)
            try? FileHandle.standardError.write(contentsOf: Data("\rfilled \(batchStart + batch.count)/\(count)".utf8))
        }
        try? FileHandle.standardError.write(contentsOf: Data("\n".utf8))
        report.fillSeconds = BenchClock.wallSeconds() - start
        report.fillStickersPerSecond = Double(count - present) / (report.fillSeconds ?? 1)
    }
    let stats = try await repository.stats()
    report.stickers = stats.ok
    report.colors = stats.paletteColors
    report.fileBytes = stats.fileSize
    report.fileBytesPerMillion = Double(stats.fileSize) / Double(max(stats.ok, 1)) * 1_000_000
    report.tableBytes = try await repository.tableSizes()

    let queries: [(String, String, ColorQuery)] = [
        ("orange", "--color orange", ColorQuery(colors: [ColorName.parse("orange")!.oklab])),
        ("teal", "--color teal", ColorQuery(colors: [ColorName.parse("teal")!.oklab])),
        ("#ff8800 within 6", "--color '#ff8800' --within 6", ColorQuery(colors: [ColorName.parse("#ff8800")!.oklab], within: 6)),
        ("grey", "--color grey", ColorQuery(colors: [ColorName.parse("grey")!.oklab])),
        ("orange + navy", "--color orange --color navy", ColorQuery(colors: [ColorName.parse("orange")!.oklab, ColorName.parse("navy")!.oklab])),
        ("orange + navy + grey", "--color orange --color navy --color grey",
         ColorQuery(colors: ["orange", "navy", "grey"].map { ColorName.parse($0)!.oklab })),
        ("orange, Canon, 2024", "--color orange --camera canon --taken-after 2024-01-01",
         ColorQuery(colors: [ColorName.parse("orange")!.oklab], camera: "canon", takenAfter: "2024-01-01")),
    ]
    for (name, arguments, query) in queries where only == nil || only == name {
        var wall: [Double] = []
        var cpu: [Double] = []
        var results: [ColorSearchResult] = []
        var rowsWall: [Double] = []
        var rowsCPU: [Double] = []
        var rows: [ColorSearchResult] = []
        let sqliteStore = compare ? repository as? SQLiteCatalogStore : nil
        _ = try await repository.search(query)  // warm the page cache once
        _ = try sqliteStore?.searchReadingCellRows(query)
        for _ in 0..<runs {
            let start = BenchClock.wallSeconds(), startCPU = BenchClock.cpuSeconds()
            results = try await repository.search(query)
            wall.append((BenchClock.wallSeconds() - start) * 1000)
            cpu.append((BenchClock.cpuSeconds() - startCPU) * 1000)
            if let sqliteStore, query.colors.count > 1 {
                let start = BenchClock.wallSeconds(), startCPU = BenchClock.cpuSeconds()
                rows = try sqliteStore.searchReadingCellRows(query)
                rowsWall.append((BenchClock.wallSeconds() - start) * 1000)
                rowsCPU.append((BenchClock.cpuSeconds() - startCPU) * 1000)
            }
        }
        var rarestWall: [Double] = []
        var rarestCPU: [Double] = []
        var rarest: [ColorSearchResult] = []
        // The R*Tree walk the several-colour search is compared with exists in the SQLite back end only.
        if compare, let sqlite = repository as? SQLiteCatalogStore, query.colors.count > 1 {
            for _ in 0..<runs {
                let start = BenchClock.wallSeconds(), startCPU = BenchClock.cpuSeconds()
                rarest = try sqlite.searchFollowingRarestColor(query)
                rarestWall.append((BenchClock.wallSeconds() - start) * 1000)
                rarestCPU.append((BenchClock.cpuSeconds() - startCPU) * 1000)
            }
        }
        var scans: [Double] = []
        var scanned: [ColorSearchResult] = []
        for _ in 0..<(scan ? 3 : 0) {
            let start = BenchClock.wallSeconds()
            scanned = try await repository.searchByFullScan(query)
            scans.append((BenchClock.wallSeconds() - start) * 1000)
        }
        let line = Report.Query(
            name: name, arguments: arguments, results: results.count,
            indexP50Ms: percentile(wall, 0.5), indexP95Ms: percentile(wall, 0.95), indexCpuP50Ms: percentile(cpu, 0.5),
            fullScanP50Ms: percentile(scans, 0.5), speedup: percentile(scans, 0.5) / percentile(wall, 0.5),
            sameResults: results == scanned,
            rarestColorP50Ms: rarestWall.isEmpty ? nil : percentile(rarestWall, 0.5),
            rarestColorCpuP50Ms: rarestCPU.isEmpty ? nil : percentile(rarestCPU, 0.5),
            rarestColorSameResults: rarestWall.isEmpty ? nil : rarest == results,
            cellRowsP50Ms: rowsWall.isEmpty ? nil : percentile(rowsWall, 0.5),
            cellRowsP95Ms: rowsWall.isEmpty ? nil : percentile(rowsWall, 0.95),
            cellRowsCpuP50Ms: rowsCPU.isEmpty ? nil : percentile(rowsCPU, 0.5),
            cellRowsSameResults: rowsWall.isEmpty ? nil : rows == results
        )
        try? FileHandle.standardError.write(contentsOf: Data(String(format: "%-22@ index p50 %7.2f ms p95 %7.2f ms (cpu p50 %6.2f)  full scan %8.1f ms  %6.0fx  same=%@\n",
                                                    name, line.indexP50Ms, line.indexP95Ms, line.indexCpuP50Ms, line.fullScanP50Ms, line.speedup, line.sameResults ? "yes" : "NO").utf8))
        if let p50 = line.rarestColorP50Ms, let cpu = line.rarestColorCpuP50Ms {
            try? FileHandle.standardError.write(contentsOf: Data(String(format: "%-22@ following the rarest colour: p50 %7.2f ms (cpu p50 %6.2f)  same=%@\n",
                                                        name, p50, cpu, line.rarestColorSameResults == true ? "yes" : "NO").utf8))
        }
        if let p50 = line.cellRowsP50Ms, let p95 = line.cellRowsP95Ms, let cpu = line.cellRowsCpuP50Ms {
            try? FileHandle.standardError.write(contentsOf: Data(String(format: "%-22@ palette_cell rows:   p50 %7.2f ms p95 %7.2f ms (cpu p50 %6.2f)  same=%@\n",
                                                        name, p50, p95, cpu, line.cellRowsSameResults == true ? "yes" : "NO").utf8))
        }
        report.queries.append(line)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(report), as: UTF8.self))
} catch {
    try? FileHandle.standardError.write(contentsOf: Data("search-bench: \(error)\n".utf8))
    exit(74)
}
