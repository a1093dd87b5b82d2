import Catalog
import Synchronization
import Foundation

/// What an import or reprocess job reports, as SSE events on `GET /api/events`:
/// `job` `{"id","kind","state":"started","total"}` when it starts; `progress` `{"id","kind","done","total","event"}`
/// for each photo (`event` is the CLI's `--json` event line); `job` `{"id","kind","state":"finished","summary"}`
/// or `{"id","kind","state":"failed","error":{"code","message"}}` at the end.
struct JobMessage: Encodable, Sendable {
    struct Failure: Encodable, Sendable {
        let code: String
        let message: String
    }

    let id: Int
    let kind: String
    var state: String?
    var total, done: Int?
    /// The CLI's `--json` line of one photo, or of the summary.
    var event, summary: JSONValue?
    var error: Failure?
}

/// An already-encoded JSON value, nested as is.
struct JSONValue: Encodable, Sendable {
    let json: String

    init(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        json = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(RawJSON(json))
    }
}

/// JSONEncoder has no raw value, so decode once into a generic tree and re-encode it.
private indirect enum RawJSON: Codable, Sendable {
    case null, bool(Bool), number(Double), integer(Int64), string(String), array([RawJSON]), object([String: RawJSON])

    init(_ text: String) {
        self = (try? JSONDecoder().decode(RawJSON.self, from: Data(text.utf8))) ?? .null
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([RawJSON].self) { self = .array(value) }
        else { self = .object(try container.decode([String: RawJSON].self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

/// Counts progress events, which arrive from the job's tasks.
private final class Counter: Sendable {
    private let value = Mutex(0)

    /// The count after this event: one more when it `advances` (a file done), the same otherwise.
    func next(advances: Bool = true) -> Int {
        value.withLock { value in
            if advances { value += 1 }
            return value
        }
    }
}

/// Runs one import or reprocess at a time in the background (a second one is refused with 409),
/// publishing its progress; cancelled and awaited when the server stops, so finished entries are
/// committed and the catalog is left consistent.
actor JobRunner {
    /// The job as the POST answer shows it. JSON: `{"id","kind","total"}`.
    struct Job: Encodable, Sendable {
        let id: Int
        let kind: String
        let total: Int
    }

    private let hub: ProgressHub
    private var nextId = 1
    private var running: (job: Job, task: Task<Void, Never>)?
    private var stopped = false

    init(hub: ProgressHub) {
        self.hub = hub
    }

    var current: Job? { running?.job }

    /// Starts `work`, which reports each step through the given closure and returns its summary; an event
    /// that does not `advance` (a warning, a note about the file before) leaves `done` where it was.
    func start(
        kind: String, total: Int,
        work: @escaping @Sendable (_ progress: @escaping @Sendable (_ event: JSONValue, _ advances: Bool) -> Void) async throws -> JSONValue
    ) throws(APIError) -> Job {
        if stopped { throw APIError.stopping }
        if let running {
            throw APIError(.conflict, "job-running", "a \(running.job.kind) is running (job \(running.job.id)); wait for it to finish")
        }
        let job = Job(id: nextId, kind: kind, total: total)
        nextId += 1
        let hub = hub
        hub.publish(ServerEvent(name: "job", json: JobMessage(id: job.id, kind: kind, state: "started", total: total)))
        let task = Task {
            let done = Counter()
            do {
                let summary = try await work { event, advances in
                    let count = done.next(advances: advances)
                    hub.publish(ServerEvent(name: "progress", json: JobMessage(id: job.id, kind: kind, total: total, done: count, event: event)))
                }
                // Stopped by the server's shutdown: what finished is kept, and the page is told the rest was not done.
                let state = Task.isCancelled ? "interrupted" : "finished"
                hub.publish(ServerEvent(name: "job", json: JobMessage(id: job.id, kind: kind, state: state, summary: summary)))
            } catch let error as APIError {
                hub.publish(ServerEvent(name: "job", json: JobMessage(id: job.id, kind: kind, state: "failed", error: .init(code: error.code, message: error.message))))
            } catch {
                hub.publish(ServerEvent(name: "job", json: JobMessage(id: job.id, kind: kind, state: "failed", error: .init(code: "failed", message: "\(error)"))))
            }
            self.finished(job.id)
        }
        running = (job, task)
        return job
    }

    private func finished(_ id: Int) {
        if running?.job.id == id { running = nil }
    }

    /// Waits for the running job, if any, to end.
    func wait() async {
        await running?.task.value
    }

    /// Refuses new jobs, cancels the running one and waits for it (its finished work is kept).
    func stop() async {
        stopped = true
        running?.task.cancel()
        await running?.task.value
    }
}
