import Foundation
import Testing

@testable import Catalog

@Suite struct VerifyTests {
    @Test(arguments: StoreKind.allCases) func aSoundCatalogIsCountedAndItsMissingSourcesListed(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await openStore(kind, in: directory)
            let empty = try await repository.verify()
            #expect(empty.sound && empty.entries == 0 && empty.paletteColors == 0 && empty.missingSources.isEmpty)

            let present = directory.appending(path: "here.jpg")
            try Data([1, 2, 3]).write(to: present)
            _ = try await repository.recordProcessed(sampleProcessedPhoto(), sha256: sha(1), source: source(present.path))
            _ = try await repository.recordProcessed(sampleProcessedPhoto(), sha256: sha(2), source: source("/nowhere/gone.jpg"))
            let report = try await repository.verify()
            #expect(report.sound)
            #expect(report.entries == 2)
            #expect(report.paletteColors == 4)
            #expect(report.missingSources.map(\.path) == ["/nowhere/gone.jpg"])
        }
    }
}
