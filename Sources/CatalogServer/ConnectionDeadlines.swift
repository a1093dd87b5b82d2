import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// The wire's time limits, as nginx's `client_header_timeout`, `client_body_timeout` and
/// `keepalive_timeout`: how long a connection may take to send a request's head, how long it may
/// pause within a body, and how long it may sit idle between requests.
public struct ConnectionTimeouts: Sendable, Equatable {
    /// From the connection's start to the end of the first request's head.
    public var header: Duration
    /// Between two parts of a request's body.
    public var body: Duration
    /// Between the end of an answer and the next request's head on a kept-alive connection.
    public var idle: Duration

    public static let standard = ConnectionTimeouts(header: .seconds(30), body: .seconds(30), idle: .seconds(60))

    public init(header: Duration, body: Duration, idle: Duration) {
        self.header = header
        self.body = body
        self.idle = idle
    }
}

/// Closes a connection that keeps the server waiting past its ``ConnectionTimeouts``, and one whose
/// answer said `Connection: close` while its body was still coming (a 413 for a declared length
/// over the limit is sent before the body is read, and the body is then not drained). It sits after
/// the HTTP codec, so it sees whole heads and body parts; an answer being written is never timed.
final class ConnectionDeadlines: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum Phase {
        /// Waiting for a request's head: the first (header timeout) or a later one (idle timeout).
        case waitingForHead(first: Bool)
        /// The head came and the body is being read.
        case readingBody
        /// The request was read whole; the answer is being made.
        case answering
    }

    private let timeouts: ConnectionTimeouts
    private var phase = Phase.waitingForHead(first: true)
    private var timer: Scheduled<Void>?
    private var closesAfterAnswer = false
    /// The answer went out before the request's body was read whole (a refusal); the rest is drained.
    private var answeredEarly = false

    init(timeouts: ConnectionTimeouts) {
        self.timeouts = timeouts
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            phase = .readingBody
            answeredEarly = false
        case .body:
            break
        case .end:
            phase = answeredEarly ? .waitingForHead(first: false) : .answering
            answeredEarly = false
        }
        arm(context)
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        if case .head(let head) = part, head.headerFields[.connection]?.lowercased() == "close", case .readingBody = phase {
            closesAfterAnswer = true
        }
        guard case .end = part else {
            context.write(data, promise: promise)
            return
        }
        if closesAfterAnswer {
            // The rest of the body is not wanted: close once the answer is out, instead of reading it.
            let written = promise ?? context.eventLoop.makePromise()
            let channel = context.channel
            written.futureResult.whenComplete { _ in channel.close(promise: nil) }
            context.write(data, promise: written)
            return
        }
        switch phase {
        case .answering: phase = .waitingForHead(first: false)
        case .readingBody: answeredEarly = true
        case .waitingForHead: break
        }
        arm(context)
        context.write(data, promise: promise)
    }

    /// (Re)starts the timer for the current phase.
    private func arm(_ context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        let limit: Duration
        switch phase {
        case .waitingForHead(let first): limit = first ? timeouts.header : timeouts.idle
        case .readingBody: limit = timeouts.body
        case .answering: return
        }
        let nanoseconds = limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) { channel.close(promise: nil) }
    }
}
