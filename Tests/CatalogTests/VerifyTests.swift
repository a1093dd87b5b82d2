import Foundation
import Processing
import Testing

@testable import Catalog

@Suite(.timeLimit(.minutes(15))) struct VerifyTests {
    @Test(arguments: StoreKind.allCases) func aSoundCatalogIsCountedAndItsMissingSourcesListed(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await openStore(kind, in: directory)
            let empty = try await repository.verify()
            #expect(empty.sound && empty.entries == 0 && empty.paletteColors == 0 && empty.missingSources.isEmpty)

            let present = directory.appending(path: "here.jpg")
            try Data([1, 2, 3]).write(to: present)
            _ = try await repository.recordProcessed(try photo(seed: 1), sha256: sha(1), source: source(present.path))
            _ = try await repository.recordProcessed(try photo(seed: 2), sha256: sha(2), source: source("/nowhere/gone.jpg"))
            let report = try await repository.verify()
            #expect(report.sound)
            #expect(report.entries == 2)
            #expect(report.paletteColors == 4)
            #expect(report.missingSources.map(\.path) == ["/nowhere/gone.jpg"])
        }
    }

    /// A processed photo whose sticker is a real PNG (verify decodes its header) and palette has two colours.
    private func photo(seed: Int) throws -> ProcessedPhoto {
        let sample = sampleProcessedPhoto()
        return ProcessedPhoto(
            format: .jpeg, width: 4000, height: 3000, exif: sampleExif,
            sticker: StickerImage(png: try stickerPNG(width: 32, height: 24, seed: seed), width: 32, height: 24),
            palette: sample.palette, pipelineVersion: sample.pipelineVersion, settings: sample.settings
        )
    }
}
