/// What tells that two entries show the same subject, even when one photo was resized,
/// recompressed, cropped or converted: a hash of the whole photo, and a hash of the subject's
/// outline as the cut-out found it. The outline's hash does not move when the background
/// around the subject is cropped or changed; the photo's separates two poses of one subject.
public struct SimilaritySignature: Sendable, Hashable, Codable {
    /// The perceptual hash of the photo's luma, upright and in sRGB.
    public var photo: PerceptualHash
    /// The perceptual hash of the subject's outline: its coverage over its bounding square.
    public var shape: PerceptualHash

    public init(photo: PerceptualHash, shape: PerceptualHash) {
        self.photo = photo
        self.shape = shape
    }

    /// Version of the way signatures are made; a change makes stored signatures stale.
    public static let version = 1

    /// The signature of a photo (the working image the cut-out read) and of its cut-out.
    public static func of(photo: RGBAImage, cutout: RGBAImage) -> SimilaritySignature {
        SimilaritySignature(photo: PerceptualHash.ofLuma(photo), shape: shapeHash(of: cutout))
    }

    /// The outline's hash: alpha averaged into 8 x 8 cells over the square around the subject's
    /// bounding box (the box centred in it, so that neither the subject's place in the photo nor
    /// its size counts), a bit set for each cell the subject covers at least half of. Not the
    /// DCT: an outline is often symmetric, and then half its coefficients are near zero and their
    /// signs are noise.
    static func shapeHash(of cutout: RGBAImage) -> PerceptualHash {
        guard let box = opaqueBounds(of: cutout) else { return PerceptualHash(bits: 0) }
        let side = max(box.width, box.height)
        let left = box.x - (side - box.width) / 2, top = box.y - (side - box.height) / 2
        let grid = SampleGrid.averaged(width: side, height: side, side: 8) { x, y in
            let sx = left + x, sy = top + y
            guard sx >= 0, sy >= 0, sx < cutout.width, sy < cutout.height else { return 0 }
            return Double(cutout.pixels[(sy * cutout.width + sx) * 4 + 3]) / 255
        }
        var bits: UInt64 = 0
        for (index, coverage) in grid.enumerated() where coverage >= 0.5 { bits |= 1 << UInt64(index) }
        return PerceptualHash(bits: bits)
    }

    /// The smallest rectangle holding every pixel at least half opaque; nil when there is none.
    static func opaqueBounds(of image: RGBAImage) -> (x: Int, y: Int, width: Int, height: Int)? {
        var minX = image.width, minY = image.height, maxX = -1, maxY = -1
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<image.height {
                for x in 0..<image.width where pixels[(y * image.width + x) * 4 + 3] >= 128 {
                    minX = min(minX, x); maxX = max(maxX, x)
                    minY = min(minY, y); maxY = max(maxY, y)
                }
            }
        }
        guard maxX >= 0 else { return nil }
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }
}
