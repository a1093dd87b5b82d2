import Testing

@testable import Processing

/// Moving stickers shaped and encoded for a platform: timing rules, the shared-palette APNG read
/// back by FFmpeg's own decoder, and the fitting ladder under a byte limit.
@Suite(.timeLimit(.minutes(15))) struct AnimatedBudgetEncoderTests {
    /// A disc crossing a transparent canvas, `count` frames of `milliseconds` each.
    static func movingDisc(count: Int, milliseconds: Int, width: Int = 160, height: Int = 120) -> AnimationClip {
        let frames = (0..<count).map { index in
            var image = RGBAImage(width: width, height: height, red: 0, green: 0, blue: 0, alpha: 0)
            let cx = 30 + (width - 60) * index / max(1, count - 1), cy = height / 2
            for y in 0..<height {
                for x in 0..<width where (x - cx) * (x - cx) + (y - cy) * (y - cy) < 25 * 25 {
                    let offset = (y * width + x) * 4
                    image.pixels[offset] = UInt8(truncatingIfNeeded: 200 + x / 4)
                    image.pixels[offset + 1] = UInt8(truncatingIfNeeded: 60 + y)
                    image.pixels[offset + 2] = 40
                    image.pixels[offset + 3] = 255
                }
            }
            return image
        }
        return AnimationClip(frames: frames, durations: [Int](repeating: milliseconds, count: count))
    }

    @Test func resamplingKeepsThePaceAndTheRunningTime() {
        let clip = Self.movingDisc(count: 30, milliseconds: 33)
        let half = clip.resampled(toFrameRate: 15)
        #expect(half.milliseconds == clip.milliseconds)
        #expect(half.frames.count == 15)
        #expect(half.frames[1] == clip.frames[2])
        #expect(clip.resampled(toFrameRate: 60) == clip)

        let short = clip.shortened(toMilliseconds: 500)
        #expect(short.milliseconds == 500 && short.frames.count == 16)

        let quick = AnimationClip(frames: Array(clip.frames.prefix(6)), durations: [4, 4, 4, 20, 3, 30])
        let merged = quick.withFrames(atLeast: 8)
        #expect(merged.milliseconds == quick.milliseconds)
        #expect(merged.durations.allSatisfy { $0 >= 8 })
        #expect(merged.frames.first == quick.frames.first)
    }

    @Test func thePaletteHoldsTransparencyAtEntryZeroAndNoMoreColoursThanAsked() {
        let clip = Self.movingDisc(count: 4, milliseconds: 100)
        let indexed = PaletteQuantizer.quantize(clip.frames, colors: 16)
        #expect(indexed.palette.count <= 16)
        #expect(indexed.palette[0].alpha == 0)
        #expect(indexed.indices[0][0] == 0)
        let two = RGBAImage(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 0, 255, 255])
        let exact = PaletteQuantizer.quantize([two], colors: 3)
        let colours = exact.indices[0].map { exact.palette[Int($0)] }
        #expect(colours.map(\.red) == [255, 0] && colours.map(\.blue) == [0, 255])
    }

    @Test func aPaletteAPNGReadsBackFrameByFrameInFFmpeg() throws {
        var clip = Self.movingDisc(count: 8, milliseconds: 100)
        // A repeated frame is merged into the one before; the running time is kept.
        clip = AnimationClip(frames: clip.frames + [clip.frames[7]], durations: clip.durations + [100])
        let bytes = try APNGEncoder.encodePalette(clip.frames, durations: clip.durations, colors: 64)
        #expect(bytes.count < (try APNGEncoder.encode(clip.frames, durations: clip.durations)).count)
        let decoded = try AnimationDecoder.decode(bytes, window: AnimationWindow(duration: 10, maxFrameRate: 100, workingSize: nil))
        #expect(decoded.frames.count == 8)
        #expect(decoded.durationMilliseconds == 900)
        for (index, frame) in decoded.frames.enumerated() {
            // Each frame as composed from its changed rectangle matches the source within the palette's error.
            let source = clip.frames[index]
            var worst = 0
            for offset in stride(from: 0, to: source.pixels.count, by: 4) {
                if source.pixels[offset + 3] != frame.image.pixels[offset + 3] { worst = max(worst, 255) }
                if source.pixels[offset + 3] == 255 {
                    for channel in 0..<3 { worst = max(worst, abs(Int(source.pixels[offset + channel]) - Int(frame.image.pixels[offset + channel]))) }
                }
            }
            #expect(worst <= 24, "frame \(index): largest difference \(worst)")
        }
    }

    @Test func aTightLimitIsMetByGivingUpRateQualityOrLengthAndTheResultSaysWhat() throws {
        let clip = Self.movingDisc(count: 30, milliseconds: 33)
        let free = try AnimatedBudgetEncoder.encode(clip, as: .webp, limits: AnimationLimits(maxBytes: nil, maxMilliseconds: nil, maxFrameRate: nil))
        guard case .fits(let full) = free else { Issue.record("no limit must fit"); return }
        #expect(full.encoding == "webp-q85" && full.steps.isEmpty && full.frames == 30)

        let tight = AnimationLimits(maxBytes: full.bytes.count * 6 / 10, maxMilliseconds: 600, maxFrameRate: 30)
        guard case .fits(let fitted) = try AnimatedBudgetEncoder.encode(clip, as: .webp, limits: tight) else {
            Issue.record("a limit of 60 % must be reachable"); return
        }
        #expect(fitted.bytes.count <= tight.maxBytes!)
        #expect(fitted.milliseconds <= 600)
        #expect(fitted.steps.contains("1.0 → 0.6 s"))
        #expect(try AnimatedBudgetEncoder.encode(clip, as: .webp, limits: tight) == .fits(fitted), "the same input gives the same bytes")

        let impossible = AnimationLimits(maxBytes: 100, maxMilliseconds: nil, maxFrameRate: nil)
        guard case .tooLarge(let smallest, _, let steps) = try AnimatedBudgetEncoder.encode(clip, as: .apng, limits: impossible) else {
            Issue.record("100 bytes cannot be met"); return
        }
        #expect(smallest > 100 && !steps.isEmpty)
    }
}
