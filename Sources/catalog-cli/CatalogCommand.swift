import ArgumentParser
import Catalog
import Foundation
import Processing

/// The `catalog` command: lists the subcommands; each lives in `Subcommands/`.
@main
struct CatalogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "A catalog of stickers cut out of your photos.",
        discussion: """
            The catalog is a SQLite file or a PostgreSQL database: --catalog PATH|URL, else $CATALOG_PATH, else the file $XDG_DATA_HOME/sticker-catalog/catalog.sqlite (~/.local/share/sticker-catalog/catalog.sqlite). A postgres:// or postgresql:// URL names a catalog in a PostgreSQL database (docs/postgresql.md); anything else a SQLite file. --catalog may stand before or after the subcommand.

            \(SegmentationModel.lookupHelp)

            Colour (palette swatches) is used only when standard output is a terminal and $NO_COLOR is not set.

            \(ExitStatus.helpText)
            """,
        version: CatalogVersion.description,
        subcommands: [
            ImportCommand.self, ListCommand.self, ShowCommand.self, StatsCommand.self, CutoutCommand.self,
            SearchCommand.self, DuplicatesCommand.self, PaletteCommand.self, PackCommand.self, ExportCommand.self, PreviewCommand.self,
            ConfigCommand.self, ReprocessCommand.self, RecutCommand.self, VerifyCommand.self, BackupCommand.self, CopyCommand.self, WorkCommand.self, ServeCommand.self,
        ]
    )

    /// Accepts `--catalog PATH` before the subcommand too (`catalog --catalog c.sqlite import x`),
    /// by moving it behind the subcommand's name, where each subcommand declares it.
    static func main() async {
        CatalogEnvironment.current.configureProcessing()
        OutputFailure.install()
        let arguments = rawArguments()
        if let unknown = unknownHelpTopic(arguments) {
            Diagnostics.report("error: no command '\(unknown)'; `catalog --help` lists the commands")
            Foundation.exit(ExitStatus.usage.code)
        }
        await main(GlobalOptionPlacement.movingCatalogOption(arguments))
    }

    /// The arguments as given: one that is not valid UTF-8 (a file name in another encoding) is kept
    /// losslessly in its escaped form (see `EscapedPath`), where `CommandLine.arguments` would replace
    /// its bytes with U+FFFD and name a file that does not exist.
    static func rawArguments() -> [String] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return "" }
            let bytes = Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
            return String(validating: bytes, as: UTF8.self) ?? EscapedPath.escape(bytes)
        }
    }

    /// The first name after `help` that is not a (sub)command: `catalog help nosuch` is a usage error.
    static func unknownHelpTopic(_ arguments: [String]) -> String? {
        guard arguments.first == "help" else { return nil }
        var commands: [any ParsableCommand.Type] = configuration.subcommands
        for name in arguments.dropFirst() where !name.hasPrefix("-") {
            guard let command = commands.first(where: { $0.configuration.commandName == name }) else { return name }
            commands = command.configuration.subcommands
        }
        return nil
    }
}

/// Where `--catalog` may stand on the command line.
enum GlobalOptionPlacement {
    /// `[--catalog P] sub rest` becomes `sub --catalog P rest` (`group sub --catalog P rest` for a command
    /// group); anything else is returned unchanged.
    static func movingCatalogOption(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--catalog", index + 1 < arguments.count {
                leading += [argument, arguments[index + 1]]
                index += 2
            } else if argument.hasPrefix("--catalog=") {
                leading.append(argument)
                index += 1
            } else {
                break
            }
        }
        guard !leading.isEmpty, index < arguments.count else { return arguments }
        // A command group (`config get`) takes it behind its subcommand's name.
        var names = [arguments[index]]
        if let group = CatalogCommand.configuration.subcommands.first(where: { $0.configuration.commandName == names[0] }),
            index + 1 < arguments.count, group.configuration.subcommands.contains(where: { $0.configuration.commandName == arguments[index + 1] })
        {
            names.append(arguments[index + 1])
        }
        return names + leading + arguments[(index + names.count)...]
    }
}
