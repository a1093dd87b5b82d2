import Foundation
import Processing
import SampleImages

/// `palette-bench --twins K FOLDER`: how much a photo's palette moves when the photo is re-encoded,
/// and whether a colour search still finds its colours. Each photo in FOLDER (any format the catalog
/// reads, decoded at the working size as an import does) gets lossy twins: JPEG q85, WebP q80 and
/// AVIF q60, decoded again. The subject is the photo's own alpha when it has one, else a centred
/// ellipse over 80 % of each side with a soft edge, the same on every twin, so only the pixels change.
/// Reported: the share-weighted ΔE76 between the photo's palette and each twin's (≤ 5 is the goal),
/// the palette's fidelity (the mean ΔE76 from a subject pixel to its nearest palette colour), and
/// colour-search recall: for each colour that makes up ≥ 5 % of the subject (its pixels grouped in
/// Oklab cubes of 6 ΔE, half the default --within), whether the palette of the photo and of each twin
/// has a colour within the default --within (12 Oklab ΔE), as `catalog search --color` needs, and
/// within 6 (a search with --within 6).
enum Twins {
    static func run(colors: Int, folder: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        var distances: [Double] = [], fidelities: [Double] = []
        var queries = 0, found = 0, foundClosely = 0
        var milliseconds: [Double] = []
        for name in names {
            let bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))) ?? Data())
            guard let decoded = try? PhotoDecoder.decode(bytes, options: DecodeOptions()), decoded.image.width >= 32, decoded.image.height >= 32 else { continue }
            let photo = decoded.image
            let alpha = LossyTwins.subject(of: photo)
            let twins = try LossyTwins.of(photo)
            let original = LossyTwins.withAlpha(photo, alpha)
            var reference = Palette()
            let took = ContinuousClock().measure { reference = PaletteExtractor.palette(of: original, colors: colors) }
            milliseconds.append(Double(took.components.attoseconds) / 1e15 + Double(took.components.seconds) * 1000)
            fidelities.append(fidelity(original, reference))
            let wanted = dominantColors(original)
            var line = "\(name) (\(photo.width)×\(photo.height), \(reference.colors.count) colours):"
            var palettes = [reference]
            for (format, twin) in twins {
                let palette = PaletteExtractor.palette(of: LossyTwins.withAlpha(twin, alpha), colors: colors)
                let distance = PaletteDistance.shareWeightedDeltaE76(reference, palette)
                distances.append(distance)
                palettes.append(palette)
                line += " \(format) \(String(format: "%.2f", distance))"
            }
            for palette in palettes {
                for query in wanted {
                    queries += 1
                    let nearest = palette.colors.map { OklabColor(l: $0.l, a: $0.a, b: $0.b).deltaE(query) }.min() ?? .infinity
                    if nearest <= 12 { found += 1 }
                    if nearest <= 6 { foundClosely += 1 }
                }
            }
            print(line)
        }
        guard !distances.isEmpty else { throw CocoaError(.fileReadNoSuchFile) }
        let sorted = distances.sorted()
        print(String(format: "twins: %d photos, %d twins; palette ΔE76 to the photo's: mean %.2f, median %.2f, max %.2f, %d over 5",
                     fidelities.count, distances.count, distances.reduce(0, +) / Double(distances.count), sorted[sorted.count / 2], sorted.last!,
                     distances.filter { $0 > 5 }.count))
        print(String(format: "fidelity (mean ΔE76 from a subject pixel to its palette): %.3f; colour-search recall: %d of %d (%.1f %%) within 12, %d (%.1f %%) within 6",
                     fidelities.reduce(0, +) / Double(fidelities.count), found, queries, 100 * Double(found) / Double(max(queries, 1)),
                     foundClosely, 100 * Double(foundClosely) / Double(max(queries, 1))))
        print(String(format: "palette time: %.2f ms a photo (mean, the photo's own palette)", milliseconds.reduce(0, +) / Double(milliseconds.count)))
    }

    /// Mean CIELAB ΔE76 from each subject pixel (alpha-weighted) to the nearest palette colour.
    static func fidelity(_ image: RGBAImage, _ palette: Palette) -> Double {
        let targets = palette.colors.compactMap { PaletteDistance.lab($0.hex) }
        var cache: [UInt32: Double] = [:]
        var total = 0.0, weight = 0.0
        for i in stride(from: 0, to: image.pixels.count, by: 4) where image.pixels[i + 3] > 0 {
            let key = UInt32(image.pixels[i]) << 16 | UInt32(image.pixels[i + 1]) << 8 | UInt32(image.pixels[i + 2])
            let distance: Double
            if let known = cache[key] {
                distance = known
            } else {
                let lab = PaletteDistance.lab(SRGBColor(red: image.pixels[i], green: image.pixels[i + 1], blue: image.pixels[i + 2]).hex)!
                var nearest = Double.infinity
                for target in targets {
                    let dl = lab.0 - target.0, da = lab.1 - target.1, db = lab.2 - target.2
                    nearest = min(nearest, (dl * dl + da * da + db * db).squareRoot())
                }
                cache[key] = nearest
                distance = nearest
            }
            let w = Double(image.pixels[i + 3]) / 255
            total += distance * w
            weight += w
        }
        return weight > 0 ? total / weight : 0
    }

    /// The colours a search should find the subject by: Oklab cubes of 6 ΔE holding ≥ 5 % of it, each at its mean.
    static func dominantColors(_ image: RGBAImage) -> [OklabColor] {
        var cells: [SIMD3<Int32>: (weight: Double, sum: SIMD3<Double>)] = [:]
        var total = 0.0
        for i in stride(from: 0, to: image.pixels.count, by: 4) where image.pixels[i + 3] > 0 {
            let color = SRGBColor(red: image.pixels[i], green: image.pixels[i + 1], blue: image.pixels[i + 2]).oklab
            let point = SIMD3(color.l, color.a, color.b) * 100
            let cell = SIMD3<Int32>(Int32((point.x / 6).rounded(.down)), Int32((point.y / 6).rounded(.down)), Int32((point.z / 6).rounded(.down)))
            let w = Double(image.pixels[i + 3]) / 255
            cells[cell, default: (0, .zero)].weight += w
            cells[cell, default: (0, .zero)].sum += point * w
            total += w
        }
        return cells.values.filter { $0.weight >= 0.05 * total }.sorted { $0.weight > $1.weight }.map {
            let mean = $0.sum / $0.weight / 100
            return OklabColor(l: mean.x, a: mean.y, b: mean.z)
        }
    }
}
