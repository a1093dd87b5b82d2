/// What tells that two entries show the same subject, even when one photo was resized,
/// recompressed, cropped, converted or given a colour profile: three perceptual hashes, of the
/// whole photo, of the photo around its subject, and of the cut-out subject itself, plus how sharp
/// the photo is (to pick the best of a group).
///
/// Why three (measured on the near-duplicate test set, `NearDuplicateRecallTests`): the whole
/// photo's hash stays within a few bits for a resized, recompressed or converted copy, even when
/// the cut-out of that copy came out otherwise, but a 10 % crop moves it by 6 to 20 bits, and it
/// puts other subjects over one background together. The square around the subject survives a
/// crop that leaves the subject whole. The cut-out's own hash does not see the background at all.
public struct SimilaritySignature: Sendable, Hashable, Codable {
    /// The perceptual hash of the whole photo's luma, upright and in sRGB (transparent parts grey).
    public var photo: PerceptualHash
    /// The perceptual hash of the photo's luma on the square around the subject.
    public var surroundings: PerceptualHash
    /// The perceptual hash of the cut-out subject: its luma over mid-grey, on the same square.
    public var subject: PerceptualHash
    /// The mean absolute Laplacian of the working photo's green channel (0 ... 1020): higher is sharper.
    public var sharpness: Double
    /// The subject's mean colour in Oklab (its palette's, weighted by share): the hashes see only
    /// light and dark, so a yellow ball and an orange one would otherwise look alike.
    public var color: OklabColor

    public init(photo: PerceptualHash, surroundings: PerceptualHash, subject: PerceptualHash, sharpness: Double, color: OklabColor) {
        self.photo = photo
        self.surroundings = surroundings
        self.subject = subject
        self.sharpness = sharpness
        self.color = color
    }

    /// The whole photo's hash counts only this close: further, two photos may share a background and
    /// nothing else.
    public static let photoLimit = 4
    /// The subject's and the surroundings' hashes count only for subjects of about the same colour
    /// (Oklab ΔE of their mean colours); copies on the test set stay within 5 but one.
    public static let colorLimit = 5.0
    /// The distance within which two signatures are near-duplicates unless told otherwise: 95 % of the
    /// copies and 0.11 % of distinct pairs on the test set with u2net (see Benchmarks/README.md), and the
    /// largest distance an index lookup reaches by flipping one bit of each 16-bit quarter.
    public static let defaultWithin = 7
    /// The largest distance a lookup accepts (beyond it, unrelated pictures start to meet).
    public static let maximumWithin = 16

    /// How far apart two signatures are: the smallest of the subject's and the surroundings'
    /// Hamming distances when the subjects' colours are within ``colorLimit``, and of the whole
    /// photo's when it is at most ``photoLimit``; `Int.max` when none counts.
    public func distance(to other: SimilaritySignature) -> Int {
        let photo = self.photo.distance(to: other.photo)
        let whole = photo <= Self.photoLimit ? photo : Int.max
        guard color.deltaE(other.color) <= Self.colorLimit else { return whole }
        return min(subject.distance(to: other.subject), surroundings.distance(to: other.surroundings), whole)
    }

    /// The same signature with the subject's colour taken from its palette.
    public func coloured(by palette: Palette) -> SimilaritySignature {
        var signature = self
        signature.color = OklabColor(meanOf: palette)
        return signature
    }

    /// The signature of a photo (the working image the cut-out read) and of its cut-out.
    public static func of(photo: RGBAImage, cutout: RGBAImage) -> SimilaritySignature {
        let plane = LumaPlane(photo)
        let whole = PerceptualHash(coefficients: SampleGrid.averaged(plane, region: plane.whole, outside: 0.5))
        let sharpness = Sharpness.meanLaplacian(of: photo)
        guard let square = subjectSquare(of: cutout) else {
            return SimilaritySignature(photo: whole, surroundings: whole, subject: PerceptualHash(bits: 0), sharpness: sharpness, color: .black)
        }
        let surroundings = SampleGrid.averaged(plane, region: plane.scaled(square), outside: 0.5)
        let subjectPlane = LumaPlane(cutout, region: square)
        let subject = SampleGrid.averaged(subjectPlane, region: subjectPlane.whole, outside: 0.5)
        return SimilaritySignature(
            photo: whole, surroundings: PerceptualHash(coefficients: surroundings), subject: PerceptualHash(coefficients: subject),
            sharpness: sharpness, color: .black)
    }

    /// The square around the subject's bounding box, the box centred in it, so that neither the
    /// subject's place in the photo nor its size counts; nil when nothing is opaque.
    static func subjectSquare(of cutout: RGBAImage) -> SampleGrid.Region? {
        guard let box = opaqueBounds(of: cutout) else { return nil }
        let side = max(box.width, box.height)
        return SampleGrid.Region(x: box.x - (side - box.width) / 2, y: box.y - (side - box.height) / 2, width: side, height: side)
    }

    /// The smallest rectangle holding every pixel at least half opaque; nil when there is none.
    static func opaqueBounds(of image: RGBAImage) -> SampleGrid.Region? {
        var minX = image.width, minY = image.height, maxX = -1, maxY = -1
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<image.height {
                let row = y * image.width * 4 + 3
                var rowMin = -1, rowMax = -1
                var x = 0
                while x < image.width {
                    if pixels[row + x * 4] >= 128 { rowMin = x; break }
                    x += 1
                }
                guard rowMin >= 0 else { continue }
                x = image.width - 1
                while x > rowMin, pixels[row + x * 4] < 128 { x -= 1 }
                rowMax = x
                minX = min(minX, rowMin); maxX = max(maxX, rowMax)
                minY = min(minY, y); maxY = y
            }
        }
        guard maxX >= 0 else { return nil }
        return SampleGrid.Region(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}

extension OklabColor {
    /// Black: the colour of an empty subject.
    static let black = OklabColor(l: 0, a: 0, b: 0)

    /// The share-weighted mean of a palette's colours; black for an empty palette.
    init(meanOf palette: Palette) {
        let total = palette.colors.reduce(0) { $0 + $1.share }
        guard total > 0 else { self = .black; return }
        self.init(
            l: palette.colors.reduce(0) { $0 + $1.l * $1.share } / total, a: palette.colors.reduce(0) { $0 + $1.a * $1.share } / total,
            b: palette.colors.reduce(0) { $0 + $1.b * $1.share } / total)
    }
}

/// How sharp a photo is, for choosing the best of a group of near-duplicates.
enum Sharpness {
    /// The mean absolute 4-neighbour Laplacian of the green channel (0 ... 1020), at full resolution
    /// (a blurred or upscaled copy loses exactly this fine detail) on every other row, which halves
    /// the cost and keeps the measure.
    static func meanLaplacian(of image: RGBAImage) -> Double {
        guard image.width >= 3, image.height >= 3 else { return 0 }
        let stride = image.width * 4
        var total = 0, count = 0
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in Swift.stride(from: 1, to: image.height - 1, by: 2) {
                var index = y * stride + 4 + 1
                var row = 0
                for _ in 1..<(image.width - 1) {
                    let laplacian = 4 &* Int(pixels[index]) &- Int(pixels[index - 4]) &- Int(pixels[index + 4])
                        &- Int(pixels[index - stride]) &- Int(pixels[index + stride])
                    row &+= abs(laplacian)
                    index &+= 4
                }
                total &+= row
                count &+= image.width - 2
            }
        }
        return Double(total) / Double(max(count, 1))
    }
}
