import ArgumentParser
import Catalog
import Foundation
import Processing

extension CatalogCommand {
    /// `catalog config get|set|list`: the catalog's settings, which import and reprocess use.
    struct ConfigCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "config",
            abstract: "Show or change the catalog's settings (palette size, sticker size, outline, shadow, cut-out model and precision).",
            discussion: """
                Settings live in the catalog and apply to every import and reprocess. Changing one makes the entries made with another value stale: `catalog list --stale` shows them, `catalog reprocess` re-makes them. cutout.precision auto is stored as auto and resolved by each machine that makes stickers (`config list` and `catalog --version` say what it runs here); a fleet of machines with different CPUs should name fp32 or int8, so that every machine makes the same stickers.

                Keys: \(CatalogSetting.allCases.map { "\($0.rawValue) (\($0.summary), default \($0.defaultValue))" }.joined(separator: "; ")).
                """,
            subcommands: [GetSetting.self, SetSetting.self, ListSettings.self]
        )
    }
}

extension CatalogCommand.ConfigCommand {
    /// `catalog config get KEY`: prints the value alone, as stored (`auto` stays `auto`), for scripts.
    struct GetSetting: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "get", abstract: "Print one setting's value.")

        @OptionGroup var catalog: CatalogOptions
        @Argument(help: ArgumentHelp("The setting, such as palette.colors.", valueName: "key"))
        var key: String

        func validate() throws {
            _ = try CatalogCommand.ConfigCommand.setting(named: key)
        }

        func run() async throws {
            let setting = try CatalogCommand.ConfigCommand.setting(named: key)
            Terminal.standardOutput.write(try await catalog.currentSettingValues()[setting] + "\n")
        }
    }

    /// `catalog config set KEY VALUE`: validates and stores a setting.
    struct SetSetting: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change one setting (entries made with another value become stale)."
        )

        @OptionGroup var catalog: CatalogOptions
        @Argument(help: ArgumentHelp("The setting, such as palette.colors.", valueName: "key"))
        var key: String
        // Collected raw, so that a negative number reaches the validation ("-1" is not an option).
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Its new value.", valueName: "value"))
        var values: [String] = []

        private var value: String { values.first ?? "" }

        func validate() throws {
            let setting = try CatalogCommand.ConfigCommand.setting(named: key)
            if values.count != 1 { throw ValidationError("give one value for \(key) (\(setting.summary))") }
            do {
                _ = try setting.canonical(value)
            } catch {
                throw ValidationError(error.description)
            }
        }

        func run() async throws {
            let setting = try CatalogCommand.ConfigCommand.setting(named: key)
            let value = try setting.canonical(value)
            let repository = try await catalog.open(.readWrite)
            do {
                let before = try await repository.settingValues()
                try await repository.store(setting, value: value)
                let after = try await repository.settingValues()
                Terminal.standardOutput.write(Self.report(setting, before: before, after: after))
            } catch {
                throw Diagnostics.exit(for: error)
            }
        }

        /// What a change did: the new value, the old one, and which stickers it made stale. Staleness is
        /// told by what the values run on this machine (`auto` may run what the new value names).
        static func report(_ setting: CatalogSetting, before: SettingValues, after: SettingValues) -> String {
            let (old, new) = (before[setting], after[setting])
            let (oldNote, newNote) = (setting.note(for: old), setting.note(for: new))
            if old == new { return "\(setting.rawValue) = \(new) (unchanged\(newNote.map { "; runs \($0) here" } ?? ""))\n" }
            let (oldRuns, newRuns) = (setting.value(in: before.settings), setting.value(in: after.settings))
            let change = "\(setting.rawValue) = \(new)\(newNote.map { " (\($0) here)" } ?? "")"
                + " (was \(old)\(oldNote.map { ", which runs \($0) here" } ?? ""))"
            if oldRuns == newRuns { return change + "; this machine runs \(newRuns) as before, so no entry becomes stale.\n" }
            return change + "; entries made with \(oldRuns) are now stale: `catalog reprocess` re-makes them.\n"
        }
    }

    /// `catalog config list [--json]`: every setting with its value and default.
    struct ListSettings: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List every setting with its value and default.",
            discussion: "VALUE is as stored; for cutout.precision auto it adds what auto runs on this machine, as in `auto (fp32 on AVX-512)`. --json prints an array of {\"default\",\"description\",\"key\",\"value\"} (numbers and booleans as such), with \"runs\" for a value that runs something it does not name (\"runs\": \"fp32 on AVX-512\" for auto)."
        )

        @OptionGroup var catalog: CatalogOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let values = try await catalog.currentSettingValues()
            if output.json {
                Terminal.standardOutput.write(JSONOutput.document(SettingDescription.all(values)))
                return
            }
            var table = Table("KEY", "VALUE", "DEFAULT", "MEANING")
            for setting in CatalogSetting.allCases {
                table.append(setting.rawValue, values.described(setting), setting.defaultValue, setting.summary)
            }
            Terminal.standardOutput.write(table.rendered())
        }
    }

    /// The setting named `key`, or a usage error (exit 64) listing the keys.
    static func setting(named key: String) throws -> CatalogSetting {
        do {
            return try CatalogSetting.named(key)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

extension CatalogOptions {
    /// The settings stored in the catalog, or the defaults when there is no catalog yet (nothing is created).
    func currentSettings() async throws -> StickerSettings {
        guard mayExist else { return .default }
        return try await storedSettings(of: open(.readOnly))
    }

    /// The settings as the user stored them (`auto` stays `auto`), or the defaults when there is no catalog
    /// yet (nothing is created): what `catalog config` shows.
    func currentSettingValues() async throws -> SettingValues {
        guard mayExist else { return .defaults }
        let repository = try await open(.readOnly)
        return try await Diagnostics.reporting { try await repository.settingValues() }
    }

    /// The settings a command works with: those of an open catalog (the defaults for none: a dry run
    /// without a catalog), with the model `$STICKER_MODEL` names in place of `cutout.model`.
    func settings(of repository: (any CatalogStore)?) async throws -> StickerSettings {
        var settings = try await storedSettings(of: repository)
        if let model = try CatalogEnvironment.current.modelOption() { settings.model = model }
        return settings
    }

    /// The settings stored in an open catalog (the defaults for none), as `catalog config` shows them.
    func storedSettings(of repository: (any CatalogStore)?) async throws -> StickerSettings {
        guard let repository else { return .default }
        return try await Diagnostics.reporting { try await repository.settings() }
    }
}
