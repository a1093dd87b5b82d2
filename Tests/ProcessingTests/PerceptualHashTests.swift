import Foundation
import Testing
@testable import Processing
import SampleImages

/// The photo's, the surroundings' and the subject's hashes against the changes a shared or edited copy goes through,
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

    @Test func theSubjectIgnoresSizePlaceAndACroppedBackground() {
        let scene = Self.scene(0, shape: .blob)
        let signature = SimilaritySignature.of(photo: scene.renderPhoto(), cutout: scene.renderCutout())
        let half = SimilaritySignature.of(
            photo: ImageResizer.resized(scene.renderPhoto(), width: 450, height: 320),
            cutout: ImageResizer.resized(scene.renderCutout(), width: 450, height: 320))
        #expect(signature.distance(to: half) <= 2)
        let cropped = SimilaritySignature.of(
            photo: scene.renderPhoto().cropped(x: 90, y: 0, width: 810, height: 640),
            cutout: scene.renderCutout().cropped(x: 90, y: 0, width: 810, height: 640))
        #expect(signature.distance(to: cropped) <= 4)
        #expect(signature.photo.distance(to: cropped.photo) > SimilaritySignature.photoLimit, "a crop moves the whole photo's hash")
    }

    @Test func otherSubjectsOverTheSameBackgroundDiffer() {
        let ellipse = Self.scene(0, shape: .ellipse)
        let first = SimilaritySignature.of(photo: ellipse.renderPhoto(), cutout: ellipse.renderCutout())
        for other in [SampleScene.Shape.star, .roundedSquare, .blob] {
            let scene = Self.scene(0, shape: other)
            let second = SimilaritySignature.of(photo: scene.renderPhoto(), cutout: scene.renderCutout())
            #expect(first.distance(to: second) > SimilaritySignature.defaultWithin, "\(other)")
        }
    }

    @Test func anEmptyCutoutHasTheEmptySubject() {
        let empty = RGBAImage(width: 40, height: 30, red: 0, green: 0, blue: 0, alpha: 0)
        let photo = RGBAImage(width: 40, height: 30, red: 90, green: 20, blue: 0, alpha: 255)
        let signature = SimilaritySignature.of(photo: photo, cutout: empty)
        #expect(signature.subject.bits == 0)
        #expect(signature.sharpness == 0)
        #expect(PerceptualHash(bits: 0xff).description == "00000000000000ff")
    }

    @Test func aBlurredCopyIsLessSharp() {
        let photo = Self.scene(0).renderPhoto()
        let blurred = ImageResizer.resized(ImageResizer.resized(photo, width: 225, height: 160), width: 900, height: 640)
        #expect(Sharpness.meanLaplacian(of: photo) > Sharpness.meanLaplacian(of: blurred))
    }
}
