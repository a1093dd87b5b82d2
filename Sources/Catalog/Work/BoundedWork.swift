import Processing

/// The loop import and reprocess share: a task group with at most `jobs` items in flight, each worked
/// on in a child task (off every actor), each result handed to `finished` as it completes, in the
/// caller's context (where the repository commits it).
///
/// Each item holds one of the `jobs` cores while it runs (`SpareCores`); when fewer items are in
/// flight, an item's network borrows the free ones for its largest layers.
///
/// When the calling task is cancelled (SIGINT/SIGTERM) no new item starts, and the items in flight
/// still reach `finished`, so finished work is committed. An error thrown by `next` or `finished`
/// (a catalog failure) cancels the rest and is rethrown; nothing more is committed after it.
enum BoundedWork {
    static func run<Item: Sendable, Output: Sendable>(
        jobs: Int,
        inOrder: Bool = false,
        next: () throws(CatalogError) -> Item?,
        work: @escaping @Sendable (Item) async -> Output,
        finished: (Output) async throws(CatalogError) -> Void
    ) async throws(CatalogError) {
        let jobs = max(1, jobs)
        // The cores no item holds, for an item's network to borrow (the last items, or a lone one).
        let cores = SpareCores(jobs: jobs)
        let result: Result<Void, CatalogError> = await withTaskGroup(of: (Int, Output).self) { group in
            var inFlight = 0
            var started = 0
            var delivered = 0
            var waiting: [Int: Output] = [:]
            func mayStart() -> Bool {
                inFlight < jobs && !Task.isCancelled && (!inOrder || started - delivered < 2 * jobs)
            }
            func startNext() throws(CatalogError) -> Bool {
                guard let item = try next() else { return false }
                let number = started
                group.addTask { (number, await cores.holding { await work(item) }) }
                started += 1
                inFlight += 1
                return true
            }
            do throws(CatalogError) {
                var more = true
                while more, mayStart() { more = try startNext() }
                while let (number, output) = await group.next() {
                    inFlight -= 1
                    if inOrder {
                        waiting[number] = output
                        while let ready = waiting.removeValue(forKey: delivered) {
                            delivered += 1
                            try await finished(ready)
                        }
                    } else {
                        delivered += 1
                        try await finished(output)
                    }
                    while more, mayStart() { more = try startNext() }
                }
                return .success(())
            } catch {
                group.cancelAll()
                return .failure(error)
            }
        }
        try result.get()
    }
}
