import Foundation
import PackagePlugin

/// Turns every file under the package's `Web/` folder, and the OpenAPI document in `API/`, into
/// generated Swift sources, so the `catalog` binary serves its page and describes its API with no
/// files beside it (as `EmbedMigrations` does for SQL).
@main
struct EmbedWebAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let embedder = try context.tool(named: "asset-embedder").url
        return [
            embedding(folder: "Web", as: "EmbeddedWebAssets", what: "web assets", context: context, embedder: embedder),
            embedding(folder: "API", as: "EmbeddedAPIFiles", what: "API documents", context: context, embedder: embedder),
        ]
    }

    /// The command that writes every file under the package's `folder` into the enum `name`.
    func embedding(folder: String, as name: String, what: String, context: PluginContext, embedder: URL) -> Command {
        let root = context.package.directoryURL.appending(path: folder)
        let files = Self.regularFiles(under: root)
        let output = context.pluginWorkDirectoryURL.appending(path: "\(name).swift")
        return .buildCommand(
            displayName: "Embedding \(files.count) \(what)",
            executable: embedder,
            arguments: ["--name", name, output.path, root.path] + files.map(\.path),
            inputFiles: files,
            outputFiles: [output]
        )
    }

    /// Every regular file under `root`, hidden files and folders left out, in path order.
    static func regularFiles(under root: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]
        ) else { return [] }
        var files: [URL] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            files.append(url)
        }
        return files.sorted { $0.path < $1.path }
    }
}
