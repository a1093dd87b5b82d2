/// EXIF orientation: the transform that makes a stored image display upright.
public enum Orientation {
    /// The image transformed for EXIF orientation 1...8 (1 upright, 2 mirrored horizontally,
    /// 3 rotated 180°, 4 mirrored vertically, 5 transposed, 6 rotated 90° clockwise,
    /// 7 transversed, 8 rotated 90° counter-clockwise). Orientations 5...8 swap width and height.
    /// Any other value returns the image unchanged.
    public static func apply(_ orientation: Int, to image: RGBAImage) -> RGBAImage {
        guard (2...8).contains(orientation) else { return image }
        let width = image.width
        let height = image.height
        let swapsSides = orientation >= 5
        let outputWidth = swapsSides ? height : width
        let outputHeight = swapsSides ? width : height

        // Where destination pixel (0, 0) comes from in the source, and how far the source index
        // moves for one step right (dx) and one step down (dy) in the destination.
        let (origin, dx, dy): (Int, Int, Int)
        switch orientation {
        case 2: (origin, dx, dy) = (width - 1, -1, width)
        case 3: (origin, dx, dy) = (width * height - 1, -1, -width)
        case 4: (origin, dx, dy) = ((height - 1) * width, 1, -width)
        case 5: (origin, dx, dy) = (0, width, 1)
        case 6: (origin, dx, dy) = ((height - 1) * width, -width, 1)
        case 7: (origin, dx, dy) = (width * height - 1, -width, -1)
        default: (origin, dx, dy) = (width - 1, width, -1)  // 8
        }

        let count = image.pixels.count
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { output, initializedCount in
            image.pixels.withUnsafeBytes { source in
                let target = UnsafeMutableRawBufferPointer(output)
                // Work in tiles so that the column-wise reads of the rotations stay in cache.
                let tile = 64
                var tileY = 0
                while tileY < outputHeight {
                    let yEnd = min(tileY + tile, outputHeight)
                    var tileX = 0
                    while tileX < outputWidth {
                        let xEnd = min(tileX + tile, outputWidth)
                        for y in tileY..<yEnd {
                            var sourceIndex = origin + y * dy + tileX * dx
                            var targetOffset = (y * outputWidth + tileX) * 4
                            for _ in tileX..<xEnd {
                                let pixel = source.loadUnaligned(fromByteOffset: sourceIndex * 4, as: UInt32.self)
                                target.storeBytes(of: pixel, toByteOffset: targetOffset, as: UInt32.self)
                                sourceIndex += dx
                                targetOffset += 4
                            }
                        }
                        tileX = xEnd
                    }
                    tileY = yEnd
                }
            }
            initializedCount = count
        }
        return RGBAImage(width: outputWidth, height: outputHeight, pixels: pixels)
    }
}
