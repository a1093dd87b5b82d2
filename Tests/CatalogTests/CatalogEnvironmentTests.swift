import Catalog
import Foundation
import Processing
import Testing

/// One home for the environment: the XDG rule for where the catalog, the models and uploads live, and
/// the model folders.
@Suite(.timeLimit(.minutes(15)))
struct CatalogEnvironmentTests {
    @Test(arguments: [
        (["XDG_DATA_HOME": "/data", "HOME": "/home/a"], "/data/sticker-catalog"),
        (["XDG_DATA_HOME": "relative/data", "HOME": "/home/a"], "/home/a/.local/share/sticker-catalog"),
        (["XDG_DATA_HOME": "", "HOME": "/home/a"], "/home/a/.local/share/sticker-catalog"),
        (["HOME": "/home/b"], "/home/b/.local/share/sticker-catalog"),
    ])
    func theXDGRuleDecides(variables: [String: String], expected: String) {
        let environment = CatalogEnvironment(variables)
        #expect(environment.modelInstallFolder.path == expected + "/models")
        #expect(environment.uploadsFolder.path == expected + "/uploads")
        #expect(environment.catalogAddress(explicitPath: nil).fileURL?.path == expected + "/catalog.sqlite")
    }

    @Test func anExplicitModelFolderIsTheOnlyPlaceLookedIn() {
        let installed = URL(fileURLWithPath: "/usr/share/sticker-catalog/models")
        #expect(CatalogEnvironment(["STICKER_MODEL_DIR": "/m", "HOME": "/h"]).modelFolders(installedFolder: installed).map(\.path) == ["/m"])
        #expect(CatalogEnvironment(["STICKER_MODEL_DIR": "", "HOME": "/h"]).modelFolders(installedFolder: installed).map(\.path)
            == ["/h/.local/share/sticker-catalog/models", installed.path])
    }

    @Test func malformedValuesAreErrorsNamingTheVariable() throws {
        #expect(try CatalogEnvironment(["CATALOG_BUSY_TIMEOUT": "2.5"]).busyTimeout() == .milliseconds(2500))
        #expect(try CatalogEnvironment([:]).busyTimeout() == .seconds(10))
        #expect(throws: EnvironmentError.self) { try CatalogEnvironment(["CATALOG_BUSY_TIMEOUT": "soon"]).busyTimeout() }
        #expect(try CatalogEnvironment(["STICKER_MODEL": "u2netp"]).chosenModel() == .u2netp)
        #expect(try CatalogEnvironment(["STICKER_MODEL": ""]).chosenModel() == nil)
        #expect(throws: EnvironmentError.self) { try CatalogEnvironment(["STICKER_MODEL": "big"]).chosenModel() }
    }

    @Test func processingSwitches() {
        #expect(CatalogEnvironment(["STICKER_KERNELS": "avx2"]).kernels == .avx2)
        #expect(CatalogEnvironment(["STICKER_KERNELS": "wide"]).kernels == nil)
        #expect(CatalogEnvironment(["MALLOC_ARENA_MAX": "2"]).tunesAllocator)
        #expect(CatalogEnvironment(["GLIBC_TUNABLES": "glibc.malloc.arena_max=2"]).tunesAllocator)
        #expect(!CatalogEnvironment(["HOME": "/h"]).tunesAllocator)
        #expect(CatalogEnvironment(["STICKER_STAGE_TIMES": "/tmp/s.tsv"]).stageTimesReport == "/tmp/s.tsv")
    }
}
