import Synchronization

/// Activation arenas kept between predictions, one per prediction running at once: `import` and
/// `reprocess` predict photo after photo, and a fresh 100 MB arena each time would be 25,000
/// fresh pages (~0.1 s of kernel time) per photo. Arenas are handed out whole and never shared
/// by two predictions at the same time.
final class ActivationArenaPool: Sendable {
    let floats: Int
    /// Idle arenas, by address (an address is Sendable; the memory itself is only ever touched by
    /// the one prediction that took it).
    private let idle = Mutex<[UInt]>([])

    init(floats: Int) {
        self.floats = max(16, floats)
    }

    deinit {
        for address in idle.withLock({ $0 }) {
            UnsafeMutableRawPointer(bitPattern: address)?.deallocate()
        }
    }

    /// Runs `body` with an arena of `floats` floats (64-byte aligned, contents undefined).
    func withArena<Result>(_ body: (UnsafeMutablePointer<Float>) throws(ProcessingError) -> Result) throws(ProcessingError) -> Result {
        let address = idle.withLock { $0.popLast() }
        let arena = address.flatMap { UnsafeMutableRawPointer(bitPattern: $0) }
            ?? UnsafeMutableRawPointer.allocate(byteCount: floats * MemoryLayout<Float>.stride, alignment: 64)
        defer {
            let returned = UInt(bitPattern: Int(bitPattern: arena))
            idle.withLock { $0.append(returned) }
        }
        return try body(arena.bindMemory(to: Float.self, capacity: floats))
    }
}
