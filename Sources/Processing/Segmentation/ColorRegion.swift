/// The part of a photo around a point that looks like the point: what a person means by "this
/// bit" where the network's mask has nothing to say. Pixels join when they touch the region
/// (4 neighbours) and their colour is near the point's own, or follows on smoothly from the
/// neighbour it touches (shading across a surface) without drifting too far from the point's;
/// and only within a disc around the point, so a wall or a sky of one colour never floods the
/// whole frame: a larger part takes another point.
enum ColorRegion {
    /// How far (RGB distance, 0...441) a pixel's colour may be from the point's own: a base for
    /// the noise of a flat surface plus twice the spread of the point's 5 x 5 neighbourhood, so a
    /// textured part (fur, fabric) is taken whole, capped so that it never crosses a real edge.
    static func tolerance(spread: Double) -> Double { min(64, 24 + 2 * spread) }

    /// The pixels (`y * width + x`) of the region grown from `point`, at most `radius` pixels away
    /// from it, inside `bounds`, and only where `allowed` says so (a mask's part); empty when the
    /// point itself is not allowed.
    static func grown(
        in image: RGBAImage, from point: (x: Int, y: Int), radius: Int,
        within bounds: WorkingGuidance.Rect, allowed: (Int) -> Bool = { _ in true }
    ) -> [Int] {
        let width = image.width
        guard allowed(point.y * width + point.x) else { return [] }
        let window = WorkingGuidance.Rect(
            x0: max(bounds.x0, point.x - radius), y0: max(bounds.y0, point.y - radius),
            x1: min(bounds.x1, point.x + radius + 1), y1: min(bounds.y1, point.y + radius + 1)
        )
        let (seed, spread) = patchColor(image, around: point)
        let near = tolerance(spread: spread), limit = near * near
        // Shading: a step of a quarter of the tolerance from the neighbour, up to 2.5 times it from the point.
        let step = near * near / 16, drift = 6.25 * near * near
        let radiusSquared = radius * radius
        var visited = [Bool](repeating: false, count: window.width * window.height)
        var region: [Int] = []
        var stack = [point]
        visited[(point.y - window.y0) * window.width + point.x - window.x0] = true
        image.pixels.withUnsafeBufferPointer { pixels in
            func distance(_ index: Int, _ colour: (red: Double, green: Double, blue: Double)) -> Double {
                let red = Double(pixels[index * 4]) - colour.red, green = Double(pixels[index * 4 + 1]) - colour.green
                let blue = Double(pixels[index * 4 + 2]) - colour.blue
                return red * red + green * green + blue * blue
            }
            func similar(_ index: Int, from neighbour: Int) -> Bool {
                let fromSeed = distance(index, seed)
                if fromSeed <= limit { return true }
                let colour = (Double(pixels[neighbour * 4]), Double(pixels[neighbour * 4 + 1]), Double(pixels[neighbour * 4 + 2]))
                return fromSeed <= drift && distance(index, colour) <= step
            }
            while let (x, y) = stack.popLast() {
                region.append(y * width + x)
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] {
                    guard nx >= window.x0, nx < window.x1, ny >= window.y0, ny < window.y1 else { continue }
                    let local = (ny - window.y0) * window.width + nx - window.x0
                    guard !visited[local] else { continue }
                    visited[local] = true
                    let dx = nx - point.x, dy = ny - point.y, index = ny * width + nx
                    if dx * dx + dy * dy <= radiusSquared, allowed(index), similar(index, from: y * width + x) { stack.append((nx, ny)) }
                }
            }
        }
        return region
    }

    /// The mean colour of the 5 x 5 pixels around `point` (fewer at the frame's edge) and their
    /// RMS distance from it.
    private static func patchColor(_ image: RGBAImage, around point: (x: Int, y: Int)) -> (color: (red: Double, green: Double, blue: Double), spread: Double) {
        var samples: [(Double, Double, Double)] = []
        for y in max(0, point.y - 2)...min(image.height - 1, point.y + 2) {
            for x in max(0, point.x - 2)...min(image.width - 1, point.x + 2) {
                let pixel = image.pixel(x: x, y: y)
                samples.append((Double(pixel.red), Double(pixel.green), Double(pixel.blue)))
            }
        }
        let count = Double(samples.count)
        let mean = (samples.reduce(0) { $0 + $1.0 } / count, samples.reduce(0) { $0 + $1.1 } / count, samples.reduce(0) { $0 + $1.2 } / count)
        let variance = samples.reduce(0) { total, sample in
            let red = sample.0 - mean.0, green = sample.1 - mean.1, blue = sample.2 - mean.2
            return total + red * red + green * green + blue * blue
        } / count
        return ((mean.0, mean.1, mean.2), variance.squareRoot())
    }
}
