import BenchSupport
import Catalog
import Foundation
import Processing
import SampleImages

/// `duplicates-bench CATALOG [--count N] [--runs R]`: fills CATALOG (a SQLite file, or a `postgres://`
/// address) when it does not hold N stickers yet, with N synthetic stickers whose similarity signatures
/// are random, but for one in 50, which is a copy of an earlier sticker (a few bits of each hash flipped,
/// the same colour), so that groups exist; then times, in this process, R near-duplicate lookups
/// (`nearDuplicates`, through the quarter indexes) for copies and for new random signatures, and one
/// whole grouping (`DuplicateFinder.groups`), and prints one JSON object with the figures.
///
/// `duplicates-bench --recall CORPUS MODEL_DIR [MODEL]`: scores the near-duplicate test set
/// (`NearDuplicateSet.standard`, made from the corpus fetch script's folder) cut out by MODEL (u2net or
/// u2netp, default u2net) at every distance from 4 to 12: the copies found and the distinct pairs grouped.
if CommandLine.arguments.count >= 4, CommandLine.arguments[1] == "--recall" {
    let corpus = URL(fileURLWithPath: CommandLine.arguments[2]), folder = URL(fileURLWithPath: CommandLine.arguments[3])
    let model = CutoutModel(rawValue: CommandLine.arguments.count > 4 ? CommandLine.arguments[4] : "u2net") ?? .u2net
    do {
        let processor = PhotoProcessor(predictor: try NetworkMaskPredictor.installed(model, in: folder))
        let set = try NearDuplicateSet.standard(corpus: corpus)
        var signatures: [(group: Int, change: String, signature: SimilaritySignature)] = []
        let start = BenchClock.wallSeconds()
        for photo in set.photos {
            let processed = try await processor.process(photo.bytes)
            signatures.append((photo.group, photo.change, processed.signature!))
        }
        print("near-duplicate set, \(model.rawValue): \(set.photos.count) photos in \(Set(set.photos.map(\.group)).count) groups, "
              + String(format: "processed in %.0f s", BenchClock.wallSeconds() - start))
        for within in 4...12 {
            let score = NearDuplicateScore(signatures, within: within)
            print(within == SimilaritySignature.defaultWithin ? "\(score) (the default)" : "\(score)".split(separator: "\n").last!)
        }
    } catch {
        try? FileHandle.standardError.write(contentsOf: Data("duplicates-bench: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

var count = 1_000_000
var runs = 200
var path: String?
var remaining = CommandLine.arguments.dropFirst()[...]
while let argument = remaining.popFirst() {
    switch argument {
    case "--count": count = Int(remaining.popFirst() ?? "") ?? count
    case "--runs": runs = Int(remaining.popFirst() ?? "") ?? runs
    default:
        if argument.hasPrefix("-") { path = nil; remaining = [] } else { path = argument }
    }
}
guard let path else {
    try? FileHandle.standardError.write(contentsOf: Data("usage: duplicates-bench CATALOG [--count N] [--runs R]\n".utf8))
    exit(64)
}

let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

/// A hash with `bits` random bits of `hash` flipped.
func flipped(_ hash: PerceptualHash, bits: Int, _ random: inout BenchGenerator) -> PerceptualHash {
    var value = hash.bits
    for _ in 0..<bits { value ^= 1 << (random.next() % 64) }
    return PerceptualHash(bits: value)
}

func randomSignature(_ random: inout BenchGenerator) -> SimilaritySignature {
    SimilaritySignature(
        photo: PerceptualHash(bits: random.next()), surroundings: PerceptualHash(bits: random.next()),
        subject: PerceptualHash(bits: random.next()), sharpness: random.unit() * 40,
        color: OklabColor(l: random.unit(), a: random.unit() - 0.5, b: random.unit() - 0.5))
}

/// A copy of `signature`: up to 3 bits of each hash flipped, the same colour.
func copy(of signature: SimilaritySignature, _ random: inout BenchGenerator) -> SimilaritySignature {
    var copy = signature
    copy.photo = flipped(signature.photo, bits: Int(random.next() % 4), &random)
    copy.surroundings = flipped(signature.surroundings, bits: Int(random.next() % 4), &random)
    copy.subject = flipped(signature.subject, bits: Int(random.next() % 4), &random)
    return copy
}

/// Sticker `index`'s signature: every 50th copies the one 49 before it.
func signatures(upTo count: Int) -> [SimilaritySignature] {
    var random = BenchGenerator()
    var result: [SimilaritySignature] = []
    result.reserveCapacity(count)
    for index in 0..<count {
        result.append(index % 50 == 49 ? copy(of: result[index - 49], &random) : randomSignature(&random))
    }
    return result
}

func entry(_ index: Int, _ signature: SimilaritySignature) -> ProcessedEntry {
    let color = PaletteColor(hex: "#808080", l: signature.color.l, a: signature.color.a, b: signature.color.b, share: 1)
    let photo = ProcessedPhoto(
        format: .jpeg, width: 4000, height: 3000, exif: nil, sticker: StickerImage(png: png, width: 512, height: 384),
        palette: Palette(colors: [color]), pipelineVersion: PhotoProcessor.pipelineVersion, settings: .default, signature: signature)
    return ProcessedEntry(
        photo: photo, sha256: String(format: "%064x", index + 1),
        source: SourceFile(path: "/synthetic/\(index / 1000)/photo-\(index).jpg", size: 3_000_000, modificationTime: 1_700_000_000))
}

struct Report: Encodable {
    /// Making one signature from a working-size photo (1024 x 768) and its cut-out.
    var signatureP50Ms = 0.0
    var signatureP95Ms = 0.0
    var stickers = 0
    var fillSeconds: Double?
    var fileBytes: Int64 = 0
    var tableBytes: [String: Int64] = [:]
    var within = SimilaritySignature.defaultWithin
    var copyLookupP50Ms = 0.0
    var copyLookupP95Ms = 0.0
    var copiesFound = 0
    var copyLookups = 0
    var newLookupP50Ms = 0.0
    var newLookupP95Ms = 0.0
    var groupingSeconds = 0.0
    var groupingCpuSeconds = 0.0
    var groups = 0
    var groupedEntries = 0
}

/// The signature's cost on a working-size photo: a noisy scene with a disc cut out of it.
func signatureTimes(runs: Int) -> [Double] {
    var random = BenchGenerator()
    let width = 1024, height = 768
    var photo = [UInt8](repeating: 255, count: width * height * 4)
    var cutout = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let index = (y * width + x) * 4
            for channel in 0..<3 { photo[index + channel] = UInt8(truncatingIfNeeded: random.next()) }
            let dx = x - 500, dy = y - 400
            if dx * dx + dy * dy < 250 * 250 {
                for channel in 0..<4 { cutout[index + channel] = photo[index + channel] }
                cutout[index + 3] = 255
            }
        }
    }
    let image = RGBAImage(width: width, height: height, pixels: photo), subject = RGBAImage(width: width, height: height, pixels: cutout)
    return (0..<runs).map { _ in
        let start = BenchClock.wallSeconds()
        _ = SimilaritySignature.of(photo: image, cutout: subject)
        return (BenchClock.wallSeconds() - start) * 1000
    }
}

do {
    var report = Report()
    let times = signatureTimes(runs: 50)
    report.signatureP50Ms = percentile(times, 0.5)
    report.signatureP95Ms = percentile(times, 0.95)
    let location = CatalogEnvironment(ProcessInfo.processInfo.environment).catalogAddress(explicitPath: path)
    let repository = try await CatalogStores.open(location, access: .readWrite)
    let all = signatures(upTo: count)
    let present = try await repository.stats().ok
    if present != count {
        guard present < count else {
            try? FileHandle.standardError.write(contentsOf: Data("duplicates-bench: \(path) holds \(present) stickers, not \(count): remove it first\n".utf8))
            exit(65)
        }
        let start = BenchClock.wallSeconds()
        for batchStart in stride(from: present, to: count, by: 20_000) {
            let batch = (batchStart..<min(count, batchStart + 20_000)).map { entry($0, all[$0]) }
            _ = try await repository.recordProcessed(batch: batch)
            try? FileHandle.standardError.write(contentsOf: Data("\rfilled \(batchStart + batch.count)/\(count)".utf8))
        }
        try? FileHandle.standardError.write(contentsOf: Data("\n".utf8))
        report.fillSeconds = BenchClock.wallSeconds() - start
    }
    let stats = try await repository.stats()
    report.stickers = stats.ok
    report.fileBytes = stats.fileSize
    report.tableBytes = try await repository.tableSizes()

    // Lookups of planted copies (each must find its original) and of new random signatures.
    var random = BenchGenerator()
    for _ in 0..<1000 { _ = random.next() }
    var copyTimes: [Double] = [], newTimes: [Double] = []
    for run in 0..<runs {
        let original = Int(random.next() % UInt64(count - 50)) / 50 * 50
        let query = copy(of: all[original], &random)
        var start = BenchClock.wallSeconds()
        let found = try await repository.nearDuplicates(of: query, within: report.within, excluding: nil)
        copyTimes.append((BenchClock.wallSeconds() - start) * 1000)
        report.copyLookups += 1
        if found.contains(where: { $0.id == Int64(original + 1) }) { report.copiesFound += 1 }
        let fresh = randomSignature(&random)
        start = BenchClock.wallSeconds()
        _ = try await repository.nearDuplicates(of: fresh, within: report.within, excluding: nil)
        newTimes.append((BenchClock.wallSeconds() - start) * 1000)
        if run == 0 { copyTimes.removeAll(); newTimes.removeAll(); report.copyLookups = 0; report.copiesFound = 0 }  // warm-up
    }
    report.copyLookupP50Ms = percentile(copyTimes, 0.5)
    report.copyLookupP95Ms = percentile(copyTimes, 0.95)
    report.newLookupP50Ms = percentile(newTimes, 0.5)
    report.newLookupP95Ms = percentile(newTimes, 0.95)

    let wall = BenchClock.wallSeconds(), cpu = BenchClock.cpuSeconds()
    let groups = try await DuplicateFinder(store: repository).groups()
    report.groupingSeconds = BenchClock.wallSeconds() - wall
    report.groupingCpuSeconds = BenchClock.cpuSeconds() - cpu
    report.groups = groups.count
    report.groupedEntries = groups.reduce(0) { $0 + $1.members.count }

    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    FileHandle.standardOutput.write(try encoder.encode(report))
    FileHandle.standardOutput.write(Data("\n".utf8))
} catch {
    try? FileHandle.standardError.write(contentsOf: Data("duplicates-bench: \(error)\n".utf8))
    exit(1)
}
