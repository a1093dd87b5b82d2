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
        #expect(CatalogLocation.resolve(explicitPath: "/explicit/c.sqlite", environment: environment).fileURL?.path
            == "/explicit/c.sqlite")
    }

    @Test func catalogPathComesNext() {
        #expect(CatalogLocation.resolve(explicitPath: nil, environment: environment).fileURL?.path == "/env/catalog.sqlite")
        #expect(CatalogLocation.resolve(explicitPath: "", environment: environment).fileURL?.path == "/env/catalog.sqlite")
    }

    @Test func xdgDataHomeThen() {
        var environment = environment
        environment["CATALOG_PATH"] = nil
        #expect(CatalogLocation.resolve(explicitPath: nil, environment: environment).fileURL?.path
            == "/xdg/sticker-catalog/catalog.sqlite")
    }

    @Test func homeDefaultLast() {
        let home = ["HOME": "/home/ana"]
        #expect(CatalogLocation.resolve(explicitPath: nil, environment: home).fileURL?.path
            == "/home/ana/.local/share/sticker-catalog/catalog.sqlite")
        // Empty or relative XDG_DATA_HOME is ignored, as the XDG specification says.
        for xdg in ["", "relative/data"] {
            var environment = home
            environment["XDG_DATA_HOME"] = xdg
            environment["CATALOG_PATH"] = ""
            #expect(CatalogLocation.resolve(explicitPath: nil, environment: environment).fileURL?.path
                == "/home/ana/.local/share/sticker-catalog/catalog.sqlite")
        }
    }

    @Test func tildeAndRelativePaths() {
        #expect(CatalogLocation.resolve(explicitPath: "~/c.sqlite", environment: environment).fileURL?.path
            == "/home/ana/c.sqlite")
        let relative = CatalogLocation.resolve(explicitPath: "sub/../c.sqlite", environment: environment)
        #expect(relative.fileURL?.path == FileManager.default.currentDirectoryPath + "/c.sqlite")
    }

    @Test func postgresURLsNameAServerCatalog() {
        let url = "postgres://ana@db.example:5432/stickers"
        #expect(CatalogLocation.resolve(explicitPath: url, environment: environment) == .postgres(url))
        #expect(CatalogLocation.resolve(explicitPath: "postgresql://db/stickers", environment: environment) == .postgres("postgresql://db/stickers"))
        #expect(CatalogLocation.resolve(explicitPath: "POSTGRES://db/s", environment: environment) == .postgres("POSTGRES://db/s"))
        var withURL = environment
        withURL["CATALOG_PATH"] = url
        #expect(CatalogLocation.resolve(explicitPath: nil, environment: withURL) == .postgres(url))
        // An explicit file still wins over a URL in the environment; a file merely named like one is a file.
        #expect(CatalogLocation.resolve(explicitPath: "/x/c.sqlite", environment: withURL) == .sqlite(URL(fileURLWithPath: "/x/c.sqlite")))
        #expect(CatalogLocation.resolve(explicitPath: "postgres.sqlite", environment: environment).fileURL != nil)
        // Messages never show a password written in the URL.
        #expect(CatalogAddress.postgres("postgres://ana:secret@db:5432/s").displayName == "postgres://ana@db:5432/s")
    }

    @Test func aPostgresCatalogOnAServerThatIsNotThereIsRefusedClearly() async {
        do {
            _ = try await CatalogStores.open(.postgres("postgres://ana:secret@127.0.0.1:1/s?sslmode=disable&connect_timeout=5"), access: .readOnly)
            Issue.record("opened")
        } catch {
            #expect(error.exitCode == 69)
            #expect(error.errorDescription?.contains("postgres://ana@127.0.0.1:1/s") == true)
            #expect(error.errorDescription?.contains("secret") == false)
        }
    }
}
