import ArgumentParser

/// The `catalog` command: lists the subcommands; each lives in its own file.
@main
struct CatalogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "A catalog of stickers cut out of your photos."
    )
}
