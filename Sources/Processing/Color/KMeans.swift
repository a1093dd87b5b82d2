/// Weighted k-means in Oklab over `PaletteSamples`: centres started by principal-axis splits
/// (`splitCenters`, in KMeans+Splitting.swift), then Lloyd iterations. Nothing is random and sums are
/// accumulated in `Double` in sample order, so results are reproducible bit for bit.
struct KMeans {
    let samples: PaletteSamples
    var centers: [(l: Float, a: Float, b: Float)] = []
    /// The cluster of each sample.
    private var assignment: [Int32]

    init(samples: PaletteSamples) {
        self.samples = samples
        self.assignment = [Int32](repeating: -1, count: samples.count)
    }

    /// Replaces the centres (after merging).
    mutating func setCenters(_ clusters: [PaletteExtractor.Cluster]) {
        centers = clusters.map { (Float($0.color.l), Float($0.color.a), Float($0.color.b)) }
        assignment = [Int32](repeating: -1, count: samples.count)
    }

    /// Lloyd iterations until no sample changes cluster, or `limit` rounds. With `median`, each sample
    /// also weighs 1 / its distance to its centre (Weiszfeld's step): centres move towards their
    /// clusters' geometric medians, which lowers the mean (rather than the mean squared) difference.
    mutating func iterate(limit: Int, median: Bool = false) {
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
                                                let weight = median ? Double(w[i]) / Double(max(bestDistance.squareRoot(), 1e-4)) : Double(w[i])
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
            if !changed && !median { break }
        }
    }

    /// Each centre with the total weight of its samples (as last assigned).
    func clusters() -> [PaletteExtractor.Cluster] {
        var totals = [Double](repeating: 0, count: centers.count)
        for i in 0..<samples.count where assignment[i] >= 0 {
            totals[Int(assignment[i])] += Double(samples.weight[i])
        }
        return centers.indices.map { c in
            .init(color: OklabColor(l: Double(centers[c].l), a: Double(centers[c].a), b: Double(centers[c].b)), weight: totals[c])
        }
    }
}
