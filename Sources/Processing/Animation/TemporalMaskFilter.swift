/// Keeps a clip's subject mask steady from frame to frame, before each frame is refined on its own.
///
/// The network sees each frame alone, so where nothing moves its mask still wavers (the edges
/// shimmer), and now and then it misses part of the subject for a frame. Each cell of a frame's coarse
/// mask becomes the median of that cell over the frames around it (``radius`` each side) in which the
/// scene there looks the same: its brightness at the mask's grid within ``stillness`` of this
/// frame's. Where the subject or the camera moves, the frames around differ there and the frame keeps
/// its own value, so a moving subject is followed without lag or ghosts.
public enum TemporalMaskFilter {
    /// Frames looked at on each side.
    public static let radius = 2
    /// The largest change of a cell's mean brightness (0...1) that still counts as the same scene:
    /// above what recompression and sensor noise make of a still scene, below a moving edge's.
    public static let stillness: Float = 0.05

    /// The steadied masks. `brightness[t]` is frame t's brightness (0...1) averaged over each cell of
    /// the masks' grid (the same size as every mask).
    public static func steadied(_ masks: [LowResolutionMask], brightness: [[Float]]) -> [LowResolutionMask] {
        masks.indices.map { steadied(masks, brightness: brightness, frame: $0) }
    }

    /// Frame `frame`'s steadied mask, alone: frames are independent of each other's results, so a
    /// clip's can be steadied on several cores.
    public static func steadied(_ masks: [LowResolutionMask], brightness: [[Float]], frame: Int) -> LowResolutionMask {
        precondition(masks.count == brightness.count, "TemporalMaskFilter: \(masks.count) masks, \(brightness.count) brightness grids")
        guard masks.count > 1 else { return masks[frame] }
        let first = masks[0]
        let count = first.width * first.height
        precondition(masks.allSatisfy { $0.values.count == count } && brightness.allSatisfy { $0.count == count },
                     "TemporalMaskFilter: every mask and brightness grid must have one size")
        let window = max(0, frame - radius)...min(masks.count - 1, frame + radius)
        var values = [Float](repeating: 0, count: count)
        var taken = [Float]()
        taken.reserveCapacity(window.count)
        for cell in 0..<count {
            let here = brightness[frame][cell]
            taken.removeAll(keepingCapacity: true)
            for other in window where abs(brightness[other][cell] - here) <= stillness {
                taken.append(masks[other].values[cell])
            }
            values[cell] = median(&taken)
        }
        return LowResolutionMask(width: first.width, height: first.height, values: values)
    }

    /// The median of `values` (never empty: a frame always agrees with itself); of an even count, the
    /// mean of the middle two.
    static func median(_ values: inout [Float]) -> Float {
        values.sort()
        let middle = values.count / 2
        return values.count % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2
    }

    /// `frame`'s brightness averaged over a `width` × `height` grid (Rec. 709 weights on the
    /// sRGB values, which is enough to tell a still cell from a moving one).
    public static func brightness(of frame: RGBAImage, width: Int, height: Int) -> [Float] {
        let small = ImageResizer.resized(frame, width: width, height: height)
        return (0..<(width * height)).map { index in
            let red = Float(small.pixels[index * 4]), green = Float(small.pixels[index * 4 + 1]), blue = Float(small.pixels[index * 4 + 2])
            return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255
        }
    }
}
