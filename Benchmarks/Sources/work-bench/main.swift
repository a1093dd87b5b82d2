import BenchSupport
import Catalog
import Foundation
import Processing

/// `work-bench ADDRESS [--count N] [--sticker-kb K] [--claim-apart]`: what the shared work queue itself costs a
/// photo, with no photo work at all. Enqueues N synthetic files into the catalog at ADDRESS (a new SQLite file
/// or an empty PostgreSQL database), then claims and commits them one at a time through ``CatalogStore``, as
/// `catalog work --jobs 1` does (each commit claims the next file; with `--claim-apart`, each claim is a call
/// of its own, as before that), each with a ready-made result: a sticker of K KB of incompressible bytes
/// (real stickers are PNGs of about that size), 5 palette colours, EXIF. Prints one JSON object: wall time of
/// the claims made apart and of the commits (p50, p95), of claim + commit a photo (p50, mean), this
/// process's CPU time per photo, commits/s. Used by Benchmarks/postgres/run.sh, which adds the PostgreSQL
/// server's CPU time.
var count = 2_000
var stickerKB = 200
var address: String?
var claimApart = false
var remaining = CommandLine.arguments.dropFirst()[...]
while let argument = remaining.popFirst() {
    switch argument {
    case "--count": count = Int(remaining.popFirst() ?? "") ?? count
    case "--sticker-kb": stickerKB = Int(remaining.popFirst() ?? "") ?? stickerKB
    case "--claim-apart": claimApart = true
    default: address = argument
    }
}
guard let address, count > 0, stickerKB > 0 else {
    try? FileHandle.standardError.write(contentsOf: Data("usage: work-bench ADDRESS [--count N] [--sticker-kb K] [--claim-apart]\n".utf8))
    exit(64)
}

/// The result a worker would commit for file `index`: its own sticker bytes (so no two share a hash or
/// compress), 5 colours, a camera and a date.
func result(_ index: Int, stickerBytes: Int, source: SourceFile, _ random: inout BenchGenerator) -> WorkResult {
    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    png.reserveCapacity(stickerBytes)
    while png.count < stickerBytes { withUnsafeBytes(of: random.next()) { png.append(contentsOf: $0) } }
    var weights = (0..<5).map { _ in random.unit() + 0.02 }
    let total = weights.reduce(0, +)
    weights = weights.map { $0 / total }.sorted(by: >)
    let colors = weights.map { share in
        let srgb = SRGBColor(red: UInt8(random.unit() * 255.999), green: UInt8(random.unit() * 255.999), blue: UInt8(random.unit() * 255.999))
        let lab = srgb.oklab
        return PaletteColor(hex: srgb.hex, l: lab.l, a: lab.a, b: lab.b, share: share)
    }
    let exif = ExifMetadata(
        make: "Canon", model: "EOS R5", lensModel: nil, takenAt: "2024-05-01T12:00:00", exposureTime: 0.004, fNumber: 8, iso: 200,
        focalLength: 50, orientation: 1, gpsLatitude: nil, gpsLongitude: nil, gpsAltitude: nil, tags: [:]
    )
    let photo = ProcessedPhoto(
        format: .jpeg, width: 4000, height: 3000, exif: exif,
        sticker: StickerImage(png: png, width: 512, height: 384),
        palette: Palette(colors: colors), pipelineVersion: PhotoProcessor.pipelineVersion, settings: .default
    )
    return .processed(photo, sha256: String(format: "%064x", index + 1), source: source)
}

struct Report: Encodable {
    var backend = ""
    var photos = 0
    var stickerKB = 0
    var claimApart = false
    var enqueueSeconds = 0.0
    var claimP50Ms = 0.0
    var claimP95Ms = 0.0
    var commitP50Ms = 0.0
    var commitP95Ms = 0.0
    var perPhotoP50Ms = 0.0
    var perPhotoMeanMs = 0.0
    var clientCpuPerPhotoMs = 0.0
    var commitsPerSecond = 0.0
    var failures = 0
}

do {
    let location = CatalogEnvironment(ProcessInfo.processInfo.environment).catalogAddress(explicitPath: address)
    let repository = try await CatalogStores.open(location, access: .readWrite)
    var report = Report()
    if case .postgres = location { report.backend = "postgres" } else { report.backend = "sqlite" }
    report.photos = count
    report.stickerKB = stickerKB
    report.claimApart = claimApart
    guard try await repository.stats().total == 0, try await repository.workStatus().isDrained else {
        try? FileHandle.standardError.write(contentsOf: Data("work-bench: \(address) is not an empty catalog\n".utf8))
        exit(65)
    }
    let files = (0..<count).map { SourceFile(path: "/bench/queue/\($0 / 1000)/photo-\($0).jpg", size: 3_000_000, modificationTime: 1_700_000_000) }
    var start = BenchClock.wallSeconds()
    for batch in stride(from: 0, to: count, by: 2_000) {
        _ = try await repository.enqueue(Array(files[batch..<min(count, batch + 2_000)]))
    }
    report.enqueueSeconds = BenchClock.wallSeconds() - start

    let holder = "work-bench:\(getpid())"
    var random = BenchGenerator()
    var claims: [Double] = []
    var commits: [Double] = []
    var perPhoto: [Double] = []
    start = BenchClock.wallSeconds()
    let startCPU = BenchClock.cpuSeconds()
    var index = 0
    var makingCPU = 0.0
    var next: WorkClaim?
    var claimMs = 0.0
    while true {
        if next == nil {
            let claimStart = BenchClock.wallSeconds()
            next = try await repository.claimWork(limit: 1, holder: holder, lease: .seconds(60)).first
            claimMs = (BenchClock.wallSeconds() - claimStart) * 1000
            claims.append(claimMs)
        }
        guard let claim = next else { break }
        // The result is made outside the timed commit: in a worker it is the photo work.
        let makeStart = BenchClock.cpuSeconds()
        let made = result(index, stickerBytes: stickerKB * 1024, source: claim.source, &random)
        makingCPU += BenchClock.cpuSeconds() - makeStart
        index += 1
        let commitStart = BenchClock.wallSeconds()
        let (commit, claimed) = try await repository.completeWork(
            claim, holder: holder, with: made, claimingNext: claimApart ? 0 : 1, lease: .seconds(60))
        if case .fenced = commit { report.failures += 1 }
        let commitMs = (BenchClock.wallSeconds() - commitStart) * 1000
        commits.append(commitMs)
        perPhoto.append(claimMs + commitMs)
        claimMs = 0
        next = claimed.first
    }
    let wall = BenchClock.wallSeconds() - start - makingCPU
    report.claimP50Ms = percentile(claims, 0.5)
    report.claimP95Ms = percentile(claims, 0.95)
    report.commitP50Ms = percentile(commits, 0.5)
    report.commitP95Ms = percentile(commits, 0.95)
    report.perPhotoP50Ms = percentile(perPhoto, 0.5)
    report.perPhotoMeanMs = (claims.reduce(0, +) + commits.reduce(0, +)) / Double(max(index, 1))
    report.clientCpuPerPhotoMs = (BenchClock.cpuSeconds() - startCPU - makingCPU) * 1000 / Double(max(index, 1))
    report.commitsPerSecond = Double(index) / wall
    if index != count { report.failures += count - index }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(report), as: UTF8.self))
} catch {
    try? FileHandle.standardError.write(contentsOf: Data("work-bench: \(error)\n".utf8))
    exit(74)
}
