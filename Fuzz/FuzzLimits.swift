import Processing

/// Limits shared by the harnesses: images above a few megapixels are refused before decoding (as
/// `import --max-pixels` does), so the fuzzer explores parsers rather than allocating gigabytes.
enum FuzzLimits {
    static let maxPixels = 4_000_000
    /// A small image with every kind of colour, for the colour conversions to work on.
    static let probe = RGBAImage(width: 16, height: 16, pixels: (0..<16 * 16 * 4).map { UInt8(truncatingIfNeeded: $0 &* 37) })
}
