import Catalog
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// `catalog serve`: the catalog's HTTP API and its page, on Hummingbird. Build it, then `run()`;
/// SIGINT/SIGTERM stop it gracefully (requests in flight finish, event streams close, a running
/// job is cancelled with its finished entries kept), and `run()` returns.
public struct CatalogServer: Sendable {
    public let configuration: ServerConfiguration
    let api: CatalogAPI
    let port: ServingPort

    public init(repository: any CatalogStore, configuration: ServerConfiguration) {
        self.configuration = configuration
        let hub = ProgressHub()
        api = CatalogAPI(
            repository: repository, configuration: configuration, hub: hub, jobs: JobRunner(hub: hub), previews: CutoutPreviewer(),
            stopping: StoppingFlag())
        port = ServingPort(configuration.port == 0 ? nil : configuration.port)
    }

    /// The routes and the request guard, for running or for tests.
    public func router() -> Router<ServerRequestContext> {
        router(recordingIn: RouteTable())
    }

    /// Every (method, path template) the API answers, as registered, for checking against its document.
    public func routes() -> [APIRoute] {
        let table = RouteTable()
        _ = router(recordingIn: table)
        return table.all
    }

    func router(recordingIn table: RouteTable) -> Router<ServerRequestContext> {
        let router = Router(context: ServerRequestContext.self, options: .autoGenerateHeadEndpoints)
        let uploads = configuration.uploadsDirectory
        router.add(middleware: RequestGuard(
            policy: AccessPolicy(host: configuration.host, token: configuration.token, port: port),
            assets: AssetServer(token: configuration.token),
            stopping: api.stopping,
            routes: table,
            bodyLimit: { request in
                // An upload is bounded per photo as it streams (--max-upload); as a whole, by what the disk can hold.
                if request.method == .post && request.uri.path == "/api/import" { return UploadStore.freeSpace(at: uploads) }
                return Int64(ServerRequestContext.maxBodySize)
            }
        ))
        api.register(on: RecordingRouter(router: router, table: table))
        return router
    }

    /// The application: the router on the configured address, with the services that close the event
    /// streams and stop the job on shutdown. `onRunning` gets the URL once the port is bound.
    public func application(onRunning: @escaping @Sendable (URL) async -> Void = { _ in }) -> some ApplicationProtocol {
        let port = self.port
        let host = configuration.host
        var logger = Logger(label: "catalog-serve")
        logger.logLevel = configuration.logLevel.flatMap(Logger.Level.init(rawValue:)) ?? .warning
        let timeouts = configuration.timeouts
        return Application(
            router: router(),
            server: .http1(configuration: .init(additionalChannelHandlers: [ConnectionDeadlines(timeouts: timeouts)])),
            configuration: ApplicationConfiguration(address: .hostname(host, port: configuration.port), serverName: nil),
            services: [ShutdownCoordinator(hub: api.hub, jobs: api.jobs, stopping: api.stopping)],
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? 0
                port.set(bound)
                let shownHost = host.contains(":") ? "[\(host)]" : host
                await onRunning(URL(string: "http://\(shownHost):\(bound)/")!)
            },
            logger: logger
        )
    }

    /// Serves until SIGINT or SIGTERM, then stops: changes are refused (503) at once, a running job is
    /// stopped (what it finished kept, the page told), the event streams close, then the server takes no
    /// new connections and requests in flight get `shutdownGrace` to finish before what is left is
    /// cancelled. A second signal ends the process at once.
    public func run(onRunning: @escaping @Sendable (URL) async -> Void) async throws {
        let application = application(onRunning: onRunning)
        var configuration = ServiceGroupConfiguration(services: [.init(service: application)], logger: application.logger)
        configuration.maximumGracefulShutdownDuration = self.configuration.shutdownGrace
        let group = ServiceGroup(configuration: configuration)
        let (hub, jobs, stopping) = (api.hub, api.jobs, api.stopping)
        // The job and the streams first: stopping the server first would cut the streams before the
        // page hears how the job ended.
        let watch = SecondSignal.watch(deadline: self.configuration.shutdownGrace + .seconds(5)) {
            Task {
                await ShutdownCoordinator.stop(hub: hub, jobs: jobs, stopping: stopping)
                await group.triggerGracefulShutdown()
            }
        }
        defer { watch.cancel() }
        try await group.run()
    }

    /// Events published so far go to open `/api/events` streams (tests, diagnostics).
    var hub: ProgressHub { api.hub }

    /// Waits for the running import or reprocess job, if any (tests).
    public func waitForJobs() async {
        await api.jobs.wait()
    }
}
