/// The dominant colours of a cut-out's subject, clustered in Oklab.
///
/// Only the subject counts: each pixel weighs its alpha (transparent background pixels weigh nothing; the
/// white outline is drawn later, so it is never in the cut-out). The image is sampled on a regular grid of
/// at most 256×256 points, clustered with k-means (a seeded, greedy k-means++ start, then Lloyd iterations),
/// and clusters closer than ``mergeDistance`` are merged. Everything is sequential and seeded with a
/// constant, so the same pixels give the same palette, bit for bit.
public enum PaletteExtractor {
    /// The most colours a palette may have (and the catalog's `--colors` limit).
    public static let colorLimit = 16
    /// Samples taken at most (a 256×256 grid): more adds time, not accuracy.
    static let sampleLimit = 65_536
    /// Clusters closer than this Oklab ΔE are one colour to the eye, and are merged.
    public static let mergeDistance = 2.5
    /// Lloyd iterations at most; they usually settle (no point changes cluster) well before.
    static let iterationLimit = 40

    /// Up to `colors` (clamped to 1...16) dominant colours of `cutout`, largest share first.
    /// An image with no opaque pixel has an empty palette.
    public static func palette(of cutout: RGBAImage, colors: Int) -> Palette {
        let samples = PaletteSamples(cutout, limit: sampleLimit)
        guard samples.count > 0, samples.totalWeight > 0 else { return Palette() }
        var clustering = KMeans(samples: samples)
        clustering.seed(count: min(max(colors, 1), colorLimit))
        clustering.iterate(limit: iterationLimit)
        var clusters = clustering.clusters()
        merge(&clusters)
        let total = clusters.reduce(0) { $0 + $1.weight }
        let ordered = clusters.filter { $0.weight > 0 }.sorted { left, right in
            if left.weight != right.weight { return left.weight > right.weight }
            return (left.color.l, left.color.a, left.color.b) < (right.color.l, right.color.a, right.color.b)
        }
        return Palette(colors: ordered.map { cluster in
            PaletteColor(
                hex: cluster.color.srgb.hex, l: cluster.color.l, a: cluster.color.a, b: cluster.color.b,
                share: min(cluster.weight / total, 1)
            )
        })
    }

    /// A weighted colour: a cluster's mean and its total alpha weight.
    struct Cluster {
        var color: OklabColor
        var weight: Double
    }

    /// Merges the closest pair (weighted mean) while any two clusters are within ``mergeDistance``.
    static func merge(_ clusters: inout [Cluster]) {
        clusters.removeAll { $0.weight <= 0 }
        while clusters.count > 1 {
            var closest: (Int, Int, Double)?
            for i in 0..<clusters.count {
                for j in (i + 1)..<clusters.count {
                    let distance = clusters[i].color.deltaE(clusters[j].color)
                    if distance < mergeDistance, distance < closest?.2 ?? .infinity { closest = (i, j, distance) }
                }
            }
            guard let (i, j, _) = closest else { return }
            let left = clusters[i], right = clusters[j]
            let weight = left.weight + right.weight
            func mean(_ x: Double, _ y: Double) -> Double { (x * left.weight + y * right.weight) / weight }
            clusters[i] = Cluster(
                color: OklabColor(l: mean(left.color.l, right.color.l), a: mean(left.color.a, right.color.a), b: mean(left.color.b, right.color.b)),
                weight: weight
            )
            clusters.remove(at: j)
        }
    }
}
