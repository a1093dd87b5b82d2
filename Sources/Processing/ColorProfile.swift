/// How a photo says what its pixel values mean: an embedded ICC profile, or (in HEIF/AVIF) an
/// `nclx` colour description by code points of ITU-T H.273. A photo with neither is taken as sRGB.
public enum ColorProfile: Sendable, Hashable {
    /// The bytes of an ICC profile, as embedded (JPEG APP2, PNG iCCP, WebP ICCP, HEIF `colr` prof/rICC).
    case icc([UInt8])
    /// H.273 colour primaries and transfer characteristics (e.g. 12/13: Display P3; 9/14: BT.2020).
    case nclx(primaries: Int, transfer: Int)

    /// True when the description is sRGB (or says nothing), so the pixels need no conversion.
    /// Primaries BT.709 or unspecified with an SDR video transfer count as sRGB, as browsers show them.
    var isSRGBDescription: Bool {
        guard case .nclx(let primaries, let transfer) = self else { return false }
        return (primaries == 1 || primaries == 2) && [1, 2, 6, 13, 14, 15].contains(transfer)
    }
}
