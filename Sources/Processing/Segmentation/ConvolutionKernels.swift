import CSegmentationKernels

/// The instruction set the segmentation network's convolutions run on (C kernels in
/// CSegmentationKernels), chosen once at run time from what the CPU has: AVX-512, else AVX2+FMA,
/// else portable scalar code. ``narrow(to:)`` (the CLI calls it for `STICKER_KERNELS=scalar|avx2|avx512`)
/// narrows the choice, for comparisons; a path the CPU lacks is ignored.
public enum ConvolutionKernels: Int32, CaseIterable, Sendable, CustomStringConvertible {
    case scalar = 0
    case avx2 = 1
    case avx512 = 2

    /// The path this process uses unless told otherwise (`sk_kernels_default`).
    public static var `default`: ConvolutionKernels { ConvolutionKernels(rawValue: sk_kernels_default()) ?? .scalar }

    /// Makes `kernels` the default path of this process, when the CPU has it (else the default stays
    /// the widest it has). Called once at start, before any kernel runs.
    public static func narrow(to kernels: ConvolutionKernels) {
        sk_kernels_narrow(kernels.rawValue)
    }

    /// Whether this CPU can run the path.
    public var isSupported: Bool { sk_kernels_supported(rawValue) != 0 }

    /// Every path this CPU can run, narrowest first.
    public static var supported: [ConvolutionKernels] { allCases.filter(\.isSupported) }

    /// Winograd F(4x4, 3x3) exists on the vector paths only.
    var hasWinograd: Bool { self != .scalar }

    public var description: String {
        switch self {
        case .scalar: "scalar"
        case .avx2: "AVX2+FMA"
        case .avx512: "AVX-512"
        }
    }
}
