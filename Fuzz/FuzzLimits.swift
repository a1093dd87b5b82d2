/// Limits shared by the harnesses: images above a few megapixels are refused before decoding (as
/// `import --max-pixels` does), so the fuzzer explores parsers rather than allocating gigabytes.
enum FuzzLimits {
    static let maxPixels = 4_000_000
}
