import Hummingbird

/// The request context of `catalog serve`. JSON bodies are small (pack edits, settings); uploads are
/// streamed by their own route and bounded per file, never collected through this limit.
public struct ServerRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    /// The largest JSON body accepted.
    public static let maxBodySize = 1024 * 1024

    public var maxUploadSize: Int { Self.maxBodySize }
}
