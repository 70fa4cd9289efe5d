import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc

    /// Wakes the hub of a store file when the kernel says a file of that store was written:
    /// the database, its `-wal` or its `-journal`, by any process (inotify on the folder, so
    /// that a `-wal` created later and a file replaced by a rename are seen too). Nothing runs
    /// while nobody writes.
    final class FileEvents: @unchecked Sendable {
        private let descriptor: Int32
        private let source: any DispatchSourceRead

        /// Watches the folder of `path`; nil when the kernel cannot (no inotify, or out of
        /// watches), and then the caller looks more often instead.
        init?(path: String, queue: DispatchQueue, onWrite: @escaping @Sendable () -> Void) {
            let url = URL(fileURLWithPath: path)
            let folder = url.deletingLastPathComponent().path
            let name = url.lastPathComponent
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)
            guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
                close(descriptor)
                return nil
            }
            self.descriptor = descriptor
            source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler {
                if Self.drain(descriptor, mentioning: name) { onWrite() }
            }
            source.setCancelHandler { close(descriptor) }
            source.resume()
        }

        deinit {
            source.cancel()
        }

        /// Reads every pending event; whether one was about `name` or a file beside it that
        /// SQLite keeps (`name-wal`, `name-journal`).
        private static func drain(_ descriptor: Int32, mentioning name: String) -> Bool {
            let headerSize = MemoryLayout<inotify_event>.size
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            var mentioned = false
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { return mentioned }
                var offset = 0
                while offset + headerSize <= count {
                    let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) }
                    let nameBytes = buffer[(offset + headerSize)..<min(count, offset + headerSize + length)]
                    let eventName = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    if eventName == name || eventName.hasPrefix(name + "-") { mentioned = true }
                    offset += headerSize + length
                }
            }
        }
    }
#endif
