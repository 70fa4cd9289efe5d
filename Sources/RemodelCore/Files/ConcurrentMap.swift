import Dispatch
import Foundation

extension Array {
    /// `map`, with the calls spread over the machine's cores; results keep their order, so
    /// the outcome is the same as `map`'s. Every call must be independent of the others (the
    /// schema loader parses one file per call, the generator renders one file per call, the
    /// output folder compares one file per call) and touch no shared mutable state.
    public func concurrentMap<T>(_ transform: (Element) -> T) -> [T] {
        guard count > 1 else { return map(transform) }
        let buffer = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        buffer.initialize(repeating: nil)
        defer { buffer.deallocate() }
        withoutActuallyEscaping(transform) { transform in
            let work = ConcurrentWork(elements: self, transform: transform, results: buffer)
            DispatchQueue.concurrentPerform(iterations: count) { index in
                work.results[index] = work.transform(work.elements[index])
            }
        }
        return buffer.map { $0! }
    }
}

/// What the worker threads share: the input, the transform, and the result slots, each slot
/// written by exactly one thread. Sendable by that discipline, which the compiler cannot see.
private struct ConcurrentWork<Element, T>: @unchecked Sendable {
    let elements: [Element]
    let transform: (Element) -> T
    let results: UnsafeMutableBufferPointer<T?>
}

extension Range where Bound == Int {
    /// Consecutive ranges covering `0..<count`, a few per core, for `concurrentMap` over runs
    /// of small items: a call per item would cost more than the item, and a few runs per
    /// core keep a run of large items from leaving the other cores idle.
    public static func runs(covering count: Int) -> [Range<Int>] {
        let runCount = Swift.min(count, ProcessInfo.processInfo.activeProcessorCount * 4)
        guard runCount > 1 else { return count == 0 ? [] : [0..<count] }
        return (0..<runCount).map { index in (count * index / runCount)..<(count * (index + 1) / runCount) }
    }
}
