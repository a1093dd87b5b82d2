import Foundation
import PackagePlugin

/// Turns every file under the package's `Web/` folder into a generated Swift source, so the
/// `catalog` binary serves its page with no files beside it (as `EmbedMigrations` does for SQL).
@main
struct EmbedWebAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let web = context.package.directoryURL.appending(path: "Web")
        let files = Self.regularFiles(under: web)
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedWebAssets.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) web assets",
                executable: try context.tool(named: "asset-embedder").url,
                arguments: [output.path, web.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            )
        ]
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
