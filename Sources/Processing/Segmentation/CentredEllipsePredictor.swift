/// A stand-in for the network in tests of everything around the cut-out (decoders, hostile files,
/// the store): it says the subject is the ellipse inscribed in the frame's middle two thirds, for any
/// photo, in no time. Never used unless asked for (`STICKER_TEST_PREDICTOR=centre`).
public struct CentredEllipsePredictor: MaskPredictor {
    public static let side = 64

    public init() {}

    public func predictMask(for image: RGBAImage) throws(ProcessingError) -> LowResolutionMask {
        let side = Self.side
        var values = [Float](repeating: 0, count: side * side)
        let centre = Float(side) / 2, radius = Float(side) / 3
        for y in 0..<side {
            for x in 0..<side {
                let dx = (Float(x) + 0.5 - centre) / radius, dy = (Float(y) + 0.5 - centre) / radius
                values[y * side + x] = dx * dx + dy * dy <= 1 ? 1 : 0
            }
        }
        return LowResolutionMask(width: side, height: side, values: values)
    }
}
