import Foundation
import PackagePlugin

/// Turns the package's `Migrations/*.sql` files (SQLite) and `Migrations/PostgreSQL/*.sql` into generated
/// Swift sources, so the `catalog` binary carries both schema histories and needs no resource bundle beside it.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let migrations = context.package.directoryURL.appending(path: "Migrations")
        let embedder = try context.tool(named: "migration-embedder").url
        return try [
            ("EmbeddedMigrations", migrations, "SQLite"),
            ("EmbeddedPostgresMigrations", migrations.appending(path: "PostgreSQL"), "PostgreSQL"),
        ].map { name, folder, engine in
            let sqlFiles = try Self.sqlFiles(in: folder)
            let output = context.pluginWorkDirectoryURL.appending(path: "\(name).swift")
            return .buildCommand(
                displayName: "Embedding \(sqlFiles.count) \(engine) migrations",
                executable: embedder,
                arguments: [output.path, "--name", name] + sqlFiles.map(\.path),
                inputFiles: sqlFiles,
                outputFiles: [output]
            )
        }
    }

    /// The `.sql` files directly in `folder` (not in its subfolders), by name.
    private static func sqlFiles(in folder: URL) throws -> [URL] {
        try FileManager.default
            .contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
