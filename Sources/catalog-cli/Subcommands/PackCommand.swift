import ArgumentParser
import Catalog
import Foundation

extension CatalogCommand {
    /// `catalog pack ...`: named, ordered packs of stickers, each sticker with its emoji.
    struct PackCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pack",
            abstract: "Create and edit packs: ordered stickers, each with an emoji, plus a title and an author.",
            discussion: """
                \(PackName.rule) Exit: 0 done, 64 bad name/argument, 65 unknown pack or id (nothing was changed), 74/75 catalog not writable/busy.
                """,
            subcommands: [Create.self, Add.self, Remove.self, Move.self, List.self, Show.self, Delete.self]
        )
    }
}

/// Pack-name arguments are checked before the catalog is opened (exit 64).
func validatePackName(_ name: String) throws {
    do {
        try PackName.validate(name)
    } catch {
        throw ValidationError(error.errorDescription ?? "invalid pack name")
    }
}

/// Entry ids from arguments, `-` meaning "read ids from stdin" (whitespace separated), so
/// `catalog search --ids ... | catalog pack add NAME -` works.
func parseIds(_ arguments: [String]) throws -> [Int64] {
    var tokens: [String] = []
    for argument in arguments {
        if argument == "-" {
            let input: [UInt8]
            switch InputFile.readStandardInput() {
            case .success(let bytes): input = bytes
            case .failure(let problem): throw ValidationError("cannot read ids from standard input: \(problem.reason)")
            }
            tokens += String(decoding: input, as: UTF8.self).split(whereSeparator: { $0.isWhitespace }).map(String.init)
        } else {
            tokens.append(argument)
        }
    }
    let ids = try tokens.map { token in
        guard let id = Int64(token), id > 0 else { throw ValidationError("'\(token)' is not an entry id (a positive number; see `catalog list`)") }
        return id
    }
    if ids.isEmpty { throw ValidationError("no ids given (on the command line, or on stdin with -)") }
    return ids
}

extension CatalogCommand.PackCommand {
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create an empty pack.")

        @OptionGroup var catalog: CatalogOptions
        @Argument(help: "The pack's name (used in file names on export).") var name: String
        @Option(help: "The title people see (default: the name).") var title: String?
        @Option(help: "The author.") var author: String = ""

        func validate() throws { try validatePackName(name) }

        func run() async throws {
            let repository = try await catalog.open(.readWrite)
            try await Diagnostics.reporting {
                let pack = try await repository.createPack(name: name, title: title, author: author)
                Terminal.standardOutput.write("Created pack \(pack.name) (\"\(pack.title)\").\n")
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Append stickers to a pack, in the order given.",
            discussion: "Ids already in the pack stay where they are (their emoji is updated when --emoji is given). An unknown id or an entry without a sticker refuses the whole command (exit 65). When the pack then holds two near-duplicates (`catalog duplicates`), a warning names them; the stickers are added all the same."
        )

        @OptionGroup var catalog: CatalogOptions
        @Argument(help: "The pack's name.") var name: String
        @Argument(help: ArgumentHelp("Entry ids; - reads ids from stdin.", valueName: "id")) var ids: [String]
        @Option(help: "The stickers' emoji (1-20; default 🙂).") var emoji: String?
        @Flag(help: "Do not warn when the pack would hold near-duplicates (see `catalog duplicates`).")
        var allowDuplicates = false

        func validate() throws {
            try validatePackName(name)
            if ids.isEmpty { throw ValidationError("name at least one id, or - to read ids from stdin") }
            if let emoji {
                do { _ = try StickerEmoji.parse(emoji) } catch { throw ValidationError(error.errorDescription ?? "invalid emoji") }
            }
        }

        func run() async throws {
            let ids = try parseIds(self.ids)
            let repository = try await catalog.open(.readWrite)
            do {
                let result = try await repository.addToPack(name, ids: ids, emoji: emoji)
                var line = "Added \(result.added.count) to \(name)"
                if !result.alreadyPresent.isEmpty { line += "; \(result.alreadyPresent.count) already there" }
                Terminal.standardOutput.write(line + ".\n")
            } catch {
                throw Diagnostics.exit(for: error)
            }
            if !allowDuplicates { try await warnAboutDuplicates(added: ids, repository) }
        }

        /// One line on stderr for each sticker of the pack that looks like one just added; the add stands.
        private func warnAboutDuplicates(added: [Int64], _ repository: any CatalogStore) async throws {
            let pairs: [PackDuplicate]
            do {
                let pack = try await repository.entries(inPack: name).map(\.id)
                pairs = try await PackDuplicate.among(added: added, pack: pack, store: repository)
            } catch let error as PackError {
                throw Diagnostics.exit(for: error)
            } catch let error as CatalogError {
                throw Diagnostics.exit(for: error)
            }
            for pair in pairs {
                Diagnostics.report(
                    "warning: \(name) now holds #\(pair.added) and #\(pair.other), near-duplicates (distance \(pair.distance)); "
                        + "`catalog pack remove \(name) ID` takes one out, --allow-duplicates silences this")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove stickers from a pack (they stay in the catalog).")

        @OptionGroup var catalog: CatalogOptions
        @Argument(help: "The pack's name.") var name: String
        @Argument(help: ArgumentHelp("Entry ids; - reads ids from stdin.", valueName: "id")) var ids: [String]

        func validate() throws {
            try validatePackName(name)
            if ids.isEmpty { throw ValidationError("name at least one id, or - to read ids from stdin") }
        }

        func run() async throws {
            let ids = try parseIds(self.ids)
            let repository = try await catalog.open(.readWrite)
            try await Diagnostics.reporting {
                let removed = try await repository.removeFromPack(name, ids: ids)
                Terminal.standardOutput.write("Removed \(removed) from \(name).\n")
            }
        }
    }

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "move", abstract: "Move a sticker to another place in its pack.")

        @OptionGroup var catalog: CatalogOptions
        @Argument(help: "The pack's name.") var name: String
        @Argument(help: "The entry id to move.") var id: Int64
        @Option(parsing: .unconditional, help: "The new 1-based position.", transform: OptionValue.whole("--to", 1...Int.max)) var to: Int

        func validate() throws {
            try validatePackName(name)
            if id < 1 { throw ValidationError("an id is a positive number (see `catalog pack show`)") }
            if to < 1 { throw ValidationError("--to is a 1-based position") }
        }

        func run() async throws {
            let repository = try await catalog.open(.readWrite)
            try await Diagnostics.reporting {
                try await repository.movePackItem(name, id: id, to: to)
                Terminal.standardOutput.write("Moved \(id) to position \(to) in \(name).\n")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the packs.",
            discussion: "--json prints an array of {\"author\",\"count\",\"createdAt\",\"name\",\"title\"}."
        )

        @OptionGroup var catalog: CatalogOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let repository = try await catalog.open(.readOnly)
            let packs: [PackSummary] = try await Diagnostics.reporting { try await repository.packs() }
            if output.json {
                Terminal.standardOutput.write(JSONOutput.document(packs))
                return
            }
            guard !packs.isEmpty else {
                Terminal.standardOutput.write("No packs yet; `catalog pack create NAME` makes one.\n")
                return
            }
            var table = Table("NAME", "STICKERS", "AUTHOR", "TITLE")
            for pack in packs {
                table.append(pack.name, "\(pack.count)", pack.author.isEmpty ? "-" : pack.author, pack.title)
            }
            Terminal.standardOutput.write(table.rendered())
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show a pack's stickers in order.",
            discussion: "Ends with what each messaging app takes of the pack as it is (how many stickers, still and animated mixed, the title's length; byte limits are met by export). --json prints {\"author\",\"createdAt\",\"items\":[{\"animated\",\"bytes\",\"emoji\",\"height\",\"id\",\"path\",\"position\",\"width\"}],\"name\",\"platforms\":[{\"format\",\"note\",\"ok\",\"sets\"}],\"title\"}."
        )

        @OptionGroup var catalog: CatalogOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The pack's name.") var name: String

        func validate() throws { try validatePackName(name) }

        func run() async throws {
            let repository = try await catalog.open(.readOnly)
            let pack: PackDetail = try await Diagnostics.reporting { try await repository.pack(named: name) }
            if output.json {
                Terminal.standardOutput.write(JSONOutput.document(pack))
                return
            }
            var text = "Pack \(pack.name): \"\(pack.title)\"" + (pack.author.isEmpty ? "" : " by \(pack.author)") + ", \(Counted(pack.items.count, "sticker"))\n"
            if !pack.items.isEmpty {
                var table = Table("#", "ID", "EMOJI", "SIZE", "PATH")
                for item in pack.items {
                    let size = "\(item.width)×\(item.height)" + (item.animated ? " animated" : "")
                    table.append("\(item.position)", "\(item.id)", item.emoji.joined(), size, item.path)
                }
                text += table.rendered()
                for check in pack.platforms {
                    let verdict = !check.ok ? "needs a change" : check.sets > 1 ? "as \(check.sets) packs" : "ready"
                    text += "\(check.format.rawValue): \(verdict)" + (check.note.map { " (\($0))" } ?? "") + "\n"
                }
            }
            Terminal.standardOutput.write(text)
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a pack (its stickers stay in the catalog).")

        @OptionGroup var catalog: CatalogOptions
        @Argument(help: "The pack's name.") var name: String

        func validate() throws { try validatePackName(name) }

        func run() async throws {
            let repository = try await catalog.open(.readWrite)
            try await Diagnostics.reporting {
                try await repository.deletePack(name)
                Terminal.standardOutput.write("Deleted pack \(name).\n")
            }
        }
    }
}
