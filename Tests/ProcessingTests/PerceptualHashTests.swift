import Foundation
import Testing
@testable import Processing
import SampleImages

/// The photo hash and the outline hash against the changes a shared or edited copy goes through,
/// and against other pictures.
@Suite(.timeLimit(.minutes(15)))
struct PerceptualHashTests {
    static func scene(_ index: Int, shape: SampleScene.Shape? = nil) -> SampleScene {
        SampleScene(width: 900, height: 640, background: .gradient(top: RGB(70, 110, 160), bottom: RGB(200, 210, 180)),
                    shape: shape ?? SampleScene.Shape.allCases[index % SampleScene.Shape.allCases.count],
                    subjectColor: RGB(UInt8(180 + index * 7 % 60), 90, 40),
                    centerX: 0.45 + Double(index % 3) * 0.05, radius: 0.3, seed: UInt64(index))
    }

    static func decoded(_ bytes: [UInt8]) throws -> RGBAImage {
        try PhotoDecoder.decode(bytes, options: DecodeOptions(maxPixels: 1 << 26, workingSize: 1024)).image
    }

    @Test func aCopyThatWasResizedRecompressedOrConvertedHashesAlike() throws {
        let photo = Self.scene(0).renderPhoto()
        let hash = PerceptualHash.ofLuma(photo)
        let copies: [(String, RGBAImage)] = [
            ("half size", ImageResizer.resized(photo, width: 450, height: 320)),
            ("a fifth, stretched", ImageResizer.resized(photo, width: 180, height: 140)),
            ("JPEG 40", try Self.decoded(JPEGCodec.encode(photo, quality: 40))),
            ("JPEG 90", try Self.decoded(JPEGCodec.encode(photo, quality: 90))),
            ("WebP lossy", try Self.decoded(WebPCodec.encode(photo, mode: .lossy(quality: 60)))),
        ]
        for (change, copy) in copies {
            #expect(hash.distance(to: PerceptualHash.ofLuma(copy)) <= 4, "\(change)")
        }
    }

    /// Same-coloured subjects over other backgrounds. (Over the same background the photos' hashes
    /// are close, and the outline's hash tells the subjects apart: `otherOutlinesDiffer`.)
    @Test func otherPicturesAreFarApart() {
        let backgrounds: [SampleScene.Background] = [
            .gradient(top: RGB(70, 110, 160), bottom: RGB(200, 210, 180)), .gradient(top: RGB(220, 200, 160), bottom: RGB(40, 60, 50)),
            .checker(RGB(30, 30, 30), RGB(220, 220, 220), cell: 60), .noise(RGB(120, 140, 90), amplitude: 40),
            .checker(RGB(90, 40, 40), RGB(200, 150, 120), cell: 150),
        ]
        let hashes = backgrounds.enumerated().map { index, background in
            var scene = Self.scene(index)
            scene.background = background
            return PerceptualHash.ofLuma(scene.renderPhoto())
        }
        for first in hashes.indices {
            for second in hashes.indices where second > first {
                #expect(hashes[first].distance(to: hashes[second]) >= 12, "scenes \(first) and \(second)")
            }
        }
    }

    @Test func theOutlineIgnoresSizePlaceAndACroppedBackground() {
        let cutout = Self.scene(0).renderCutout()
        let shape = SimilaritySignature.shapeHash(of: cutout)
        #expect(shape.distance(to: SimilaritySignature.shapeHash(of: ImageResizer.resized(cutout, width: 450, height: 320))) <= 2)
        #expect(shape.distance(to: SimilaritySignature.shapeHash(of: cutout.cropped(x: 45, y: 32, width: 810, height: 576))) <= 2)
        let moved = SimilaritySignature.shapeHash(of: Self.scene(1, shape: .ellipse).renderCutout())
        #expect(shape.distance(to: moved) <= 2)
    }

    @Test func otherOutlinesDiffer() {
        let ellipse = SimilaritySignature.shapeHash(of: Self.scene(0, shape: .ellipse).renderCutout())
        for other in [SampleScene.Shape.star, .roundedSquare, .blob] {
            #expect(ellipse.distance(to: SimilaritySignature.shapeHash(of: Self.scene(0, shape: other).renderCutout())) >= 6, "\(other)")
        }
    }

    @Test func anEmptyCutoutHasTheEmptyOutline() {
        let empty = RGBAImage(width: 40, height: 30, red: 0, green: 0, blue: 0, alpha: 0)
        #expect(SimilaritySignature.shapeHash(of: empty).bits == 0)
        #expect(PerceptualHash(bits: 0xff).description == "00000000000000ff")
    }
}
