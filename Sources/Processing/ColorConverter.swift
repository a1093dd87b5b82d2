import CColorMatrix
import CLCMS2
import Synchronization

/// Converts pixels described by a `ColorProfile` to sRGB with Little CMS (lcms2). This file owns
/// every lcms2 pointer: profiles live only while a transform is built; transforms are built once
/// per distinct profile, cached for the life of the process, and freed when dropped from the cache.
///
/// Matrix-shaper profiles (Display P3, Adobe RGB, the nclx spaces: curves and a 3×3 matrix, what
/// nearly every photo carries) are applied by our own loop (`CColorMatrix`) from tables lcms2
/// computes once per profile (`MatrixShaper`): about 4× faster than `cmsDoTransform` on RGBA and
/// as exact. Other RGB profiles (lookup-table ones) go through an lcms2 transform.
///
/// Transforms are made with `cmsFLAGS_NOCACHE`, which makes `cmsDoTransform` safe to call from
/// several threads at once on the same transform. lcms2 reports problems through return values
/// (a NULL profile or transform); its log handler is silenced, so nothing is printed.
public enum ColorConverter {
    /// The result of converting: the sRGB pixels, and a warning when the profile could not be used
    /// (the pixels are then left as they were, taken as sRGB).
    public struct Converted: Sendable {
        public var image: RGBAImage
        public var warning: String?
    }

    /// `image` converted from `profile` to sRGB; alpha is kept as it is. nil or sRGB profiles, and
    /// grey or CMYK ICC profiles (whose pixels the decoders already turned into RGB), leave the
    /// pixels untouched. A profile lcms2 cannot read or use gives the pixels back with a warning.
    public static func toSRGB(_ image: RGBAImage, from profile: ColorProfile?) -> Converted {
        guard let profile, !profile.isSRGBDescription else { return Converted(image: image, warning: nil) }
        switch transform(for: profile) {
        case .identity:
            return Converted(image: image, warning: nil)
        case .unusable(let reason):
            return Converted(image: image, warning: "colour profile ignored, the photo is taken as sRGB: \(reason)")
        case .convert(let transform):
            var converted = image
            transform.apply(to: &converted)
            return Converted(image: converted, warning: nil)
        case .matrixShaper(let tables):
            var converted = image
            tables.apply(to: &converted)
            return Converted(image: converted, warning: nil)
        }
    }

    /// Wide-gamut RGB spaces photos come tagged with, for making samples and test photos.
    public enum RGBSpace: Sendable, CaseIterable {
        /// Display P3 (iPhones): P3 primaries, D65, the sRGB curve.
        case displayP3
        /// Adobe RGB (1998) (cameras): wider greens, D65, gamma 563/256.
        case adobeRGB
        /// BT.2020 primaries with the BT.709 curve (HDR-capable phones' SDR images).
        case bt2020

        /// The space's ICC profile (version 4, made by lcms2).
        public var iccProfile: [UInt8]? {
            ColorConverter.iccBytes(of: makeProfile())
        }

        fileprivate func makeProfile() -> cmsHPROFILE? {
            switch self {
            case .displayP3: return try? nclxProfile(primaries: 12, transfer: 13).get()
            case .bt2020: return try? nclxProfile(primaries: 9, transfer: 14).get()
            case .adobeRGB:
                guard let tone = [563.0 / 256].withUnsafeBufferPointer({ cmsBuildParametricToneCurve(nil, 1, $0.baseAddress) }) else { return nil }
                defer { cmsFreeToneCurve(tone) }
                var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
                var colorants = cmsCIExyYTRIPLE(
                    Red: cmsCIExyY(x: 0.64, y: 0.33, Y: 1), Green: cmsCIExyY(x: 0.21, y: 0.71, Y: 1), Blue: cmsCIExyY(x: 0.15, y: 0.06, Y: 1))
                var curves: [OpaquePointer?] = [tone, tone, tone]
                return curves.withUnsafeMutableBufferPointer { cmsCreateRGBProfile(&white, &colorants, $0.baseAddress) }
            }
        }
    }

    /// lcms2's sRGB profile as ICC bytes (what many cameras embed).
    public static var sRGBProfile: [UInt8]? {
        iccBytes(of: cmsCreate_sRGBProfile())
    }

    /// A profile lcms2 made, saved as ICC bytes; the profile is closed.
    fileprivate static func iccBytes(of made: cmsHPROFILE?) -> [UInt8]? {
        guard let profile = made else { return nil }
        defer { cmsCloseProfile(profile) }
        var size: UInt32 = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard cmsSaveProfileToMem(profile, &bytes, &size) != 0 else { return nil }
        return Array(bytes.prefix(Int(size)))
    }

    /// `image` (sRGB) expressed in `space`: what a camera tagging its photos with that space stores.
    /// nil when lcms2 cannot build the transform.
    public static func fromSRGB(_ image: RGBAImage, to space: RGBSpace) -> RGBAImage? {
        guard let target = space.makeProfile() else { return nil }
        defer { cmsCloseProfile(target) }
        guard let sRGB = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(sRGB) }
        let flags = UInt32(cmsFLAGS_NOCACHE) | UInt32(cmsFLAGS_COPY_ALPHA)
        guard let handle = cmsCreateTransform(sRGB, sticker_TYPE_RGBA_8, target, sticker_TYPE_RGBA_8, UInt32(INTENT_PERCEPTUAL), flags) else {
            return nil
        }
        var converted = image
        Transform(handle).apply(to: &converted)
        return converted
    }

    /// What to do with the pixels of one profile, as cached.
    enum Plan: Sendable {
        case identity
        case unusable(String)
        /// Through lcms2, pixel by pixel (profiles that are not matrix-shapers).
        case convert(Transform)
        /// Through our table loop (matrix-shaper profiles).
        case matrixShaper(MatrixShaper)

        func apply(to image: inout RGBAImage) {
            switch self {
            case .identity, .unusable: break
            case .convert(let transform): transform.apply(to: &image)
            case .matrixShaper(let tables): tables.apply(to: &image)
            }
        }
    }

    /// A matrix-shaper conversion to sRGB as tables lcms2 filled in: for each input channel and
    /// level, the linear-light sRGB it contributes (the profile's curve and matrix column, and
    /// the black offset on red), so a pixel's linear sRGB is the sum of three entries; then the
    /// sRGB curve (lcms2's own, inverted) through a 65536-entry table.
    struct MatrixShaper: Sendable {
        /// 3 × 256 entries of (R, G, B, unused), fixed point: 1.0 is 65535 << STICKER_COLOR_MATRIX_FRACTION_BITS.
        let columns: [Int32]

        /// The sRGB curve: entry i is the 8-bit level of linear light i / 65535 (the same for all profiles).
        static let encode: [UInt8] = {
            guard let sRGB = cmsCreate_sRGBProfile() else { return [] }
            defer { cmsCloseProfile(sRGB) }
            guard let curve = cmsReadTag(sRGB, cmsSigRedTRCTag), let inverse = cmsReverseToneCurve(OpaquePointer(curve)) else { return [] }
            defer { cmsFreeToneCurve(inverse) }
            return (0..<65536).map { index in
                let level = Double(cmsEvalToneCurveFloat(inverse, Float(index) / 65535)) * 255
                return UInt8(min(max(level, 0), 255).rounded())
            }
        }()

        /// The tables for `source` (an RGB profile), or nil when its conversion to sRGB is not
        /// curves-then-matrix (a lookup-table profile), found by checking a grid of colours.
        static func make(from source: cmsHPROFILE) -> MatrixShaper? {
            guard encode.count == 65536 else { return nil }
            // Linear-light sRGB: lcms2's sRGB primaries and white with a straight curve.
            guard let straight = cmsBuildGamma(nil, 1.0) else { return nil }
            defer { cmsFreeToneCurve(straight) }
            var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
            var primaries = cmsCIExyYTRIPLE(
                Red: cmsCIExyY(x: 0.64, y: 0.33, Y: 1), Green: cmsCIExyY(x: 0.30, y: 0.60, Y: 1), Blue: cmsCIExyY(x: 0.15, y: 0.06, Y: 1))
            var curves: [OpaquePointer?] = [straight, straight, straight]
            guard let linear = curves.withUnsafeMutableBufferPointer({ cmsCreateRGBProfile(&white, &primaries, $0.baseAddress) }) else { return nil }
            defer { cmsCloseProfile(linear) }
            // Float and unoptimised: lcms2's exact evaluation, unclipped, of each probe colour.
            let flags = UInt32(cmsFLAGS_NOCACHE) | UInt32(cmsFLAGS_NOOPTIMIZE)
            guard let handle = cmsCreateTransform(source, sticker_TYPE_RGB_FLT, linear, sticker_TYPE_RGB_FLT, UInt32(INTENT_PERCEPTUAL), flags) else {
                return nil
            }
            defer { cmsDeleteTransform(handle) }
            func evaluate(_ colors: [Float]) -> [Float] {
                var out = [Float](repeating: 0, count: colors.count)
                colors.withUnsafeBytes { input in
                    out.withUnsafeMutableBytes { cmsDoTransform(handle, input.baseAddress, $0.baseAddress, UInt32(colors.count / 3)) }
                }
                return out
            }
            // Each channel's ramp alone (the others at 0), then black.
            var ramps: [Float] = []
            for channel in 0..<3 {
                for level in 0..<256 {
                    var color: [Float] = [0, 0, 0]
                    color[channel] = Float(level) / 255
                    ramps += color
                }
            }
            let linearRamps = evaluate(ramps + [0, 0, 0])
            let black = Array(linearRamps[(768 * 3)...])
            let scale = Double(65535 << STICKER_COLOR_MATRIX_FRACTION_BITS)
            var columns = [Int32](repeating: 0, count: 768 * 4)
            var exact = [Double](repeating: 0, count: 768 * 3)
            for entry in 0..<768 {
                for component in 0..<3 {
                    // Black counted once: on the red column only.
                    let value = Double(linearRamps[entry * 3 + component]) - (entry >= 256 ? Double(black[component]) : 0)
                    // A damaged or odd profile can give NaN or huge values: lcms2 then converts it.
                    guard value.isFinite, abs(value) < 64 else { return nil }
                    exact[entry * 3 + component] = value
                    columns[entry * 4 + component] = Int32((value * scale).rounded())
                }
            }
            // Curves-then-matrix means every colour is the sum of its three ramps' entries.
            let levels = stride(from: 0, through: 255, by: 17).map { $0 }
            var grid: [Float] = []
            for r in levels { for g in levels { for b in levels { grid += [Float(r) / 255, Float(g) / 255, Float(b) / 255] } } }
            let linearGrid = evaluate(grid)
            var index = 0
            for r in levels {
                for g in levels {
                    for b in levels {
                        for component in 0..<3 {
                            let sum = exact[r * 3 + component] + exact[(256 + g) * 3 + component] + exact[(512 + b) * 3 + component]
                            // 1e-5 of full scale: under 0.05 of an 8-bit level even on the sRGB curve's steep toe.
                            guard abs(sum - Double(linearGrid[index * 3 + component])) < 1e-5 else { return nil }
                        }
                        index += 1
                    }
                }
            }
            return MatrixShaper(columns: columns)
        }

        func apply(to image: inout RGBAImage) {
            let pixelCount = image.width * image.height
            columns.withUnsafeBufferPointer { columns in
                Self.encode.withUnsafeBufferPointer { encode in
                    image.pixels.withUnsafeMutableBytes { pixels in
                        guard let base = pixels.bindMemory(to: UInt8.self).baseAddress else { return }
                        sticker_color_matrix_apply(columns.baseAddress, encode.baseAddress, base, pixelCount)
                    }
                }
            }
        }
    }

    /// An lcms2 transform from one profile to sRGB (RGBA 8-bit in and out, alpha copied).
    final class Transform: @unchecked Sendable {
        // Immutable after init; lcms2 allows concurrent cmsDoTransform on a NOCACHE transform.
        private let handle: cmsHTRANSFORM

        init(_ handle: cmsHTRANSFORM) { self.handle = handle }
        deinit { cmsDeleteTransform(handle) }

        func apply(to image: inout RGBAImage) {
            let pixelCount = image.width * image.height
            image.pixels.withUnsafeMutableBytes { buffer in
                // lcms2 takes a pixel count as UInt32: do the image in slices well under that.
                let slice = 1 << 20
                var start = 0
                while start < pixelCount {
                    let count = min(slice, pixelCount - start)
                    let pointer = buffer.baseAddress! + start * 4
                    cmsDoTransform(handle, pointer, pointer, UInt32(count))
                    start += count
                }
            }
        }
    }

    /// The plans made so far, by profile. Photo libraries hold a handful of distinct profiles; the
    /// cache is emptied if some folder holds very many (transforms in use stay alive until done).
    private static let cache = Mutex<[ColorProfile: Plan]>([:])
    private static let cacheLimit = 64

    static func transform(for profile: ColorProfile) -> Plan {
        if let plan = cache.withLock({ $0[profile] }) { return plan }
        let plan = makePlan(for: profile)
        cache.withLock { plans in
            if plans.count >= cacheLimit { plans.removeAll() }
            plans[profile] = plan
        }
        return plan
    }

    /// How many distinct profiles have a plan (for tests of the cache).
    static var cachedPlanCount: Int { cache.withLock { $0.count } }

    private static let silenced: Void = cmsSetLogErrorHandler(nil)

    private static func makePlan(for profile: ColorProfile) -> Plan {
        _ = silenced
        let source: cmsHPROFILE
        switch open(profile) {
        case .success(let opened): source = opened
        case .failure(let reason): return .unusable(reason.text)
        }
        defer { cmsCloseProfile(source) }
        switch cmsGetColorSpace(source) {
        case cmsSigRgbData: break
        // Grey and CMYK JPEGs are already RGB when they get here (libjpeg-turbo's own conversion).
        case cmsSigGrayData, cmsSigCmykData: return .identity
        default: return .unusable("the ICC profile is not for RGB images")
        }
        if let tables = MatrixShaper.make(from: source) {
            let plan = Plan.matrixShaper(tables)
            return isIdentity(plan) ? .identity : plan
        }
        guard let sRGB = cmsCreate_sRGBProfile() else { return .unusable("lcms2 could not make an sRGB profile") }
        defer { cmsCloseProfile(sRGB) }
        let flags = UInt32(cmsFLAGS_NOCACHE) | UInt32(cmsFLAGS_COPY_ALPHA)
        guard let handle = cmsCreateTransform(
            source, sticker_TYPE_RGBA_8, sRGB, sticker_TYPE_RGBA_8, UInt32(INTENT_PERCEPTUAL), flags)
        else {
            return .unusable("lcms2 cannot convert from the ICC profile (it may be damaged or incomplete)")
        }
        let plan = Plan.convert(Transform(handle))
        return isIdentity(plan) ? .identity : plan
    }

    /// `profile` opened by lcms2 (the caller closes it).
    private static func open(_ profile: ColorProfile) -> Result<cmsHPROFILE, Reason> {
        switch profile {
        case .icc(let bytes):
            guard bytes.count >= 132, bytes.count < Int(UInt32.max) else {
                return .failure(Reason(text: "the ICC profile is \(bytes.count) bytes, too short to be one"))
            }
            guard let opened = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }) else {
                return .failure(Reason(text: "lcms2 cannot read the ICC profile"))
            }
            return .success(opened)
        case .nclx(let primaries, let transfer):
            return nclxProfile(primaries: primaries, transfer: transfer)
        }
    }

    /// `image` converted from `profile` to sRGB by lcms2 itself, unoptimised in 16 bits and rounded
    /// to 8: the reference the table path is checked against. nil when lcms2 cannot.
    static func exactToSRGB(_ image: RGBAImage, from profile: ColorProfile) -> RGBAImage? {
        _ = silenced
        guard case .success(let source) = open(profile) else { return nil }
        defer { cmsCloseProfile(source) }
        guard let sRGB = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(sRGB) }
        let flags = UInt32(cmsFLAGS_NOCACHE) | UInt32(cmsFLAGS_NOOPTIMIZE)
        guard let handle = cmsCreateTransform(source, sticker_TYPE_RGBA_16, sRGB, sticker_TYPE_RGBA_16, UInt32(INTENT_PERCEPTUAL), flags) else {
            return nil
        }
        defer { cmsDeleteTransform(handle) }
        var wide = image.pixels.map { UInt16($0) * 257 }
        wide.withUnsafeMutableBytes { cmsDoTransform(handle, $0.baseAddress, $0.baseAddress, UInt32(image.width * image.height)) }
        var result = image
        for index in result.pixels.indices where index % 4 != 3 {
            result.pixels[index] = UInt8((UInt32(wide[index]) * 255 + 32767) / 65535)
        }
        return result
    }

    /// An RGB input profile for `space` that is a lookup table (A2B0: a 17³ grid to Lab), not
    /// curves and a matrix: what some scanner and printer-made profiles are (for tests of the path
    /// such profiles take). nil when lcms2 cannot build it.
    static func lookupTableProfile(of space: RGBSpace) -> [UInt8]? {
        guard let colorimetric = space.makeProfile() else { return nil }
        defer { cmsCloseProfile(colorimetric) }
        guard let lab = cmsCreateLab4Profile(nil) else { return nil }
        defer { cmsCloseProfile(lab) }
        let flags = UInt32(cmsFLAGS_NOCACHE) | UInt32(cmsFLAGS_NOOPTIMIZE)
        guard let toLab = cmsCreateTransform(colorimetric, sticker_TYPE_RGB_16, lab, sticker_TYPE_Lab_16, UInt32(INTENT_PERCEPTUAL), flags) else {
            return nil
        }
        defer { cmsDeleteTransform(toLab) }
        guard let table = cmsStageAllocCLut16bit(nil, 17, 3, 3, nil) else { return nil }
        let sampled = cmsStageSampleCLut16bit(table, { input, output, cargo in
            cmsDoTransform(cargo, input, output, 1)
            return 1
        }, toLab, 0)
        guard sampled != 0, let pipeline = cmsPipelineAlloc(nil, 3, 3) else { cmsStageFree(table); return nil }
        defer { cmsPipelineFree(pipeline) }
        // An ICC lutAtoBType holds curves, grid, curves at least: straight curves around the grid.
        guard cmsPipelineInsertStage(pipeline, cmsAT_END, table) != 0 else { cmsStageFree(table); return nil }
        for end in [cmsAT_BEGIN, cmsAT_END] {
            guard let straight = cmsStageAllocToneCurves(nil, 3, nil) else { return nil }
            guard cmsPipelineInsertStage(pipeline, end, straight) != 0 else { cmsStageFree(straight); return nil }
        }
        guard let profile = cmsCreateProfilePlaceholder(nil) else { return nil }
        defer { cmsCloseProfile(profile) }
        cmsSetProfileVersion(profile, 4.3)
        cmsSetDeviceClass(profile, cmsSigInputClass)
        cmsSetColorSpace(profile, cmsSigRgbData)
        cmsSetPCS(profile, cmsSigLabData)
        guard cmsWriteTag(profile, cmsSigAToB0Tag, UnsafeRawPointer(pipeline)) != 0,
              cmsWriteTag(profile, cmsSigMediaWhitePointTag, cmsD50_XYZ()) != 0 else { return nil }
        var size: UInt32 = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard cmsSaveProfileToMem(profile, &bytes, &size) != 0 else { return nil }
        return Array(bytes.prefix(Int(size)))
    }

    /// True when the transform leaves every probe colour exactly as it is: an embedded sRGB profile
    /// (cameras often embed one) then costs nothing per photo.
    private static func isIdentity(_ plan: Plan) -> Bool {
        let levels: [UInt8] = [0, 37, 96, 160, 212, 255]
        var probe: [UInt8] = []
        for r in levels { for g in levels { for b in levels { probe += [r, g, b, 255] } } }
        let width = levels.count * levels.count
        var image = RGBAImage(width: width, height: probe.count / 4 / width, pixels: probe)
        plan.apply(to: &image)
        return image.pixels == probe
    }

    /// A reason a profile could not be made, as an Error for `Result`.
    struct Reason: Error {
        var text: String
    }

    /// An RGB profile for H.273 primaries and transfer characteristics.
    fileprivate static func nclxProfile(primaries: Int, transfer: Int) -> Result<cmsHPROFILE, Reason> {
        // (red, green, blue, white) chromaticities, x then y.
        let d65 = (0.3127, 0.3290)
        let table: [Int: ((Double, Double), (Double, Double), (Double, Double), (Double, Double))] = [
            1: ((0.640, 0.330), (0.300, 0.600), (0.150, 0.060), d65),  // BT.709 / sRGB
            2: ((0.640, 0.330), (0.300, 0.600), (0.150, 0.060), d65),  // unspecified: taken as BT.709
            4: ((0.670, 0.330), (0.210, 0.710), (0.140, 0.080), (0.310, 0.316)),  // BT.470 System M
            5: ((0.640, 0.330), (0.290, 0.600), (0.150, 0.060), d65),  // BT.470 System B, G
            6: ((0.630, 0.340), (0.310, 0.595), (0.155, 0.070), d65),  // BT.601 525
            7: ((0.630, 0.340), (0.310, 0.595), (0.155, 0.070), d65),  // SMPTE 240M
            9: ((0.708, 0.292), (0.170, 0.797), (0.131, 0.046), d65),  // BT.2020 / BT.2100
            11: ((0.680, 0.320), (0.265, 0.690), (0.150, 0.060), (0.314, 0.351)),  // DCI-P3
            12: ((0.680, 0.320), (0.265, 0.690), (0.150, 0.060), d65),  // Display P3
            22: ((0.630, 0.340), (0.295, 0.605), (0.155, 0.077), d65),  // EBU Tech 3213
        ]
        guard let (red, green, blue, white) = table[primaries] else {
            return .failure(Reason(text: "unknown nclx colour primaries \(primaries)"))
        }
        // lcms2 parametric curves, type 4: Y = (aX + b)^g for X >= d, else cX.
        let curve: (type: Int32, parameters: [Double])
        switch transfer {
        case 1, 6, 14, 15:  // BT.709 / BT.601 / BT.2020: the inverse of the camera curve
            curve = (4, [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081])
        case 4: curve = (1, [2.2])
        case 5: curve = (1, [2.8])
        case 8: curve = (1, [1.0])
        case 2, 13:  // unspecified, sRGB
            curve = (4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
        default:
            return .failure(Reason(text: "nclx transfer characteristics \(transfer) (HDR or unknown) are not supported"))
        }
        guard let tone = curve.parameters.withUnsafeBufferPointer({ cmsBuildParametricToneCurve(nil, curve.type, $0.baseAddress) }) else {
            return .failure(Reason(text: "lcms2 could not build the transfer curve"))
        }
        defer { cmsFreeToneCurve(tone) }
        var whitePoint = cmsCIExyY(x: white.0, y: white.1, Y: 1)
        var colorants = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: red.0, y: red.1, Y: 1),
            Green: cmsCIExyY(x: green.0, y: green.1, Y: 1),
            Blue: cmsCIExyY(x: blue.0, y: blue.1, Y: 1))
        var curves: [OpaquePointer?] = [tone, tone, tone]
        let made = curves.withUnsafeMutableBufferPointer { cmsCreateRGBProfile(&whitePoint, &colorants, $0.baseAddress) }
        guard let made else { return .failure(Reason(text: "lcms2 could not build a profile for nclx \(primaries)/\(transfer)")) }
        return .success(made)
    }
}
