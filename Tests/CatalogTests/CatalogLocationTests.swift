import Foundation
import Testing

@testable import Catalog

@Suite struct CatalogLocationTests {
    let environment = [
        "CATALOG_PATH": "/env/catalog.sqlite",
        "XDG_DATA_HOME": "/xdg",
        "HOME": "/home/ana",
    ]

    @Test func explicitPathWins() {
        #expect(CatalogLocation.resolve(explicitPath: "/explicit/c.sqlite", environment: environment).path
            == "/explicit/c.sqlite")
    }

    @Test func catalogPathComesNext() {
        #expect(CatalogLocation.resolve(explicitPath: nil, environment: environment).path == "/env/catalog.sqlite")
        #expect(CatalogLocation.resolve(explicitPath: "", environment: environment).path == "/env/catalog.sqlite")
    }

    @Test func xdgDataHomeThen() {
        var environment = environment
        environment["CATALOG_PATH"] = nil
        #expect(CatalogLocation.resolve(explicitPath: nil, environment: environment).path
            == "/xdg/sticker-catalog/catalog.sqlite")
    }

    @Test func homeDefaultLast() {
        let home = ["HOME": "/home/ana"]
        #expect(CatalogLocation.resolve(explicitPath: nil, environment: home).path
            == "/home/ana/.local/share/sticker-catalog/catalog.sqlite")
        // Empty or relative XDG_DATA_HOME is ignored, as the XDG specification says.
        for xdg in ["", "relative/data"] {
            var environment = home
            environment["XDG_DATA_HOME"] = xdg
            environment["CATALOG_PATH"] = ""
            #expect(CatalogLocation.resolve(explicitPath: nil, environment: environment).path
                == "/home/ana/.local/share/sticker-catalog/catalog.sqlite")
        }
    }

    @Test func tildeAndRelativePaths() {
        #expect(CatalogLocation.resolve(explicitPath: "~/c.sqlite", environment: environment).path
            == "/home/ana/c.sqlite")
        let relative = CatalogLocation.resolve(explicitPath: "sub/../c.sqlite", environment: environment)
        #expect(relative.path == FileManager.default.currentDirectoryPath + "/c.sqlite")
    }
}
