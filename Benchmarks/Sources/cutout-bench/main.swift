import BenchSupport
import Catalog
import Foundation
import Processing

/// `cutout-bench [--model-dir DIR] [--model NAME] [--refine KIND]`: `catalog cutout INPUT -o OUTPUT --mask-only --no-crop` for many
/// photos in one process, the model loaded once, as the quality benchmark's in-process peers are
/// timed. Reads `INPUT<TAB>OUTPUT` lines on stdin, or `INPUT<TAB>OUTPUT<TAB>X,Y,W,H` for a guided
/// cut-out (`catalog cutout ... --box X,Y,W,H`: the box in pixels of the upright photo); for each
/// writes the mask PNG and prints one JSON line {"cpu": s, "wall": s} (reading the file, decoding,
/// cut-out, PNG, writing it), or {"error": "..."}. Used by Benchmarks/cutout/score.py (--server).
let environment = CatalogEnvironment()
environment.configureProcessing()
var arguments = CommandLine.arguments.dropFirst()
var modelDirectory: URL?
var model = CutoutModel.default
var refinement = Refinement.none
while arguments.count >= 2, let flag = arguments.first {
    let value = arguments.dropFirst().first!
    if flag == "--model-dir" {
        modelDirectory = URL(fileURLWithPath: value)
    } else if flag == "--model", let named = CutoutModel.named(value) {
        model = named
    } else if flag == "--refine", let named = Refinement(rawValue: value) {
        refinement = named
    } else {
        break
    }
    arguments = arguments.dropFirst(2)
}
guard arguments.isEmpty else {
    try? FileHandle.standardError.write(contentsOf: Data("usage: cutout-bench [--model-dir DIR] [--model u2net|u2netp] [--refine none|second-pass|flip] < lines of INPUT<TAB>OUTPUT[<TAB>X,Y,W,H]\n".utf8))
    exit(64)
}

/// One JSON line to the driver. When the driver has gone (closed pipe), there is no one left to work for.
func reply(_ object: [String: Any]) {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    do { try FileHandle.standardOutput.write(contentsOf: data + Data("\n".utf8)) } catch { exit(74) }
}

let segmenter: SubjectSegmenter
do {
    let predictor: NetworkMaskPredictor? = if let modelDirectory {
        try NetworkMaskPredictor.installed(model, in: modelDirectory)
    } else {
        try NetworkMaskPredictor.installed(model, among: environment.modelFolders(installedFolder: nil))
    }
    segmenter = SubjectSegmenter(predictor: predictor)
} catch {
    try? FileHandle.standardError.write(contentsOf: Data("cutout-bench: \(error.errorDescription ?? error.code)\n".utf8))
    exit(69)
}
let automatic = CutoutJob()
while let line = readLine() {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    guard fields.count == 2 || fields.count == 3 else {
        reply(["error": "expected INPUT<TAB>OUTPUT or INPUT<TAB>OUTPUT<TAB>X,Y,W,H"])
        continue
    }
    let job: CutoutJob
    if fields.count == 3 {
        do throws(GuidanceError) {
            job = CutoutJob(guidance: CutoutGuidance(box: try CutoutGuidance.Box(parsing: fields[2])))
        } catch {
            reply(["error": error.description])
            continue
        }
    } else {
        job = automatic
    }
    let cpu = BenchClock.cpuSeconds(), wall = BenchClock.wallSeconds()
    do {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fields[0])))
        let png = try refinement.maskPNG(job.decode(bytes), job: job, segmenter: segmenter)
        try Data(png).write(to: URL(fileURLWithPath: fields[1]))
        reply(["cpu": BenchClock.cpuSeconds() - cpu, "wall": BenchClock.wallSeconds() - wall])
    } catch let error as ProcessingError {
        reply(["error": "\(fields[0]): \(error.errorDescription ?? error.code)"])
    } catch {
        reply(["error": "\(fields[0]): \(error.localizedDescription)"])
    }
}
