import ArgumentParser
import Catalog
import Processing

extension CatalogCommand {
    /// `catalog duplicates`: the groups of near-duplicate entries, and the user's decisions about them.
    struct DuplicatesCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "duplicates",
            abstract: "List groups of entries that show the same subject (near-duplicates), with the best of each.",
            discussion: """
                Entries are near-duplicates when their similarity signatures are within --within of each other: \
                resized, recompressed, cropped or converted copies of one photo, and the same subject cut out of \
                photos with other backgrounds. Nothing is deleted: the tool suggests, you decide.

                The best of a group is the one with the most pixels; for the same size, the clearly sharper one, \
                else the larger file (the less compressed copy); then the older entry. --keep ID makes ID the best \
                of its group instead; --not-duplicates ID,ID,... says that those entries are not duplicates of each \
                other, and they are never grouped together again. Both are remembered in the catalog.

                Entries made by an older version have no signature until `catalog reprocess` runs. \
                docs/guide.md has more; docs/json.md describes --json.
                """
        )

        @OptionGroup var catalog: CatalogOptions
        @OptionGroup var output: OutputOptions

        @Option(help: ArgumentHelp(
            "How far apart two entries may be (0-\(SimilaritySignature.maximumWithin)); larger finds more, and more wrongly.",
            valueName: "distance"))
        var within: Int = SimilaritySignature.defaultWithin

        @Option(help: ArgumentHelp("Keep this entry of its group: it becomes the group's best.", valueName: "id"))
        var keep: Int64?

        @Option(
            name: .customLong("not-duplicates"),
            help: ArgumentHelp("Mark these entries (comma-separated ids) as not duplicates of each other.", valueName: "ids"))
        var notDuplicates: String?

        func validate() throws {
            guard (0...SimilaritySignature.maximumWithin).contains(within) else {
                throw ValidationError("--within must be from 0 to \(SimilaritySignature.maximumWithin), got \(within)")
            }
            if let notDuplicates, (try? Self.ids(notDuplicates)) == nil {
                throw ValidationError("--not-duplicates takes two or more entry ids separated by commas, got '\(notDuplicates)'")
            }
            if keep != nil && notDuplicates != nil {
                throw ValidationError("--keep and --not-duplicates cannot be given together")
            }
        }

        static func ids(_ text: String) throws -> [Int64] {
            let ids = text.split(separator: ",").map { Int64($0.trimmingCharacters(in: .whitespaces)) }
            guard ids.count >= 2, ids.allSatisfy({ ($0 ?? 0) > 0 }) else { throw ValidationError("ids") }
            return ids.compactMap { $0 }
        }

        func run() async throws {
            let deciding = keep != nil || notDuplicates != nil
            let repository = try await catalog.open(deciding ? .readWrite : .readOnly)
            var groups: [DuplicateGroup]
            do {
                if let notDuplicates {
                    try await repository.markDistinct(try Self.ids(notDuplicates))
                }
                groups = try await DuplicateFinder(store: repository).groups(within: within)
                if let keep {
                    guard let group = groups.first(where: { $0.members.contains { $0.id == keep } }) else {
                        Diagnostics.report("error: entry \(keep) is in no group of near-duplicates within \(within)")
                        throw ExitCode(ExitStatus.dataError.code)
                    }
                    try await repository.keep(keep, of: group.members.map(\.id))
                    groups = try await DuplicateFinder(store: repository).groups(within: within)
                }
            } catch let error as CatalogError {
                throw Diagnostics.exit(for: error)
            }
            if output.json {
                Terminal.standardOutput.write(JSONOutput.document(DuplicatesReport(within: within, groups: groups)))
                return
            }
            Terminal.standardOutput.write(Self.describe(groups, within: within))
        }

        static func describe(_ groups: [DuplicateGroup], within: Int) -> String {
            guard !groups.isEmpty else { return "No near-duplicates within \(within).\n" }
            var lines: [String] = []
            for (number, group) in groups.enumerated() {
                lines.append("Group \(number + 1): \(Counted.entries(group.members.count)), best #\(group.best)\(group.bestChosenByUser ? " (kept by you)" : "")")
                for member in group.members {
                    let mark = member.id == group.best ? "best" : "d=\(member.distance)"
                    lines.append("  #\(member.id)  \(mark)  \(member.width)x\(member.height)  \(Format.bytes(member.fileSize))  \(member.path)")
                }
            }
            let members = groups.reduce(0) { $0 + $1.members.count }
            lines.append("\(Counted(groups.count, "group")), \(Counted.entries(members)) within \(within).")
            return lines.joined(separator: "\n") + "\n"
        }
    }
}

