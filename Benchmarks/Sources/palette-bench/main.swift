import Foundation
import Processing

/// `palette-bench K FILE.png...`: the palette of each RGBA PNG (a cut-out: transparent outside the
/// subject) at K colours, one JSON object a line: {"file","colors":["#rrggbb"...],"shares":[...],"ms"}.
/// `ms` is the CPU time of PaletteExtractor alone (decoding excluded). Used by Benchmarks/palette/run.sh.
/// `palette-bench --twins K FOLDER`: the palette's stability under lossy re-encoding (``Twins``).
let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--twins" {
    let rest = Array(arguments.dropFirst())
    guard rest.count == 2, let k = Int(rest[0]) else {
        try? FileHandle.standardError.write(contentsOf: Data("usage: palette-bench --twins K FOLDER\n".utf8))
        exit(64)
    }
    do {
        try Twins.run(colors: k, folder: rest[1])
        exit(0)
    } catch {
        try? FileHandle.standardError.write(contentsOf: Data("palette-bench: \(rest[1]): \(error)\n".utf8))
        exit(65)
    }
}
guard let first = arguments.first, let k = Int(first), arguments.count > 1 else {
    try? FileHandle.standardError.write(contentsOf: Data("usage: palette-bench K FILE.png...\n".utf8))
    exit(64)
}

/// CPU time of this process, in milliseconds.
func cpuMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
}

struct Line: Encodable {
    let file: String
    let colors: [String]
    let shares: [Double]
    let ms: Double
}

let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
for file in arguments.dropFirst() {
    do {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let image = try PNGCodec.decode(bytes, maxPixels: DecodeOptions.defaultMaxPixels)
        // Best of three: the machine is shared, the minimum is the least disturbed run.
        var best = Double.infinity
        var palette = Palette()
        for _ in 0..<3 {
            let start = cpuMilliseconds()
            palette = PaletteExtractor.palette(of: image, colors: k)
            best = min(best, cpuMilliseconds() - start)
        }
        let line = Line(file: file, colors: palette.colors.map(\.hex), shares: palette.colors.map(\.share), ms: best)
        print(String(decoding: try encoder.encode(line), as: UTF8.self))
    } catch {
        try? FileHandle.standardError.write(contentsOf: Data("palette-bench: \(file): \(error)\n".utf8))
        exit(65)
    }
}
