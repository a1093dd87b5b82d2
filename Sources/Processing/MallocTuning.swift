#if canImport(Glibc)
import CMalloc
import Glibc
#endif

/// glibc's allocator set up for the photo pipeline, once, before any work starts (by the `catalog`
/// executable and the cut-out benchmark, so it times what the product does).
///
/// Each photo allocates tens of big buffers (the scaled decode, the network's activations of up to
/// 26 MB, masks, the edge refinement's planes) and frees them when it is done. By default glibc
/// serves blocks that big with mmap and gives them back with munmap (or trims and deletes its
/// per-thread heaps), so every photo faulted in ~160 MB of fresh zeroed pages: 40,000-50,000 page
/// faults and 150-200 ms of system time per 12 MP photo, about 12% of the whole. Swift's tasks also
/// hop between threads, so each thread's arena kept its own high-water mark.
///
/// Here: one arena (the buffers are few and big; small objects still come from per-thread caches),
/// blocks up to 32 MB (glibc's maximum) from the heap instead of mmap, and freed memory kept for the
/// next photo instead of trimmed. Measured on 20 photos of 12 MP (`catalog reprocess --all`, debug
/// build with optimised Processing, shared 2-core machine): page faults per photo 41,000-50,000 ->
/// under 3,500 (first use of the heap only), system time per photo 146-196 ms -> 16-24 ms; peak RSS
/// 297 -> 234 MB with --jobs 1, about the same (450 MB) with --jobs 2. Outputs are unchanged.
/// The same can be had without this code through MALLOC_ARENA_MAX=1 MALLOC_MMAP_THRESHOLD_=33554432
/// MALLOC_TRIM_THRESHOLD_=1073741824 MALLOC_TOP_PAD_=67108864; environment settings still win, since
/// they are read at start-up and the caller applies this only when none is set
/// (`CatalogEnvironment.configureProcessing()`).
public enum MallocTuning {
    public static func apply() {
        #if canImport(Glibc)
        _ = mallopt(M_ARENA_MAX, 1)
        _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 1 << 30)
        _ = mallopt(M_TOP_PAD, 64 << 20)
        #endif
    }
}
