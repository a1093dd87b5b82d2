extension ImageResizer {
    /// Like JPEG's DCT scaling, for decoders that cannot scale while decoding (PNG, HEIF): both
    /// sides divided by the largest whole factor that keeps the long side at least `workingSize`
    /// (never enlarging; unchanged below twice the working size).
    public static func reducedToWorkingSize(_ image: RGBAImage, workingSize: Int) -> RGBAImage {
        guard let (width, height) = reducedSize(width: image.width, height: image.height, workingSize: workingSize) else { return image }
        return resized(image, width: width, height: height)
    }

    /// The size `reducedToWorkingSize` makes, or nil when it leaves the image as it is.
    static func reducedSize(width: Int, height: Int, workingSize: Int) -> (width: Int, height: Int)? {
        let longSide = max(width, height)
        guard workingSize > 0, longSide >= 2 * workingSize else { return nil }
        let factor = longSide / workingSize
        return ((width + factor - 1) / factor, (height + factor - 1) / factor)
    }
}
