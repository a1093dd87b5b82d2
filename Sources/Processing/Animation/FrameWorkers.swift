import Synchronization

/// Runs one clip's per-frame work (the network, the clean-up, the render) on as many cores as its
/// batch can spare, frame by frame, with the results in frame order.
///
/// A clip is one item of a batch and holds one core (`SpareCores.holding`); a still's network borrows
/// a spare core for a large layer's rows, but a clip has 90 frames of independent work, and a whole
/// frame on each core wastes nothing on splitting a layer and waiting for both halves. So the clip's
/// own task works through the frames, and before each frame it borrows whatever core the batch has
/// spare and starts a helper on it that takes frames from the same queue. A helper gives its core back
/// as soon as a photo of the batch needs one (`SpareCores.isOverdrawn`, checked between frames, so the
/// photo waits at most one frame), and when the frames run out. Outside a batch, with `--jobs 1`, or
/// while the batch's other cores are busy, every frame runs on the clip's own task, as before.
///
/// The work for a frame must depend on its index alone: which worker runs it never changes the result.
enum FrameWorkers {
    /// `body(index)` for every index in `0..<count`, in index order. A failure stops the workers from
    /// starting more frames; the error thrown is that of the lowest failing index, as a loop in order
    /// would throw (frames are taken in order, so every lower index has been run).
    static func map<Output: Sendable>(
        count: Int, _ body: @escaping @Sendable (Int) throws(ProcessingError) -> Output
    ) async throws(ProcessingError) -> [Output] {
        let queue = Queue(count: count)
        let cores = SpareCores.current
        let done = await withTaskGroup(of: [(Int, Result<Output, ProcessingError>)].self) { group in
            var done: [(Int, Result<Output, ProcessingError>)] = []
            done.reserveCapacity(count)
            while true {
                // Borrowed between frames, when this task's network holds no core of the batch.
                while let cores, cores.borrow() {
                    group.addTask { await help(queue, cores: cores, body: body) }
                }
                guard let index = queue.take() else { break }
                done.append((index, queue.run(body, index)))
            }
            for await helped in group { done.append(contentsOf: helped) }
            return done
        }
        var results = [Result<Output, ProcessingError>?](repeating: nil, count: count)
        for (index, result) in done { results[index] = result }
        var outputs: [Output] = []
        outputs.reserveCapacity(count)
        for result in results {
            // A nil is a frame never started after an earlier failure; that failure comes first.
            guard let result else { break }
            outputs.append(try result.get())
        }
        guard outputs.count == count else { throw .encodingFailed("a clip's frame was left unprocessed") }
        return outputs
    }

    /// A helper on a borrowed core: frames from the queue until none is left or the batch needs the core.
    @concurrent
    private static func help<Output: Sendable>(
        _ queue: Queue, cores: SpareCores, body: @Sendable (Int) throws(ProcessingError) -> Output
    ) async -> [(Int, Result<Output, ProcessingError>)] {
        defer { cores.giveBack() }
        var done: [(Int, Result<Output, ProcessingError>)] = []
        while !cores.isOverdrawn, let index = queue.take() {
            done.append((index, queue.run(body, index)))
        }
        return done
    }

    /// The next frame to run, shared by the workers; closed for new frames once one has failed.
    private final class Queue: Sendable {
        let count: Int
        private let next = Atomic<Int>(0)
        private let failed = Atomic<Bool>(false)

        init(count: Int) {
            self.count = count
        }

        func take() -> Int? {
            guard !failed.load(ordering: .relaxed) else { return nil }
            let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
            return index < count ? index : nil
        }

        func run<Output>(_ body: (Int) throws(ProcessingError) -> Output, _ index: Int) -> Result<Output, ProcessingError> {
            do throws(ProcessingError) {
                return .success(try body(index))
            } catch {
                failed.store(true, ordering: .relaxed)
                return .failure(error)
            }
        }
    }
}
