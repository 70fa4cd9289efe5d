#if canImport(Glibc)
    import Glibc
#endif

/// How the tool's process allocates memory.
///
/// A command builds and frees hundreds of thousands of small values (YAML nodes, declaration
/// trees) between larger buffers (a file's text), then exits. glibc's defaults suit a
/// long-running program: freed small blocks wait in "fast bins" that every larger allocation
/// sweeps and merges first, and freed memory at the top of the heap goes back to the system
/// only to be asked for (and zeroed) again. For the tool, small blocks are merged when freed
/// and the heap is kept.
package enum ProcessMemory {
    package static func tuneForBatchWork() {
        #if canImport(Glibc)
            // `mallopt` is declared in <malloc.h>, which Glibc's module does not include.
            guard let program = dlopen(nil, RTLD_NOW), let address = dlsym(program, "mallopt") else { return }
            let mallopt = unsafeBitCast(address, to: (@convention(c) (Int32, Int32) -> Int32).self)
            // M_MXFAST: no fast bins. M_TRIM_THRESHOLD, M_TOP_PAD, M_MMAP_THRESHOLD: keep freed
            // memory, grow the heap in large steps, and serve buffers up to 32 MB from it.
            for (parameter, value) in [(1, 0), (-1, 256 << 20), (-2, 64 << 20), (-3, 32 << 20)] as [(Int32, Int32)] {
                _ = mallopt(parameter, value)
            }
        #endif
    }
}
