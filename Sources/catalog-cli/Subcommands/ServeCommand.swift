import ArgumentParser
import Catalog
import CatalogServer
import Foundation
import Processing

extension CatalogCommand {
    /// `catalog serve`: the catalog in a browser, and its HTTP API.
    struct ServeCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the catalog to a browser: see, search, arrange and export stickers.",
            discussion: """
                Prints `Serving PATH at http://HOST:PORT/` (with --json, one JSON object with url, catalog, host, port and token), then serves until Ctrl-C or SIGTERM, which let requests in flight finish and exit 0. The page and the JSON API (/api/..., described at /api/openapi.yaml) are on that address.

                Security: it listens on loopback (127.0.0.1) unless --host names another address, and warns then: anyone who can reach that address can read the catalog. Every change needs the per-run token the page carries (header X-Catalog-Token); requests from other sites' pages (a foreign Origin) and requests naming another Host (DNS rebinding) are refused. Uploaded photos are kept in $XDG_DATA_HOME/sticker-catalog/uploads, named by their SHA-256.
                """
        )

        @OptionGroup var catalog: CatalogOptions
        @OptionGroup var model: ModelOptions

        @Option(help: ArgumentHelp("The address to listen on. Anything but loopback is reachable by other machines.", valueName: "address"))
        var host = "127.0.0.1"

        @Option(help: ArgumentHelp("The port (0 picks a free one).", valueName: "n"))
        var port = 8080

        @Flag(help: "Open the page in the default browser.")
        var open = false

        @Flag(help: "Print the address as a JSON object (url, catalog, host, port, token).")
        var json = false

        @Option(name: .customLong("max-upload"), help: ArgumentHelp("The largest photo an upload may hold, in MB.", valueName: "MB"))
        var maxUploadMB = ServerConfiguration.defaultMaxUploadBytes / (1024 * 1024)

        @Option(help: "Photos processed at once by an import or reprocess started from the page (default: the number of cores).")
        var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

        func validate() throws {
            if !(0...65_535).contains(port) { throw ValidationError("--port must be between 0 and 65535, not \(port)") }
            if host.isEmpty { throw ValidationError("--host needs an address, such as 127.0.0.1") }
            if !(1...100_000).contains(maxUploadMB) { throw ValidationError("--max-upload must be between 1 and 100000 MB, not \(maxUploadMB)") }
            if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        }

        func run() async throws {
            let repository = try await catalog.open(.readWrite)
            if !ServerConfiguration.isLoopback(host) {
                Diagnostics.report("warning: serving on \(host), not loopback: anyone who can reach this address and port can see the catalog (changes still need the page's token)")
            }
            let environment = ProcessInfo.processInfo.environment
            let predictors = LoadedModels(environment: environment)
            let configuration = ServerConfiguration(
                host: host, port: port, maxUploadBytes: maxUploadMB * 1024 * 1024,
                uploadsDirectory: ServerConfiguration.defaultUploadsDirectory(environment: environment),
                jobs: jobs, model: try model.chosen ?? ModelEnvironment.model(in: environment),
                makePredictor: { try predictors.predictor($0) }
            )
            let server = CatalogServer(repository: repository, configuration: configuration)
            let location = catalog.displayName
            let (json, open, token) = (self.json, self.open, configuration.token)
            do {
                try await server.run { url in
                    if json {
                        Terminal.standardOutput.write(JSONOutput.line(Address(
                            url: url.absoluteString, catalog: location, host: url.host ?? "", port: url.port ?? 0, token: token
                        )))
                    } else {
                        Terminal.standardOutput.write("Serving \(location) at \(url.absoluteString)\n")
                    }
                    if open { Self.openBrowser(url) }
                }
            } catch {
                Diagnostics.report("error: cannot serve on \(host):\(port): \(error)")
                throw ExitStatus.ioError
            }
        }

        /// The first line of `--json`.
        struct Address: Encodable {
            let url: String
            let catalog: String
            let host: String
            let port: Int
            let token: String
        }

        /// Starts the desktop's browser on `url` (xdg-open); says so when there is none.
        static func openBrowser(_ url: URL) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["xdg-open", url.absoluteString]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                Diagnostics.report("note: could not open a browser (\(error.localizedDescription)); open \(url.absoluteString) yourself")
            }
        }
    }
}
