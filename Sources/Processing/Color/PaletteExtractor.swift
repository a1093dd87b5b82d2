/// The dominant colours of a cut-out's subject, clustered in Oklab (with toe-corrected lightness, see
/// ``ToeCorrectedOklab``; the palette is stored in plain Oklab).
///
/// Only the subject counts: each pixel weighs its alpha (transparent background pixels weigh nothing; the
/// white outline is drawn later, so it is never in the cut-out). The image is sampled on a regular grid of
/// at most 256×256 points, clustered with k-means (started by splitting the widest cluster along its
/// principal axis, then Lloyd iterations), and clusters closer than ``mergeDistance`` are merged.
/// Everything is sequential and nothing is random, so the same pixels give the same palette, bit for bit;
/// and since each split follows its cluster's mean and axis, a lossy twin of a photo (JPEG, WebP, AVIF)
/// gets the same colours (within ΔE 5, share-weighted; `palette-bench --twins`).
public enum PaletteExtractor {
    /// The most colours a palette may have (and the catalog's `--colors` limit).
    public static let colorLimit = 16
    /// Samples taken at most (a 256×256 grid): more adds time, not accuracy.
    static let sampleLimit = 65_536
    /// Clusters closer than this ΔE (toe-corrected Oklab) are one colour to the eye, and are merged.
    public static let mergeDistance = 2.5
    /// Weiszfeld (median) iterations after Lloyd's.
    static let medianIterations = 6
    /// Lloyd iterations at most; they usually settle (no point changes cluster) well before.
    static let iterationLimit = 40

    /// Up to `colors` (clamped to 1...16) dominant colours of `cutout`, largest share first.
    /// An image with no opaque pixel has an empty palette.
    public static func palette(of cutout: RGBAImage, colors: Int) -> Palette {
        let samples = PaletteSamples(cutout, limit: sampleLimit)
        guard samples.count > 0, samples.totalWeight > 0 else { return Palette() }
        let count = min(max(colors, 1), colorLimit)
        var clustering = KMeans(samples: samples)
        clustering.splitCenters(upTo: count)
        clustering.iterate(limit: iterationLimit)
        var clusters = clustering.clusters()
        // Merging near-identical clusters frees colours: split the widest clusters again and settle
        // again, a few times at most (an image with fewer distinct colours ends with fewer).
        for _ in 0..<3 {
            let before = clusters.count
            merge(&clusters)
            guard clusters.count < before, clusters.count < count else { break }
            clustering.setCenters(clusters)
            clustering.splitCenters(upTo: count)
            clustering.iterate(limit: iterationLimit)
            clusters = clustering.clusters()
        }
        merge(&clusters)
        clustering.setCenters(clusters)
        clustering.iterate(limit: medianIterations, median: true)
        clusters = clustering.clusters()
        merge(&clusters)
        foldSmall(&clusters)
        let total = clusters.reduce(0) { $0 + $1.weight }
        let ordered = clusters.filter { $0.weight > 0 }.sorted { left, right in
            if left.weight != right.weight { return left.weight > right.weight }
            return (left.color.l, left.color.a, left.color.b) < (right.color.l, right.color.a, right.color.b)
        }
        return Palette(colors: ordered.map { cluster in
            let color = ToeCorrectedOklab.inverse(cluster.color)
            return PaletteColor(hex: color.srgb.hex, l: color.l, a: color.a, b: color.b, share: min(cluster.weight / total, 1))
        })
    }

    /// Colours with less of the subject than this are not dominant: anti-aliased edges and mixtures.
    public static let minimumShare = 0.02

    /// Gives each cluster under ``minimumShare`` to its nearest cluster (whose colour stays as it is).
    static func foldSmall(_ clusters: inout [Cluster]) {
        let total = clusters.reduce(0) { $0 + $1.weight }
        while clusters.count > 1 {
            guard let smallest = clusters.indices.min(by: { clusters[$0].weight < clusters[$1].weight }),
                  clusters[smallest].weight < minimumShare * total else { return }
            let small = clusters.remove(at: smallest)
            let nearest = clusters.indices.min { clusters[$0].color.deltaE(small.color) < clusters[$1].color.deltaE(small.color) }!
            clusters[nearest].weight += small.weight
        }
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
