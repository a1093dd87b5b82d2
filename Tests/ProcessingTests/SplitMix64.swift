/// A small, fast generator with a fixed seed (Steele, Lea and Flood's SplitMix64): the tests' random
/// inputs are the same on every run and platform.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    init(state: UInt64) {
        self.init(seed: state)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// In 0..<bound (the remainder: a bias too small for tests to notice).
    mutating func next(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// Uniform in [0, 1).
    mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
