extension KMeans {
    /// Adds centres until there are `count` by splitting, each time, the cluster with the largest
    /// weighted squared error in two along its principal axis, at its mean. Unlike a k-means++ draw,
    /// which picks one sample and so jumps to another pixel when re-encoding moves the colours a
    /// little, each split moves only as much as the cluster's mean and axis do: a photo and its lossy
    /// twins start from nearly the same centres and settle on the same palette. Stops early when no
    /// cluster has any spread left.
    mutating func splitCenters(upTo count: Int) {
        let n = samples.count
        guard n > 0 else { return }
        if centers.isEmpty {
            let all = statistics(of: [Int32](repeating: 0, count: n), clusters: 1)[0]
            guard all.weight > 0 else { return }
            centers = [(Float(all.mean.0), Float(all.mean.1), Float(all.mean.2))]
        }
        while centers.count < count {
            // Every split starts from the nearest-centre clusters, so the one split is the one that is widest now.
            var assigned = nearestCenters()
            let stats = statistics(of: assigned, clusters: centers.count)
            guard let widest = stats.indices.max(by: { stats[$0].error < stats[$1].error }), stats[widest].error > 1e-12 else { return }
            let axis = stats[widest].principalAxis, mean = stats[widest].mean
            let added = Int32(centers.count)
            for i in 0..<n where assigned[i] == Int32(widest) {
                let dl = Double(samples.l[i]) - mean.0, da = Double(samples.a[i]) - mean.1, db = Double(samples.b[i]) - mean.2
                if dl * axis.0 + da * axis.1 + db * axis.2 >= 0 { assigned[i] = added }
            }
            let halves = statistics(of: assigned, clusters: centers.count + 1, only: [widest, Int(added)])
            guard halves[widest].weight > 0, halves[Int(added)].weight > 0 else { return }
            centers[widest] = (Float(halves[widest].mean.0), Float(halves[widest].mean.1), Float(halves[widest].mean.2))
            centers.append((Float(halves[Int(added)].mean.0), Float(halves[Int(added)].mean.1), Float(halves[Int(added)].mean.2)))
        }
    }

    /// A cluster's weight, mean, weighted squared error and covariance (in Double, summed in sample order).
    struct ClusterStatistics {
        var weight = 0.0
        var mean = (0.0, 0.0, 0.0)
        /// Σ w·d² about the mean.
        var error = 0.0
        /// The weighted scatter about the mean (Σ w·d·dᵀ), upper triangle: ll, la, lb, aa, ab, bb.
        var covariance = [Double](repeating: 0, count: 6)

        /// The scatter's dominant eigenvector, by power iteration from the axis of largest spread.
        var principalAxis: (Double, Double, Double) {
            let c = covariance
            var v = [c[0], c[3], c[5]].enumerated().max { $0.element < $1.element }.map { index, _ in
                index == 0 ? (1.0, 0.0, 0.0) : index == 1 ? (0.0, 1.0, 0.0) : (0.0, 0.0, 1.0)
            }!
            for _ in 0..<32 {
                let next = (c[0] * v.0 + c[1] * v.1 + c[2] * v.2, c[1] * v.0 + c[3] * v.1 + c[4] * v.2, c[2] * v.0 + c[4] * v.1 + c[5] * v.2)
                let length = (next.0 * next.0 + next.1 * next.1 + next.2 * next.2).squareRoot()
                guard length > 0 else { break }
                v = (next.0 / length, next.1 / length, next.2 / length)
            }
            return v
        }
    }

    /// Each sample's nearest centre.
    func nearestCenters() -> [Int32] {
        var nearest = [Int32](repeating: 0, count: samples.count)
        for i in 0..<samples.count {
            var best = Float.greatestFiniteMagnitude
            for (c, center) in centers.enumerated() {
                let dl = samples.l[i] - center.l, da = samples.a[i] - center.a, db = samples.b[i] - center.b
                let d = dl * dl + da * da + db * db
                if d < best {
                    best = d
                    nearest[i] = Int32(c)
                }
            }
        }
        return nearest
    }

    /// The statistics of each of `clusters` clusters (of those in `only`, when given; the others are
    /// left empty), the samples assigned by `assignment`. One pass of raw moments: the colours lie in
    /// a unit cube, so E[xy] - E[x]E[y] in Double loses nothing that matters here.
    func statistics(of assignment: [Int32], clusters: Int, only: [Int]? = nil) -> [ClusterStatistics] {
        var counted = [Bool](repeating: only == nil, count: clusters)
        for cluster in only ?? [] { counted[cluster] = true }
        // Per cluster: w, Σwl, Σwa, Σwb, Σwll, Σwla, Σwlb, Σwaa, Σwab, Σwbb.
        var sums = [Double](repeating: 0, count: clusters * 10)
        for i in 0..<samples.count where counted[Int(assignment[i])] {
            let slot = Int(assignment[i]) * 10, w = Double(samples.weight[i])
            let l = Double(samples.l[i]), a = Double(samples.a[i]), b = Double(samples.b[i])
            sums[slot] += w
            sums[slot + 1] += w * l
            sums[slot + 2] += w * a
            sums[slot + 3] += w * b
            sums[slot + 4] += w * l * l
            sums[slot + 5] += w * l * a
            sums[slot + 6] += w * l * b
            sums[slot + 7] += w * a * a
            sums[slot + 8] += w * a * b
            sums[slot + 9] += w * b * b
        }
        return (0..<clusters).map { c in
            var stats = ClusterStatistics()
            let s = sums[(c * 10)..<(c * 10 + 10)].map { $0 }
            guard s[0] > 0 else { return stats }
            let mean = (s[1] / s[0], s[2] / s[0], s[3] / s[0])
            stats.weight = s[0]
            stats.mean = mean
            stats.covariance = [
                s[4] - s[0] * mean.0 * mean.0, s[5] - s[0] * mean.0 * mean.1, s[6] - s[0] * mean.0 * mean.2,
                s[7] - s[0] * mean.1 * mean.1, s[8] - s[0] * mean.1 * mean.2, s[9] - s[0] * mean.2 * mean.2,
            ]
            stats.error = max(0, stats.covariance[0] + stats.covariance[3] + stats.covariance[5])
            return stats
        }
    }
}
