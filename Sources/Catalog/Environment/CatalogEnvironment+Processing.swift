import Processing

extension CatalogEnvironment {
    /// `$STICKER_STAGE_TIMES=FILE`: the import pipeline times its stages and writes the totals to FILE.
    public var stageTimesReport: String? { self["STICKER_STAGE_TIMES"] }

    /// `$STICKER_KERNELS` (`scalar`, `avx2`, `avx512`): narrows the convolution kernels' path, for comparisons.
    public var kernels: ConvolutionKernels? {
        switch self["STICKER_KERNELS"] {
        case "scalar": .scalar
        case "avx2": .avx2
        case "avx512": .avx512
        default: nil
        }
    }

    /// True when the allocator is tuned through the environment (`MALLOC_*`, `GLIBC_TUNABLES`): then
    /// ``MallocTuning`` is not applied, so those settings win.
    public var tunesAllocator: Bool {
        variables.keys.contains { $0.hasPrefix("MALLOC_") } || variables["GLIBC_TUNABLES"] != nil
    }

    /// Hands Processing what it takes from the environment (it reads none itself): the allocator's
    /// tuning, the kernel path and the stage clock. Call once at start, before any work.
    public func configureProcessing() {
        if !tunesAllocator { MallocTuning.apply() }
        if let kernels { ConvolutionKernels.narrow(to: kernels) }
        if let stageTimesReport { StageClock.start(reportingTo: stageTimesReport) }
    }
}
