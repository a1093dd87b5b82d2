/// Places a network's activations in one arena: each tensor gets an offset such that no two
/// tensors alive at the same step overlap. Greedy by size (largest first, each at the lowest
/// offset that fits among the already placed tensors it coexists with), as TensorFlow Lite's
/// arena planner does; for u2netp at 320 x 320 this needs about the peak of live activations
/// (~115 MB) where a pool of whole reusable buffers needed 183 MB. In a one-shot process every
/// byte of the arena is a fresh page the kernel must fault in and clear, so its size is time.
enum ActivationPlanner {
    /// A tensor's size in floats and the steps it is alive for: written at `first`, last read at
    /// `last` (inclusive; a step's output never overlaps its inputs, whose lifetimes include it).
    struct Lifetime: Equatable {
        var count: Int
        var first: Int
        var last: Int
    }

    /// Offsets (in floats, multiples of `alignment`) for each lifetime, and the arena's size.
    static func plan(_ lifetimes: [Lifetime], alignment: Int = 16) -> (offsets: [Int], arenaCount: Int) {
        var offsets = [Int](repeating: 0, count: lifetimes.count)
        var placed: [(offset: Int, end: Int, first: Int, last: Int)] = []
        let bySize = lifetimes.indices.sorted {
            lifetimes[$0].count != lifetimes[$1].count ? lifetimes[$0].count > lifetimes[$1].count : $0 < $1
        }
        for index in bySize {
            let tensor = lifetimes[index]
            let size = (tensor.count + alignment - 1) / alignment * alignment
            let overlapping = placed
                .filter { $0.first <= tensor.last && tensor.first <= $0.last }
                .sorted { $0.offset < $1.offset }
            var offset = 0
            for other in overlapping {
                if offset + size <= other.offset { break }
                offset = max(offset, other.end)
            }
            offsets[index] = offset
            placed.append((offset, offset + size, tensor.first, tensor.last))
        }
        return (offsets, placed.map(\.end).max() ?? 0)
    }
}
