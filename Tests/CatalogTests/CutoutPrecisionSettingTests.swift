import Foundation
import Processing
import Testing

@testable import Catalog

/// `cutout.precision`: stored as the user said it (`auto` stays `auto`), resolved by the machine that
/// makes stickers, recorded with each sticker, and a sticker of another precision is stale.
@Suite(.timeLimit(.minutes(5))) struct CutoutPrecisionSettingTests {
    /// The settings JSON a sticker made before precision was a setting has.
    private static let legacyJSON = #"{"model":"u2net","outline":8,"paletteColors":5,"shadow":false,"size":512}"#

    @Test("settings stored without a precision decode as fp32, and are encoded with it")
    func settingsWithoutPrecisionAreFP32() throws {
        let settings = try CatalogJSON.decode(StickerSettings.self, from: Self.legacyJSON)
        #expect(settings.precision == .fp32 && settings.model == .u2net && settings.size == 512)
        #expect(try CatalogJSON.string(settings)
            == #"{"model":"u2net","outline":8,"paletteColors":5,"precision":"fp32","shadow":false,"size":512}"#)
    }

    @Test("auto is stored as auto and resolved where the settings are read; a bad value names the choices")
    func precisionIsStoredAsSaid() throws {
        let setting = CatalogSetting.cutoutPrecision
        #expect(try ["auto", "fp32", "int8"].map { try setting.canonical($0) } == ["auto", "fp32", "int8"])
        #expect(setting.defaultValue == "auto" && SettingValues.defaults[setting] == "auto")
        #expect(throws: SettingError.invalidValue(key: "cutout.precision", value: "int4", expected: "auto, fp32 or int8")) {
            try setting.canonical("int4")
        }
        #expect(throws: SettingError.self) { try setting.canonical("AUTO") }

        let rows = [(key: "cutout.precision", value: "auto")]
        #expect(try CatalogSetting.settings(from: rows, catalog: "c").precision == PrecisionSetting.auto.resolved)
        #expect(try CatalogSetting.values(from: rows, catalog: "c")[setting] == "auto")
        #expect(try CatalogSetting.values(from: rows, catalog: "c").settings.precision == PrecisionSetting.auto.resolved)
        #expect(try CatalogSetting.settings(from: [(key: "cutout.precision", value: "fp32")], catalog: "c").precision == .fp32)
        #expect(try CatalogSetting.settings(from: [(key: "cutout.precision", value: "int8")], catalog: "c").precision == .int8)
        #expect(throws: CatalogError.self) { try CatalogSetting.values(from: [(key: "cutout.precision", value: "fast")], catalog: "c") }

        // Only auto needs a note of what it runs here.
        let note = try #require(setting.note(for: "auto"))
        #expect(note.hasPrefix("\(PrecisionSetting.auto.resolved.rawValue) on "), "\(note)")
        #expect(setting.note(for: "fp32") == nil && setting.note(for: "int8") == nil && CatalogSetting.cutoutModel.note(for: "u2net") == nil)
        #expect(try CatalogSetting.values(from: rows, catalog: "c").described(setting) == "auto (\(note))")
    }

    @Test("a sticker made in another precision than the catalog's is stale (settings)")
    func anotherPrecisionIsStale() {
        let fp32 = StickerSettings(size: 512, paletteColors: 5, precision: .fp32)
        var int8 = fp32
        int8.precision = .int8
        let version = PhotoProcessor.pipelineVersion
        #expect(StaleReason.recorded(sticker: (version, fp32), failureCode: nil, current: int8, pipelineVersion: version) == [.settings])
        #expect(StaleReason.recorded(sticker: (version, fp32), failureCode: nil, current: fp32, pipelineVersion: version).isEmpty)
    }

    @Test(arguments: StoreKind.allCases) func theStoredTextIsKept(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await openStore(kind, in: directory)
            #expect(try await repository.settingValues()[.cutoutPrecision] == "auto")
            try await repository.store(.cutoutPrecision, value: try CatalogSetting.cutoutPrecision.canonical("auto"))
            #expect(try await repository.settingValues()[.cutoutPrecision] == "auto")
            #expect(try await repository.settings().precision == PrecisionSetting.auto.resolved)
            try await repository.store(.cutoutPrecision, value: "int8")
            #expect(try await repository.settingValues()[.cutoutPrecision] == "int8")
            #expect(try await repository.settings().precision == .int8)
            let described = SettingDescription.all(try await repository.settingValues()).first { $0.key == "cutout.precision" }
            #expect(described?.value == .init("int8") && described?.defaultValue == .init("auto") && described?.runs == nil)
        }
    }

    @Test("the stale filter of a page counts a sticker stored before precision existed as fp32", arguments: StoreKind.allCases)
    func pageStaleFilterKnowsTheLegacyText(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await openStore(kind, in: directory)
            _ = try await repository.recordProcessed(sampleProcessedPhoto(), sha256: sha(1), source: source("/photos/a.jpg"))
            try await executeRaw(
                "UPDATE sticker SET pipeline_version = ?, settings_json = ?", [Int64(PhotoProcessor.pipelineVersion), Self.legacyJSON],
                on: repository)
            let fp32 = try CatalogJSON.decode(StickerSettings.self, from: Self.legacyJSON)
            var int8 = fp32
            int8.precision = .int8
            let stale = EntryPageQuery(staleOnly: true)
            #expect(try await repository.entryPage(stale, settings: fp32).total == 0)
            let page = try await repository.entryPage(stale, settings: int8)
            #expect(page.total == 1 && page.entries.first?.reasons == [.settings])
            #expect(try await repository.entryPage(EntryPageQuery(), settings: fp32).entries.first?.reasons == [])
        }
    }
}
