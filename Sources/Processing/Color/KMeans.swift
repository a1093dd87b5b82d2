/// Weighted k-means in Oklab over `PaletteSamples`: a greedy k-means++ start drawn from a constant-seeded
/// generator, then Lloyd iterations. Sums are accumulated in `Double` in sample order, so results are
/// reproducible bit for bit.
struct KMeans {
    let samples: PaletteSamples
    private(set) var centers: [(l: Float, a: Float, b: Float)] = []
    /// The cluster of each sample.
    private var assignment: [Int32]

    init(samples: PaletteSamples) {
        self.samples = samples
        self.assignment = [Int32](repeating: -1, count: samples.count)
    }

    /// Chooses up to `count` starting centres: the first and each next drawn with probability proportional
    /// to weight × squared distance to the nearest centre so far, keeping the best of a few draws (the
    /// one that lowers the total most). Stops early when every sample sits on a centre.
    mutating func seed(count: Int) {
        var random = SplitMix64(seed: 0x5EED_C0105)
        let n = samples.count
        var nearest = [Float](repeating: .greatestFiniteMagnitude, count: n)
        var candidateNearest = [Float](repeating: 0, count: n)
        var bestNearest = [Float](repeating: 0, count: n)
        let trials = 2 + Int(Double(count).squareRoot())
        for index in 0..<count {
            var potential = 0.0
            for i in 0..<n { potential += Double(samples.weight[i]) * Double(index == 0 ? 1 : nearest[i]) }
            guard potential > 0 else { return }
            var bestCost = Double.infinity
            var bestSample = 0
            for _ in 0..<(index == 0 ? 1 : trials) {
                let sample = pick(potential: potential, nearest: nearest, first: index == 0, random: &random)
                let cost = distances(to: sample, nearest: nearest, into: &candidateNearest)
                if cost < bestCost {
                    bestCost = cost
                    bestSample = sample
                    swap(&bestNearest, &candidateNearest)
                }
            }
            centers.append((samples.l[bestSample], samples.a[bestSample], samples.b[bestSample]))
            swap(&nearest, &bestNearest)
        }
    }

    /// A sample drawn with probability proportional to weight (first centre) or weight × `nearest`.
    private func pick(potential: Double, nearest: [Float], first: Bool, random: inout SplitMix64) -> Int {
        let target = random.nextUnit() * potential
        var running = 0.0
        for i in 0..<samples.count {
            running += Double(samples.weight[i]) * Double(first ? 1 : nearest[i])
            if running > target { return i }
        }
        // Rounding left the target past the end: the last sample with any mass.
        return (0..<samples.count).last { samples.weight[$0] > 0 && (first || nearest[$0] > 0) } ?? 0
    }

    /// Squared distances to the nearest centre if `sample` were added; returns the weighted total.
    private func distances(to sample: Int, nearest: [Float], into result: inout [Float]) -> Double {
        let cl = samples.l[sample], ca = samples.a[sample], cb = samples.b[sample]
        var cost = 0.0
        samples.l.withUnsafeBufferPointer { l in
            samples.a.withUnsafeBufferPointer { a in
                samples.b.withUnsafeBufferPointer { b in
                    samples.weight.withUnsafeBufferPointer { w in
                        result.withUnsafeMutableBufferPointer { out in
                            for i in 0..<out.count {
                                let dl = l[i] - cl, da = a[i] - ca, db = b[i] - cb
                                let d = min(dl * dl + da * da + db * db, nearest[i])
                                out[i] = d
                                cost += Double(w[i] * d)
                            }
                        }
                    }
                }
            }
        }
        return cost
    }

    /// Lloyd iterations until no sample changes cluster, or `limit` rounds.
    mutating func iterate(limit: Int) {
        let k = centers.count
        guard k > 0 else { return }
        for _ in 0..<limit {
            var sums = [Double](repeating: 0, count: k * 4)
            var changed = false
            var centerL = centers.map(\.l), centerA = centers.map(\.a), centerB = centers.map(\.b)
            samples.l.withUnsafeBufferPointer { l in
                samples.a.withUnsafeBufferPointer { a in
                    samples.b.withUnsafeBufferPointer { b in
                        samples.weight.withUnsafeBufferPointer { w in
                            assignment.withUnsafeMutableBufferPointer { assigned in
                                centerL.withUnsafeMutableBufferPointer { cl in
                                    centerA.withUnsafeMutableBufferPointer { ca in
                                        centerB.withUnsafeMutableBufferPointer { cb in
                                            for i in 0..<assigned.count {
                                                var best: Int32 = 0
                                                var bestDistance = Float.greatestFiniteMagnitude
                                                for c in 0..<k {
                                                    let dl = l[i] - cl[c], da = a[i] - ca[c], db = b[i] - cb[c]
                                                    let d = dl * dl + da * da + db * db
                                                    if d < bestDistance {
                                                        bestDistance = d
                                                        best = Int32(c)
                                                    }
                                                }
                                                if assigned[i] != best {
                                                    assigned[i] = best
                                                    changed = true
                                                }
                                                let slot = Int(best) * 4
                                                let weight = Double(w[i])
                                                sums[slot] += weight
                                                sums[slot + 1] += weight * Double(l[i])
                                                sums[slot + 2] += weight * Double(a[i])
                                                sums[slot + 3] += weight * Double(b[i])
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            for c in 0..<k where sums[c * 4] > 0 {
                let weight = sums[c * 4]
                centers[c] = (Float(sums[c * 4 + 1] / weight), Float(sums[c * 4 + 2] / weight), Float(sums[c * 4 + 3] / weight))
            }
            if !changed { break }
        }
    }

    /// Each centre with the total weight of its samples (as last assigned).
    func clusters() -> [PaletteExtractor.Cluster] {
        var totals = [Double](repeating: 0, count: centers.count * 4)
        for i in 0..<samples.count where assignment[i] >= 0 {
            let slot = Int(assignment[i]) * 4
            let weight = Double(samples.weight[i])
            totals[slot] += weight
            totals[slot + 1] += weight * Double(samples.l[i])
            totals[slot + 2] += weight * Double(samples.a[i])
            totals[slot + 3] += weight * Double(samples.b[i])
        }
        return centers.indices.map { c in
            let weight = totals[c * 4]
            guard weight > 0 else { return .init(color: OklabColor(l: 0, a: 0, b: 0), weight: 0) }
            return .init(
                color: OklabColor(l: totals[c * 4 + 1] / weight, a: totals[c * 4 + 2] / weight, b: totals[c * 4 + 3] / weight),
                weight: weight
            )
        }
    }
}

/// A small, fast generator with a fixed seed (Steele, Lea and Flood's SplitMix64): the k-means++ draws are
/// the same on every run and platform.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
        z = (z ^ (z >> 27)) &* 0x94D4_9BB9_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
