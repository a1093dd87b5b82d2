import Synchronization

/// Big scratch buffers kept between photos and lent to whichever stage needs one: the network's
/// activation arena (~100 MB) and a large PNG's inflated image data (59 MB at 5120 x 2880 RGBA).
///
/// `import` and `reprocess` work photo after photo, and a fresh buffer that big each time is
/// tens of thousands of fresh zeroed pages a photo (glibc serves blocks over 32 MB with mmap
/// and gives them back with munmap). A buffer here is handed out whole, to one borrower at a
/// time, and kept when returned; since a photo's decode is over before its prediction starts,
/// the two stages of one worker take turns with one buffer instead of faulting in one each.
///
/// Every pooled buffer has the same size: the largest any caller `reserve`d (the network, when
/// it is loaded). A larger request gets a buffer of its own that is freed when returned, so one
/// huge photo does not leave a huge buffer behind.
final class ScratchBuffers: Sendable {
    static let shared = ScratchBuffers()

    private struct State {
        /// The size of a pooled buffer; 0 until something reserves one.
        var poolBytes = 0
        /// Idle pooled buffers, by address (an address is Sendable; the memory is only ever
        /// touched by the one borrower that took it).
        var idle: [UInt] = []
    }

    private let state = Mutex(State())

    deinit {
        for address in state.withLock({ $0.idle }) { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() }
    }

    /// Pooled buffers are at least `bytes` from now on. Idle ones smaller than that are freed.
    func reserve(atLeast bytes: Int) {
        let stale: [UInt] = state.withLock { state in
            guard bytes > state.poolBytes else { return [] }
            state.poolBytes = bytes
            defer { state.idle = [] }
            return state.idle
        }
        for address in stale { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() }
    }

    /// Runs `body` with a buffer of at least `bytes` bytes (64-byte aligned, contents undefined),
    /// which nothing else touches until `body` returns.
    @discardableResult
    func withBuffer<Result, Failure: Error>(
        bytes: Int, _ body: (UnsafeMutableRawPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let (pooled, poolBytes): (UnsafeMutableRawPointer?, Int) = state.withLock { state in
            guard bytes <= state.poolBytes else { return (nil, state.poolBytes) }
            return (state.idle.popLast().flatMap { UnsafeMutableRawPointer(bitPattern: $0) }, state.poolBytes)
        }
        let fitsThePool = bytes <= poolBytes
        let buffer = pooled ?? UnsafeMutableRawPointer.allocate(byteCount: max(1, fitsThePool ? poolBytes : bytes), alignment: 64)
        defer { giveBack(buffer, bytes: fitsThePool ? poolBytes : bytes) }
        return try body(buffer)
    }

    /// Pools a returned buffer when it has the pool's size (which may have grown meanwhile).
    private func giveBack(_ buffer: UnsafeMutableRawPointer, bytes: Int) {
        let address = UInt(bitPattern: Int(bitPattern: buffer))
        let kept = state.withLock { state in
            guard bytes == state.poolBytes, bytes > 0 else { return false }
            state.idle.append(address)
            return true
        }
        if !kept { buffer.deallocate() }
    }
}
