import CLCMS2
import Synchronization

/// Converts pixels described by a `ColorProfile` to sRGB with Little CMS (lcms2). This file owns
/// every lcms2 pointer: profiles live only while a transform is built; transforms are built once
/// per distinct profile, cached for the life of the process, and freed when dropped from the cache.
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
            guard let profile = makeProfile() else { return nil }
            defer { cmsCloseProfile(profile) }
            var size: UInt32 = 0
            guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else { return nil }
            var bytes = [UInt8](repeating: 0, count: Int(size))
            guard cmsSaveProfileToMem(profile, &bytes, &size) != 0 else { return nil }
            return Array(bytes.prefix(Int(size)))
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
        guard let profile = cmsCreate_sRGBProfile() else { return nil }
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
        case convert(Transform)
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
        switch profile {
        case .icc(let bytes):
            guard bytes.count >= 132, bytes.count < Int(UInt32.max) else {
                return .unusable("the ICC profile is \(bytes.count) bytes, too short to be one")
            }
            guard let opened = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }) else {
                return .unusable("lcms2 cannot read the ICC profile")
            }
            source = opened
        case .nclx(let primaries, let transfer):
            switch nclxProfile(primaries: primaries, transfer: transfer) {
            case .success(let made): source = made
            case .failure(let reason): return .unusable(reason.text)
            }
        }
        defer { cmsCloseProfile(source) }
        switch cmsGetColorSpace(source) {
        case cmsSigRgbData: break
        // Grey and CMYK JPEGs are already RGB when they get here (libjpeg-turbo's own conversion).
        case cmsSigGrayData, cmsSigCmykData: return .identity
        default: return .unusable("the ICC profile is not for RGB images")
        }
        guard let sRGB = cmsCreate_sRGBProfile() else { return .unusable("lcms2 could not make an sRGB profile") }
        defer { cmsCloseProfile(sRGB) }
        let flags = UInt32(cmsFLAGS_NOCACHE) | UInt32(cmsFLAGS_COPY_ALPHA)
        guard let handle = cmsCreateTransform(
            source, sticker_TYPE_RGBA_8, sRGB, sticker_TYPE_RGBA_8, UInt32(INTENT_PERCEPTUAL), flags)
        else {
            return .unusable("lcms2 cannot convert from the ICC profile (it may be damaged or incomplete)")
        }
        let transform = Transform(handle)
        return isIdentity(transform) ? .identity : .convert(transform)
    }

    /// True when the transform leaves every probe colour exactly as it is: an embedded sRGB profile
    /// (cameras often embed one) then costs nothing per photo.
    private static func isIdentity(_ transform: Transform) -> Bool {
        let levels: [UInt8] = [0, 37, 96, 160, 212, 255]
        var probe: [UInt8] = []
        for r in levels { for g in levels { for b in levels { probe += [r, g, b, 255] } } }
        let width = levels.count * levels.count
        var image = RGBAImage(width: width, height: probe.count / 4 / width, pixels: probe)
        transform.apply(to: &image)
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
