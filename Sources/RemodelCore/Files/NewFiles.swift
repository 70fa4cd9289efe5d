import Foundation

/// Many new files for one folder, put in place together: what `generate` writes for a
/// thousand types. Each file is written once into a hidden folder of this process's own
/// (no per-file temporary name, checks or flush, which cost more than the writing), then
/// all are put in place: when the folder did not exist, the hidden folder is renamed to it
/// (one step, all or nothing); otherwise each file is linked to its name, which fails rather
/// than replace a file that appeared there meanwhile. Until then the folder is as it was,
/// and an interrupted process leaves nothing (the hidden folder is a `HalfMadeFiles` entry,
/// and a later run removes one a killed process left).
public struct NewFiles: Sendable {
    /// The folder the files are for.
    public let folder: String
    /// Where they are written until `commit`.
    let staging: String
    /// Whether `folder` did not exist: `commit` renames `staging` to it.
    let createsFolder: Bool
    private var names: [String] = []
    private let token: HalfMadeFiles.Token

    /// Makes the hidden folder: beside `folder` when it does not exist yet (its parent
    /// must), else inside it.
    public init(folder: String) throws {
        self.folder = folder
        var info = stat()
        createsFolder = stat(folder, &info) != 0
        // A name of fixed length (a long folder name must not make it too long), which a later
        // run recognises by the process id in it (`stagingFolderMaker`).
        let name = ".remodel-\(getpid())-\(UInt32.random(in: 0...UInt32.max))\(Self.stagingSuffix)"
        staging = FilePaths.join(createsFolder ? FilePaths.folder(of: folder) : folder, name)
        token = HalfMadeFiles.started(staging, what: "the files being written into '\(folder)'")
        guard mkdir(staging, 0o777) == 0 else {
            let code = errno
            HalfMadeFiles.finished(token)
            throw OutputFileError.failure(code, path: folder, folder: FilePaths.folder(of: staging))
        }
    }

    /// Writes a new file `name` (a plain name) with `data` into the hidden folder. The
    /// errors a write reports (a full disk) are thrown here, before anything is in place.
    public mutating func add(_ name: String, _ data: Data) throws {
        HalfMadeFiles.proceed()
        let path = FilePaths.join(staging, name)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw failure(errno, name) }
        var code = OutputFile.writeAll(data, to: descriptor)
        if close(descriptor) != 0, code == 0 { code = errno }
        guard code == 0 else {
            unlink(path)
            throw failure(code, name)
        }
        names.append(name)
    }

    /// Puts every file in place, then flushes the folder's entries to disk once. A name
    /// taken meanwhile by another file fails with `OutputFileError` (`exists`) and puts
    /// none of them in place.
    public func commit() throws {
        if createsFolder {
            guard rename(staging, folder) == 0 else {
                let code = errno
                discard()
                throw failure(code == ENOTEMPTY ? EEXIST : code, nil)
            }
            HalfMadeFiles.finished(token)
            OutputFile.flushFolder(folder)
            OutputFile.flushFolder(FilePaths.folder(of: folder))
            return
        }
        defer { discard() }
        for (index, name) in names.enumerated() {
            let staged = FilePaths.join(staging, name)
            let target = FilePaths.join(folder, name)
            if link(staged, target) != 0 {
                var code = errno
                // A file system without hard links (exFAT, some network shares): check, then rename.
                if code == EPERM || code == ENOTSUP || code == EOPNOTSUPP || code == EXDEV {
                    code = access(target, F_OK) == 0 ? EEXIST : (rename(staged, target) == 0 ? 0 : errno)
                }
                if code != 0 {
                    // The files put in place so far did not exist before: removing them leaves the folder as it was.
                    for earlier in names[..<index] { unlink(FilePaths.join(folder, earlier)) }
                    throw failure(code, name)
                }
            }
        }
        OutputFile.flushFolder(folder)
    }

    /// Removes the files `commit` linked into an existing folder (after a later step of the
    /// same change failed): the folder is as it was before. A folder `commit` made by
    /// renaming is left: it held nothing before.
    public func undo() {
        guard !createsFolder else { return }
        for name in names { unlink(FilePaths.join(folder, name)) }
    }

    /// What ends the name of a hidden folder of new files.
    static let stagingSuffix = ".new.tmp"

    /// Whether `name` is the hidden folder of new files of some process, and that process.
    public static func stagingFolderMaker(_ name: String) -> pid_t? {
        name.hasPrefix(".remodel-") && name.hasSuffix(stagingSuffix) ? HalfMadeFiles.processID(in: name, after: ".remodel-") : nil
    }

    /// Removes the hidden folder and what is left in it; the folder is as it was (or, after
    /// `commit`, holds the files).
    public func discard() {
        for name in names { unlink(FilePaths.join(staging, name)) }
        rmdir(staging)
        HalfMadeFiles.finished(token)
    }

    private func failure(_ code: Int32, _ name: String?) -> OutputFileError {
        let path = name.map { FilePaths.join(folder, $0) } ?? folder
        if code == EEXIST {
            return OutputFileError(path: path, kind: .exists(why: "it appeared while remodel was writing", advice: "run the command again"))
        }
        return OutputFileError.failure(code, path: path, folder: folder)
    }
}
