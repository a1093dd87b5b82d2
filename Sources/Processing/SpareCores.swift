import Foundation
import Synchronization

/// The cores a batch of photos (an import, a reprocess) was given that none of its photos holds at
/// the moment. A batch runs `jobs` photos at once, one core each; when fewer are in flight (the
/// last photos of a batch, or a batch of one) a photo's network borrows a free core for each large
/// layer and runs part of the layer's rows on it (`SharedRows`), so no core the user gave sits idle.
///
/// The batch runs each photo in `holding(_:)`, which holds a core for it and binds the budget to
/// `SpareCores.current`, where the network finds it. A borrowed core is given back at the end of the layer, so a
/// photo that starts meanwhile waits for it at most one layer (a few milliseconds).
public final class SpareCores: Sendable {
    /// The budget of the batch the current task works for (nil outside a batch: no borrowing).
    @TaskLocal public static var current: SpareCores?

    /// Cores the batch may use at once: its jobs, at most the cores this process may run on.
    public let capacity: Int
    private let state = Mutex<(holders: Int, lent: Int)>((0, 0))

    public init(jobs: Int, cores: Int = ProcessInfo.processInfo.activeProcessorCount) {
        capacity = max(1, min(jobs, cores))
    }

    /// Runs one photo's `work` holding a core, with this budget as `current` for it.
    public func holding<Output: Sendable>(_ work: () async -> Output) async -> Output {
        enter()
        defer { leave() }
        return await SpareCores.$current.withValue(self) { await work() }
    }

    /// A photo starts: it holds a core until `leave()`.
    func enter() {
        state.withLock { $0.holders += 1 }
    }

    /// A photo is done with its core.
    func leave() {
        state.withLock { $0.holders = max(0, $0.holders - 1) }
    }

    /// Takes a core nobody holds or has borrowed, if there is one; `giveBack()` returns it.
    func borrow() -> Bool {
        state.withLock { state in
            guard state.holders + state.lent < capacity else { return false }
            state.lent += 1
            return true
        }
    }

    func giveBack() {
        state.withLock { $0.lent = max(0, $0.lent - 1) }
    }

    /// True when a photo started after cores were lent and now needs one of them: a borrower that keeps
    /// its core for longer than a layer (a clip's frames, `FrameWorkers`) checks this between pieces of
    /// work and gives its core back, so the photo waits for it at most one piece.
    var isOverdrawn: Bool {
        state.withLock { $0.holders + $0.lent > capacity }
    }
}
