import ArgumentParser
import Foundation
import SampleImages

/// Writes the demo's built-in sample photos, or the benchmark's 12 MP JPEGs, into a folder.
@main
struct SamplePhotosCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample-photos",
        abstract: "Write generated sample photos (JPEGs with EXIF, PNGs with alpha) into a folder."
    )

    @Argument(help: "The folder to write into (created if missing).")
    var folder: String

    @Option(help: "Write this many benchmark JPEGs instead of the demo set.")
    var benchmark: Int?

    @Option(help: "Megapixels of each benchmark JPEG.")
    var megapixels: Double = 12

    @Option(help: "How benchmark photos are stored: jpeg, p3-jpeg, p3-jpeg-untagged, p3-heic, heic or png.")
    var variant: String = "jpeg"

    func validate() throws {
        if let benchmark, benchmark < 1 { throw ValidationError("--benchmark needs a count of at least 1") }
        if !(0.1...100).contains(megapixels) { throw ValidationError("--megapixels must be between 0.1 and 100") }
        if SamplePhotos.BenchmarkVariant(rawValue: variant) == nil {
            throw ValidationError("--variant must be one of: \(SamplePhotos.BenchmarkVariant.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        let directory = URL(fileURLWithPath: folder)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if let count = benchmark {
            let variant = SamplePhotos.BenchmarkVariant(rawValue: variant) ?? .jpeg
            for index in 0..<count {
                let name = String(format: "bench-%04d.", index) + variant.fileExtension
                let target = directory.appendingPathComponent(name)
                if FileManager.default.fileExists(atPath: target.path) { continue }
                try Data(try SamplePhotos.benchmarkPhoto(index: index, megapixels: megapixels, variant: variant)).write(to: target, options: .atomic)
            }
            print("\(count) benchmark photos of \(megapixels) MP in \(directory.path)")
        } else {
            let photos = try SamplePhotos.demo()
            for photo in photos {
                try Data(photo.bytes).write(to: directory.appendingPathComponent(photo.name), options: .atomic)
            }
            print("\(photos.count) sample photos in \(directory.path)")
        }
    }
}
