import Testing
@testable import Processing

/// The pool of big scratch buffers: one buffer goes from borrower to borrower, two borrowers at
/// once never share one, and nothing bigger than the pool's size is kept.
@Suite(.timeLimit(.minutes(15)))
struct ScratchBuffersTests {
    @Test func aReturnedBufferIsTheNextBorrowersAndNeverTwoAtOnce() {
        let pool = ScratchBuffers()
        pool.reserve(atLeast: 4096)
        let first = pool.withBuffer(bytes: 4096) { UInt(bitPattern: Int(bitPattern: $0)) }
        let smaller = pool.withBuffer(bytes: 100) { UInt(bitPattern: Int(bitPattern: $0)) }
        #expect(smaller == first)
        let (outer, inner) = pool.withBuffer(bytes: 4096) { outer in
            (UInt(bitPattern: Int(bitPattern: outer)), pool.withBuffer(bytes: 4096) { UInt(bitPattern: Int(bitPattern: $0)) })
        }
        #expect(outer == first && inner != first)
        #expect(UInt(bitPattern: Int(bitPattern: pool.withBuffer(bytes: 4096) { $0 })) % 64 == 0)
    }

    @Test func biggerRequestsAndOlderSizesAreNotKept() {
        let pool = ScratchBuffers()
        pool.reserve(atLeast: 1024)
        let small = pool.withBuffer(bytes: 1024) { UInt(bitPattern: Int(bitPattern: $0)) }
        // Bigger than the pool: a buffer of its own, written end to end, then freed.
        pool.withBuffer(bytes: 1 << 20) { $0.initializeMemory(as: UInt8.self, repeating: 7, count: 1 << 20) }
        #expect(pool.withBuffer(bytes: 1024) { UInt(bitPattern: Int(bitPattern: $0)) } == small)
        // The pool grows: the old, smaller buffer is not handed out again for the new size.
        pool.reserve(atLeast: 1 << 16)
        pool.withBuffer(bytes: 1 << 16) { $0.initializeMemory(as: UInt8.self, repeating: 1, count: 1 << 16) }
    }

    @Test func withoutAReservationEveryBufferIsItsOwn() {
        let pool = ScratchBuffers()
        // Each borrower may write its whole buffer, and what it wrote is there until it returns it.
        let sum = pool.withBuffer(bytes: 300) { buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: 2, count: 300)
            return (0..<300).reduce(0) { $0 + Int(buffer.load(fromByteOffset: $1, as: UInt8.self)) }
        }
        #expect(sum == 600)
        let nested = pool.withBuffer(bytes: 64) { outer in pool.withBuffer(bytes: 64) { inner in outer != inner } }
        #expect(nested, "two borrowers at once never share a buffer")
        pool.withBuffer(bytes: 0) { _ in }
    }
}
