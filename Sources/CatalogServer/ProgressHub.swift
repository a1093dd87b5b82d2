import Foundation
import Synchronization

/// One Server-Sent Event: its name and its JSON data.
struct ServerEvent: Sendable, Equatable {
    let name: String
    let data: String

    init(name: String, json value: some Encodable) {
        self.name = name
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        data = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The event as it goes on the wire.
    var text: String { "event: \(name)\ndata: \(data)\n\n" }
}

/// Hands every published event to every open `GET /api/events` stream. Each subscriber keeps at most
/// `bufferSize` unread events (the oldest are dropped for a slow reader), so memory stays bounded.
final class ProgressHub: Sendable {
    static let bufferSize = 256

    private struct State {
        var subscribers: [UUID: AsyncStream<ServerEvent>.Continuation] = [:]
        var closed = false
    }

    private let state = Mutex(State())

    /// A new stream of events and a way to end it; it ends too when the client goes or the server stops.
    func subscribe() -> (events: AsyncStream<ServerEvent>, end: @Sendable () -> Void) {
        let (stream, continuation) = AsyncStream<ServerEvent>.makeStream(bufferingPolicy: .bufferingNewest(Self.bufferSize))
        let id = UUID()
        let closed = state.withLock { state in
            if !state.closed { state.subscribers[id] = continuation }
            return state.closed
        }
        if closed { continuation.finish() }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return (stream, { continuation.finish() })
    }

    func publish(_ event: ServerEvent) {
        for continuation in state.withLock({ Array($0.subscribers.values) }) {
            continuation.yield(event)
        }
    }

    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Ends every stream (the server is stopping), so no open event stream holds the shutdown up.
    func close() {
        let all = state.withLock { state in
            state.closed = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for continuation in all { continuation.finish() }
    }
}
