import Foundation
import Testing

@testable import Catalog

@Suite(.timeLimit(.minutes(15))) struct CatalogLocationTests {
    let environment = [
        "CATALOG_PATH": "/env/catalog.sqlite",
        "XDG_DATA_HOME": "/xdg",
        "HOME": "/home/ana",
    ]

    @Test func explicitPathWins() {
        #expect(CatalogEnvironment(environment).catalogAddress(explicitPath: "/explicit/c.sqlite").fileURL?.path
            == "/explicit/c.sqlite")
    }

    @Test func catalogPathComesNext() {
        #expect(CatalogEnvironment(environment).catalogAddress(explicitPath: nil).fileURL?.path == "/env/catalog.sqlite")
        #expect(CatalogEnvironment(environment).catalogAddress(explicitPath: "").fileURL?.path == "/env/catalog.sqlite")
    }

    @Test func xdgDataHomeThen() {
        var environment = environment
        environment["CATALOG_PATH"] = nil
        #expect(CatalogEnvironment(environment).catalogAddress(explicitPath: nil).fileURL?.path
            == "/xdg/sticker-catalog/catalog.sqlite")
    }

    @Test func homeDefaultLast() {
        let home = ["HOME": "/home/ana"]
        #expect(CatalogEnvironment(home).catalogAddress(explicitPath: nil).fileURL?.path
            == "/home/ana/.local/share/sticker-catalog/catalog.sqlite")
        // Empty or relative XDG_DATA_HOME is ignored, as the XDG specification says.
        for xdg in ["", "relative/data"] {
            var environment = home
            environment["XDG_DATA_HOME"] = xdg
            environment["CATALOG_PATH"] = ""
            #expect(CatalogEnvironment(environment).catalogAddress(explicitPath: nil).fileURL?.path
                == "/home/ana/.local/share/sticker-catalog/catalog.sqlite")
        }
    }

    @Test func tildeAndRelativePaths() {
        #expect(CatalogEnvironment(environment).catalogAddress(explicitPath: "~/c.sqlite").fileURL?.path
            == "/home/ana/c.sqlite")
        let relative = CatalogEnvironment(environment).catalogAddress(explicitPath: "sub/../c.sqlite")
        #expect(relative.fileURL?.path == FileManager.default.currentDirectoryPath + "/c.sqlite")
    }

    @Test func postgresURLsNameAServerCatalog() {
        let url = "postgres://ana@db.example:5432/stickers"
        #expect(CatalogEnvironment(environment).catalogAddress(explicitPath: url) == .postgres(url))
        #expect(CatalogEnvironment(environment).catalogAddress(explicitPath: "postgresql://db/stickers") == .postgres("postgresql://db/stickers"))
        #expect(CatalogEnvironment(environment).catalogAddress(explicitPath: "POSTGRES://db/s") == .postgres("POSTGRES://db/s"))
        var withURL = environment
        withURL["CATALOG_PATH"] = url
        #expect(CatalogEnvironment(withURL).catalogAddress(explicitPath: nil) == .postgres(url))
        // An explicit file still wins over a URL in the environment; a file merely named like one is a file.
        #expect(CatalogEnvironment(withURL).catalogAddress(explicitPath: "/x/c.sqlite") == .sqlite(URL(fileURLWithPath: "/x/c.sqlite")))
        #expect(CatalogEnvironment(environment).catalogAddress(explicitPath: "postgres.sqlite").fileURL != nil)
        // Messages never show a password written in the URL.
        #expect(CatalogAddress.postgres("postgres://ana:secret@db:5432/s").displayName == "postgres://ana@db:5432/s")
    }

    @Test func aPostgresCatalogOnAServerThatIsNotThereIsRefusedClearly() async {
        do {
            _ = try await CatalogStores.open(.postgres("postgres://ana:secret@127.0.0.1:1/s?sslmode=disable&connect_timeout=5"), access: .readOnly)
            Issue.record("opened")
        } catch {
            #expect(error.caseName == "serverUnreachable", "\(error)")
            #expect(error.errorDescription?.contains("postgres://ana@127.0.0.1:1/s") == true)
            #expect(error.errorDescription?.contains("secret") == false)
        }
    }
}
