import Processing

/// The program's version: the one place it is written (the Debian package takes it from the first line
/// of `catalog --version`), printed with the version of the pipeline that makes the stickers and the
/// cut-out path this machine runs.
enum CatalogVersion {
    /// Semantic version of the program.
    static let number = "0.2.0"

    /// What `catalog --version` prints: `0.2.0 (pipeline 2)`, then the ``cutoutPaths`` line.
    static var description: String { "\(number) (pipeline \(PhotoProcessor.pipelineVersion))\n\(cutoutPaths)" }

    /// `cut-out: fp32 on AVX-512 (auto); int8 on AVX-512 VNNI`: the precision `auto` runs here first, then
    /// the other, each on the instructions it would use. It follows `STICKER_KERNELS`, which narrows the
    /// kernels' path before the version is read (`configureProcessing()` runs first thing in `main`).
    static var cutoutPaths: String {
        let kernels = ConvolutionKernels.default
        let automatic = PrecisionSetting.auto.resolved
        let others = InferencePrecision.allCases.filter { $0 != automatic }
        let paths = ["\(automatic.rawValue) on \(automatic.instructions(on: kernels)) (auto)"]
            + others.map { "\($0.rawValue) on \($0.instructions(on: kernels))" }
        return "cut-out: " + paths.joined(separator: "; ")
    }
}
