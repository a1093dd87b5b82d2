import CHeif

/// HEIF (HEIC) and AVIF through libheif, which decodes HEVC with libde265 and AV1 with dav1d and
/// reports every failure as a returned `heif_error` (no `longjmp`). Every context, handle, image
/// and option block is created and released inside one call here.
///
/// Still images only: the primary image is decoded (the others in a burst, a Live Photo's
/// pairing, depth and gain maps are left alone). libheif applies the container's transformations
/// (`clap`, `irot`, `imir`), so the decoded pixels are upright and the EXIF orientation inside a
/// HEIF file must not be applied on top of them.
public enum HEIFCodec {
    /// What a HEIF file holds besides its pixels.
    public struct Decoded: Sendable {
        /// The primary image, upright, reduced to about the working size.
        public var image: RGBAImage
        /// Full upright size (after `irot`/`imir`/`clap`).
        public var width: Int
        public var height: Int
        /// The Exif item's TIFF block (its 4-byte offset header skipped), if any.
        public var exif: [UInt8]?
        public var colorProfile: ColorProfile?
    }

    /// Largest side libheif is allowed to open, whatever `maxPixels` says (libheif's own default
    /// limit in 1.15 is the same kind of check; this makes it explicit).
    static let maximumSide = 65_535

    private static let initialized: Void = { _ = heif_init(nil) }()

    /// Decodes the primary image to 8-bit straight RGBA (10- and 12-bit images are reduced),
    /// keeping its alpha. The size is checked against `maxPixels` from the headers before any
    /// pixel is decoded; the decoded image is shrunk to about `workingSize` at once.
    public static func decode(_ bytes: [UInt8], maxPixels: Int, workingSize: Int) throws(ProcessingError) -> Decoded {
        try decode(bytes, maxPixels: maxPixels, workingSize: workingSize, path: .planar)
    }

    /// How the decoded pixels come out of libheif: `planar` is what `decode` uses; `interleaved`
    /// (libheif's own conversion to RGBA, then `ImageResizer`) is the reference it is tested against.
    enum PixelPath { case planar, interleaved }

    static func decode(_ bytes: [UInt8], maxPixels: Int, workingSize: Int, path: PixelPath) throws(ProcessingError) -> Decoded {
        _ = initialized
        try ISOBoxes.checkComplete(bytes)
        guard let context = heif_context_alloc() else { throw .corruptImage("libheif could not allocate a context") }
        defer { heif_context_free(context) }
        heif_context_set_maximum_image_size_limit(context, Int32(min(maximumSide, max(1, maxPixels))))
        // libheif reads from our buffer without copying it: everything happens inside this closure.
        return try bytes.withUnsafeBufferPointer { buffer throws(ProcessingError) -> Decoded in
            try check(heif_context_read_from_memory_without_copy(context, buffer.baseAddress, buffer.count, nil))
            var handle: OpaquePointer?
            try check(heif_context_get_primary_image_handle(context, &handle))
            guard let handle else { throw .corruptImage("the HEIF file has no primary image") }
            defer { heif_image_handle_release(handle) }

            let width = Int(heif_image_handle_get_width(handle))
            let height = Int(heif_image_handle_get_height(handle))
            guard width > 0, height > 0 else { throw .corruptImage("the primary image has no size (\(width)x\(height))") }
            let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
            guard !overflow, pixelCount <= maxPixels else { throw .tooLarge(width: width, height: height, limit: maxPixels) }

            let exif = exifBlock(handle)
            var profile = colorProfile(of: handle)
            let image = try decodePixels(handle, workingSize: workingSize, path: path, profile: &profile)
            return Decoded(image: image, width: width, height: height, exif: exif, colorProfile: profile)
        }
    }

    /// The primary image's size after transformations, from the headers alone.
    public static func readHeader(_ bytes: [UInt8]) throws(ProcessingError) -> (width: Int, height: Int) {
        _ = initialized
        guard let context = heif_context_alloc() else { throw .corruptImage("libheif could not allocate a context") }
        defer { heif_context_free(context) }
        return try bytes.withUnsafeBufferPointer { buffer throws(ProcessingError) in
            try check(heif_context_read_from_memory_without_copy(context, buffer.baseAddress, buffer.count, nil))
            var handle: OpaquePointer?
            try check(heif_context_get_primary_image_handle(context, &handle))
            guard let handle else { throw .corruptImage("the HEIF file has no primary image") }
            defer { heif_image_handle_release(handle) }
            return (Int(heif_image_handle_get_width(handle)), Int(heif_image_handle_get_height(handle)))
        }
    }

    /// The coded bit depth of the primary image's luma, from the headers (nil when unreadable).
    static func lumaBitDepth(_ bytes: [UInt8]) -> Int? {
        _ = initialized
        guard let context = heif_context_alloc() else { return nil }
        defer { heif_context_free(context) }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard heif_context_read_from_memory_without_copy(context, buffer.baseAddress, buffer.count, nil).code == heif_error_Ok else { return nil }
            var handle: OpaquePointer?
            guard heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok, let handle else { return nil }
            defer { heif_image_handle_release(handle) }
            let depth = Int(heif_image_handle_get_luma_bits_per_pixel(handle))
            return depth > 0 ? depth : nil
        }
    }

    /// Decodes the primary image and brings it to about the working size in one pass.
    ///
    /// libheif 1.15 converts every coded image to planar RGB 4:4:4 while decoding (asking it for
    /// YCbCr planes makes it convert to RGB and back), so planar RGB is the cheapest thing to take:
    /// it skips libheif's second full-size pass to interleaved RGBA, and our reduction reads the
    /// planes directly (no full-size RGBA of our own). 10- and 12-bit planes are reduced to 8 bits
    /// by the same pass. Images libheif cannot give as planar RGB (monochrome) come interleaved.
    private static func decodePixels(
        _ handle: OpaquePointer, workingSize: Int, path: PixelPath, profile: inout ColorProfile?
    ) throws(ProcessingError) -> RGBAImage {
        guard let options = heif_decoding_options_alloc() else { throw .corruptImage("libheif could not allocate options") }
        defer { heif_decoding_options_free(options) }
        options.pointee.convert_hdr_to_8bit = 1
        var decoded: OpaquePointer?
        let chroma = path == .planar ? heif_chroma_444 : heif_chroma_interleaved_RGBA
        var error = heif_decode_image(handle, &decoded, heif_colorspace_RGB, chroma, options)
        if path == .planar && error.code == heif_error_Unsupported_feature && error.subcode == heif_suberror_Unsupported_color_conversion {
            decoded = nil
            error = heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options)
        }
        try check(error)
        guard let decoded else { throw .corruptImage("libheif returned no image") }
        defer { heif_image_release(decoded) }
        if profile == nil { profile = nclx(of: decoded) }

        let planeWidth = Int(heif_image_get_width(decoded, heif_channel_R))
        let planeHeight = Int(heif_image_get_height(decoded, heif_channel_R))
        guard planeWidth > 0, planeHeight > 0 else { return try interleaved(decoded, workingSize: workingSize) }
        let factor = ImageResizer.reducedSize(width: planeWidth, height: planeHeight, workingSize: workingSize)
            .map { _ in max(planeWidth, planeHeight) / workingSize } ?? 1
        let red = try plane(decoded, heif_channel_R, width: planeWidth, height: planeHeight)
        let green = try plane(decoded, heif_channel_G, width: planeWidth, height: planeHeight)
        let blue = try plane(decoded, heif_channel_B, width: planeWidth, height: planeHeight)
        let alpha = heif_image_has_channel(decoded, heif_channel_Alpha) != 0
            ? try plane(decoded, heif_channel_Alpha, width: planeWidth, height: planeHeight) : nil
        return PlanarRGBReducer.reduced(red: red, green: green, blue: blue, alpha: alpha, width: planeWidth, height: planeHeight, factor: factor)
    }

    /// One plane of a decoded planar image, checked to cover `width` x `height`.
    private static func plane(
        _ image: OpaquePointer, _ channel: heif_channel, width: Int, height: Int
    ) throws(ProcessingError) -> PlanarRGBReducer.Plane {
        let depth = Int(heif_image_get_bits_per_pixel_range(image, channel))
        var stride: Int32 = 0
        guard (1...16).contains(depth), heif_image_get_width(image, channel) == Int32(width), heif_image_get_height(image, channel) == Int32(height),
              let base = heif_image_get_plane_readonly(image, channel, &stride), Int(stride) >= width * (depth > 8 ? 2 : 1) else {
            throw .corruptImage("libheif returned a plane of an unexpected size or depth")
        }
        return .init(base: UnsafeRawPointer(base), stride: Int(stride), bitDepth: depth)
    }

    /// An interleaved RGBA image from libheif, copied and reduced to about the working size.
    private static func interleaved(_ decoded: OpaquePointer, workingSize: Int) throws(ProcessingError) -> RGBAImage {
        let planeWidth = Int(heif_image_get_width(decoded, heif_channel_interleaved))
        let planeHeight = Int(heif_image_get_height(decoded, heif_channel_interleaved))
        var stride: Int32 = 0
        guard planeWidth > 0, planeHeight > 0, heif_image_get_bits_per_pixel_range(decoded, heif_channel_interleaved) == 8,
              let plane = heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride), Int(stride) >= planeWidth * 4 else {
            throw .corruptImage("libheif returned no RGBA plane")
        }
        let rowBytes = planeWidth * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * planeHeight) { output, count in
            for row in 0..<planeHeight {
                (output.baseAddress! + row * rowBytes).update(from: plane + row * Int(stride), count: rowBytes)
            }
            count = rowBytes * planeHeight
        }
        let full = RGBAImage(width: planeWidth, height: planeHeight, pixels: pixels)
        return ImageResizer.reducedToWorkingSize(full, workingSize: workingSize)
    }

    /// The first Exif metadata item of the image, without its 4-byte header (the offset of the
    /// TIFF header within the rest, usually 0, or 6 when an `Exif\0\0` prefix follows).
    private static func exifBlock(_ handle: OpaquePointer) -> [UInt8]? {
        let count = Int(heif_image_handle_get_number_of_metadata_blocks(handle, "Exif"))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let found = Int(heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &ids, Int32(count)))
        guard found > 0 else { return nil }
        let size = heif_image_handle_get_metadata_size(handle, ids[0])
        guard size > 4, size < 64 << 20 else { return nil }
        var data = [UInt8](repeating: 0, count: size)
        guard heif_image_handle_get_metadata(handle, ids[0], &data).code == heif_error_Ok else { return nil }
        let offset = Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3])
        guard offset < size - 4 else { return nil }
        return Array(data[(4 + offset)...])
    }

    /// The `colr` box of the image: an ICC profile (`prof`/`rICC`) first, else an `nclx` description.
    private static func colorProfile(of handle: OpaquePointer) -> ColorProfile? {
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        if size > 0 && size < 64 << 20 {
            var data = [UInt8](repeating: 0, count: size)
            if heif_image_handle_get_raw_color_profile(handle, &data).code == heif_error_Ok { return .icc(data) }
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        guard heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx else { return nil }
        defer { heif_nclx_color_profile_free(nclx) }
        return .nclx(primaries: Int(nclx.pointee.color_primaries.rawValue), transfer: Int(nclx.pointee.transfer_characteristics.rawValue))
    }

    /// The colour description of the coded stream itself (HEVC/AV1 headers), when the container has none.
    private static func nclx(of image: OpaquePointer) -> ColorProfile? {
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        guard heif_image_get_nclx_color_profile(image, &nclx).code == heif_error_Ok, let nclx else { return nil }
        defer { heif_nclx_color_profile_free(nclx) }
        return .nclx(primaries: Int(nclx.pointee.color_primaries.rawValue), transfer: Int(nclx.pointee.transfer_characteristics.rawValue))
    }

    /// Throws a libheif error as a `ProcessingError`.
    private static func check(_ error: heif_error) throws(ProcessingError) {
        guard error.code != heif_error_Ok else { return }
        let text = error.message.map { String(cString: $0) } ?? "unknown libheif error"
        switch error.code {
        case heif_error_Invalid_input where error.subcode == heif_suberror_End_of_data:
            throw .truncated(text)
        case heif_error_Unsupported_filetype, heif_error_Unsupported_feature:
            throw .unsupportedFormat("HEIF variant: \(text)")
        case heif_error_Memory_allocation_error where error.subcode == heif_suberror_Security_limit_exceeded:
            throw .corruptImage("over libheif's security limits: \(text)")
        default:
            throw .corruptImage(text)
        }
    }

    // MARK: - Encoding (samples, tests, benchmarks)

    /// How to encode: the codec (HEVC makes HEIC, AV1 makes AVIF) and what to embed.
    public struct EncodeOptions: Sendable {
        public enum Codec: Sendable { case hevc, av1 }
        public var codec: Codec
        public var quality: Int
        /// An ICC profile for the `colr` box (`prof`).
        public var iccProfile: [UInt8]?
        /// H.273 primaries and transfer for an `nclx` `colr` box (ignored when `iccProfile` is set).
        public var nclx: (primaries: Int, transfer: Int)?
        /// A TIFF-structured EXIF block for an Exif item.
        public var exif: [UInt8]?
        /// EXIF orientation (1...8) written as `irot`/`imir` boxes: the pixels given are the stored
        /// ones, and a reader shows them transformed.
        public var orientation: Int
        /// 8, or 10 for a 10-bit image (values scaled up from the 8-bit pixels).
        public var bitDepth: Int
        /// More top-level images besides the primary one (as in a burst), stored before it.
        public var otherImages: [RGBAImage] = []

        public init(
            codec: Codec = .hevc, quality: Int = 90, iccProfile: [UInt8]? = nil, nclx: (primaries: Int, transfer: Int)? = nil,
            exif: [UInt8]? = nil, orientation: Int = 1, bitDepth: Int = 8
        ) {
            self.codec = codec
            self.quality = quality
            self.iccProfile = iccProfile
            self.nclx = nclx
            self.exif = exif
            self.orientation = orientation
            self.bitDepth = bitDepth
        }
    }

    /// Encodes straight RGBA (alpha kept when any pixel is not opaque) as HEIC or AVIF.
    public static func encode(_ image: RGBAImage, options: EncodeOptions) throws(ProcessingError) -> [UInt8] {
        _ = initialized
        guard let context = heif_context_alloc() else { throw .encodingFailed("libheif could not allocate a context") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        let format = options.codec == .hevc ? heif_compression_HEVC : heif_compression_AV1
        try encodingCheck(heif_context_get_encoder_for_format(context, format, &encoder))
        guard let encoder else { throw .encodingFailed("libheif has no encoder for \(options.codec)") }
        defer { heif_encoder_release(encoder) }
        try encodingCheck(heif_encoder_set_lossy_quality(encoder, Int32(min(100, max(0, options.quality)))))

        let heifImage = try makeImage(image, bitDepth: options.bitDepth)
        defer { heif_image_release(heifImage) }
        if let icc = options.iccProfile {
            try encodingCheck(icc.withUnsafeBytes { heif_image_set_raw_color_profile(heifImage, "prof", $0.baseAddress, $0.count) })
        } else if let nclx = options.nclx, let profile = heif_nclx_color_profile_alloc() {
            defer { heif_nclx_color_profile_free(profile) }
            _ = heif_nclx_color_profile_set_color_primaries(profile, UInt16(nclx.primaries))
            _ = heif_nclx_color_profile_set_transfer_characteristics(profile, UInt16(nclx.transfer))
            _ = heif_nclx_color_profile_set_matrix_coefficients(profile, 6)
            profile.pointee.full_range_flag = 1
            try encodingCheck(heif_image_set_nclx_color_profile(heifImage, profile))
        }
        guard let encoding = heif_encoding_options_alloc() else { throw .encodingFailed("libheif could not allocate options") }
        defer { heif_encoding_options_free(encoding) }
        encoding.pointee.image_orientation = heif_orientation(rawValue: UInt32(min(8, max(1, options.orientation))))
        // libheif leaves the nclx box out of RGB images by default (for old macOS readers).
        if options.nclx != nil && options.iccProfile == nil { encoding.pointee.macOS_compatibility_workaround_no_nclx_profile = 0 }
        // The other images go in first, so the primary is not merely the first one.
        for other in options.otherImages {
            let extra = try makeImage(other, bitDepth: 8)
            defer { heif_image_release(extra) }
            var extraHandle: OpaquePointer?
            try encodingCheck(heif_context_encode_image(context, extra, encoder, nil, &extraHandle))
            if let extraHandle { heif_image_handle_release(extraHandle) }
        }
        var handle: OpaquePointer?
        try encodingCheck(heif_context_encode_image(context, heifImage, encoder, encoding, &handle))
        guard let handle else { throw .encodingFailed("libheif made no image") }
        defer { heif_image_handle_release(handle) }
        if let exif = options.exif {
            try encodingCheck(exif.withUnsafeBytes { heif_context_add_exif_metadata(context, handle, $0.baseAddress, Int32($0.count)) })
        }
        try encodingCheck(heif_context_set_primary_image(context, handle))
        return try write(context)
    }

    /// A libheif image holding the pixels, interleaved RGB(A) at 8 or 10 bits.
    private static func makeImage(_ image: RGBAImage, bitDepth: Int) throws(ProcessingError) -> OpaquePointer {
        let alpha = image.hasTransparency
        let deep = bitDepth > 8
        let chroma: heif_chroma = switch (deep, alpha) {
        case (false, false): heif_chroma_interleaved_RGB
        case (false, true): heif_chroma_interleaved_RGBA
        case (true, false): heif_chroma_interleaved_RRGGBB_LE
        case (true, true): heif_chroma_interleaved_RRGGBBAA_LE
        }
        var created: OpaquePointer?
        try encodingCheck(heif_image_create(Int32(image.width), Int32(image.height), heif_colorspace_RGB, chroma, &created))
        guard let created else { throw .encodingFailed("libheif could not make an image") }
        let depth = deep ? 10 : 8
        guard heif_image_add_plane(created, heif_channel_interleaved, Int32(image.width), Int32(image.height), Int32(depth)).code == heif_error_Ok else {
            heif_image_release(created)
            throw .encodingFailed("libheif could not add a plane")
        }
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(created, heif_channel_interleaved, &stride) else {
            heif_image_release(created)
            throw .encodingFailed("libheif gave no plane")
        }
        let channels = alpha ? 4 : 3
        image.pixels.withUnsafeBufferPointer { source in
            for y in 0..<image.height {
                let row = plane + y * Int(stride)
                for x in 0..<image.width {
                    for c in 0..<channels {
                        let value = source[(y * image.width + x) * 4 + c]
                        if deep {
                            let wide = UInt16(value) << 2 | UInt16(value) >> 6
                            row[(x * channels + c) * 2] = UInt8(wide & 0xFF)
                            row[(x * channels + c) * 2 + 1] = UInt8(wide >> 8)
                        } else {
                            row[x * channels + c] = value
                        }
                    }
                }
            }
        }
        return created
    }

    /// The context's file, written to memory.
    private static func write(_ context: OpaquePointer) throws(ProcessingError) -> [UInt8] {
        var output: [UInt8] = []
        var writer = heif_writer()
        writer.writer_api_version = 1
        writer.write = { _, data, size, userdata in
            if let data, let userdata {
                let buffer = userdata.assumingMemoryBound(to: [UInt8].self)
                buffer.pointee.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size))
            }
            let ok = UnsafeRawPointer(StaticString("ok").utf8Start).assumingMemoryBound(to: CChar.self)
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: ok)
        }
        let status = withUnsafeMutablePointer(to: &output) { heif_context_write(context, &writer, $0) }
        try encodingCheck(status)
        return output
    }

    private static func encodingCheck(_ error: heif_error) throws(ProcessingError) {
        guard error.code != heif_error_Ok else { return }
        throw .encodingFailed(error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)")
    }
}
