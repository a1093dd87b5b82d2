import Foundation
import Testing
@testable import Processing

/// The animated formats the catalog writes: APNG (Signal, iMessage) and animated WebP (WhatsApp, and
/// the catalog's own store of animated stickers).
@Suite(.timeLimit(.minutes(15)))
struct AnimationEncoderTests {
    /// Three frames of a square that moves over a transparent canvas, in three colours.
    static func frames(width: Int = 64, height: Int = 48) -> [RGBAImage] {
        (0..<3).map { index in
            var image = RGBAImage(width: width, height: height, red: 0, green: 0, blue: 0, alpha: 0)
            let colour: [UInt8] = [[230, 40, 40], [40, 200, 60], [40, 80, 230]][index]
            for y in 10..<30 {
                for x in (8 + index * 10)..<(28 + index * 10) {
                    let offset = (y * width + x) * 4
                    image.pixels.replaceSubrange(offset..<offset + 4, with: colour + [255])
                }
            }
            return image
        }
    }

    @Test func anAPNGHoldsEveryFrameInOrderAndShowsTheFirstWithoutAnimation() throws {
        let frames = Self.frames()
        let apng = try APNGEncoder.encode(frames, durations: [100, 200, 300], loops: 0)
        let chunks = PNGChunkList(apng).chunks
        #expect(chunks.first?.type == "IHDR" && chunks.last?.type == "IEND")
        let control = try #require(chunks.first { $0.type == "acTL" })
        #expect(control.data == [0, 0, 0, 3, 0, 0, 0, 0])
        #expect(chunks.firstIndex { $0.type == "acTL" }! < chunks.firstIndex { $0.type == "IDAT" }!)
        let frameControls = chunks.filter { $0.type == "fcTL" }
        #expect(frameControls.count == 3)
        #expect(frameControls.map { Int($0.data[20]) << 8 | Int($0.data[21]) } == [100, 200, 300])
        // Sequence numbers run 0, 1, 2... across fcTL and fdAT chunks, in file order.
        let sequence = chunks.filter { $0.type == "fcTL" || $0.type == "fdAT" }.map { PNGCodec.readUInt32($0.data, at: 0) }
        #expect(sequence == (0..<UInt32(sequence.count)).map { $0 })
        // A decoder that knows nothing of APNG shows the first frame, exactly.
        #expect(try PNGCodec.decode(apng, maxPixels: 1 << 20) == frames[0])
    }

    @Test func anAnimatedWebPIsMarkedAnimatedWithAFramePerPicture() throws {
        let frames = Self.frames()
        for mode in [WebPCodec.Mode.lossless, .lossy(quality: 80)] {
            let webp = try WebPCodec.encodeAnimation(frames, durations: [100, 200, 300], loops: 0, mode: mode)
            let chunks = WebPChunks(webp)
            #expect(!chunks.isTruncated)
            let header = try #require(chunks.payload("VP8X", in: webp))
            #expect(header[0] & 0x02 != 0, "the animation flag")
            let animationFrames = chunks.chunks.filter { $0.type == "ANMF" }
            #expect(animationFrames.count == 3)
            // Each ANMF payload carries its duration, 24-bit little-endian, at bytes 12-14.
            let durations = animationFrames.map { Int(webp[$0.payload.lowerBound + 12]) | Int(webp[$0.payload.lowerBound + 13]) << 8 }
            #expect(durations == [100, 200, 300])
            #expect(try WebPCodec.encodeAnimation(frames, durations: [100, 200, 300], loops: 0, mode: mode) == webp, "reproducible")
        }
    }

    @Test func framesOfDifferentSizesOrMissingDurationsAreRefused() {
        var frames = Self.frames()
        frames.append(RGBAImage(width: 10, height: 10, red: 0, green: 0, blue: 0))
        #expect(throws: ProcessingError.self) { try APNGEncoder.encode(frames, durations: [1, 1, 1, 1]) }
        #expect(throws: ProcessingError.self) { try WebPCodec.encodeAnimation(frames, durations: [1, 1, 1, 1], mode: .lossless) }
        #expect(throws: ProcessingError.self) { try APNGEncoder.encode(Self.frames(), durations: [1]) }
        #expect(throws: ProcessingError.self) { try APNGEncoder.encode([], durations: []) }
    }
}
