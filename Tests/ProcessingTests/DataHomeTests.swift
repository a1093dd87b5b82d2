import Foundation
import Processing
import Testing

/// One rule for where the catalog, the models and uploads live.
@Suite(.timeLimit(.minutes(15)))
struct DataHomeTests {
    @Test(arguments: [
        (["XDG_DATA_HOME": "/data", "HOME": "/home/a"], "/data/sticker-catalog/models"),
        (["XDG_DATA_HOME": "relative/data", "HOME": "/home/a"], "/home/a/.local/share/sticker-catalog/models"),
        (["XDG_DATA_HOME": "", "HOME": "/home/a"], "/home/a/.local/share/sticker-catalog/models"),
        (["HOME": "/home/b"], "/home/b/.local/share/sticker-catalog/models"),
    ])
    func theXDGRuleDecides(environment: [String: String], expected: String) {
        #expect(DataHome.url("models", environment: environment).path == expected)
        #expect(NetworkMaskPredictor.modelDirectory(environment: environment).path == expected)
    }
}
