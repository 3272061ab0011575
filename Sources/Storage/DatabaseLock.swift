import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one-process rule for a SQLite file: an exclusive `flock` on `<file>.lock`, held while a
/// store has the file open for writing. The kernel lets it go when the process ends, however it
/// ends (kill -9 included), so a stale lock is never left behind; the file itself stays, with
/// one line naming its last holder.
///
/// Stores of one process on one file share the lock (SQLite itself serializes them); a second
/// process is refused with `DatabaseLockError.inUse` naming the holder.
final class DatabaseLock: Sendable {
  /// The lock file.
  let path: String
  /// True when no other store of this process held the file when this one took the lock.
  let isFirstInProcess: Bool

  /// Most 10 ms waits for a lock in this process's own name to be let go (2 s).
  static let ownLockWait = 200

  /// Lock files held by this process: the open descriptor, and how many stores use it.
  private static let held = Mutex<[String: (descriptor: Int32, users: Int)]>([:])

  /// Takes the lock of the database at `databasePath`, writing who holds it: this process's
  /// id and host, then `holder` (e.g. the address it serves).
  init(databasePath: String, holder: String) throws(DatabaseLockError) {
    let path = Self.canonical(databasePath) + ".lock"
    self.path = path
    self.isFirstInProcess = try Self.held.withLock { (held) throws(DatabaseLockError) -> Bool in
      if let entry = held[path] {
        held[path] = (entry.descriptor, entry.users + 1)
        return false
      }
      let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else {
        throw .cannotLock(path: path, reason: String(cString: strerror(errno)))
      }
      var waited = 0
      while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
        let reason = errno
        let holder = Self.read(descriptor)
        // NB: a child another thread of this process is spawning holds a copy of the last
        // store's lock descriptor until it execs (O_CLOEXEC closes it only then), so the file
        // may still be locked in our own name for a moment after that store closed: wait for
        // it, briefly. A lock in anyone else's name is refused at once.
        if reason == EWOULDBLOCK, waited < Self.ownLockWait,
          holder.split(separator: ":", maxSplits: 1).first.map(String.init) == Self.line("")
        {
          usleep(10_000)
          waited += 1
          continue
        }
        close(descriptor)
        guard reason == EWOULDBLOCK else {
          throw .cannotLock(path: path, reason: String(cString: strerror(reason)))
        }
        throw .inUse(path: databasePath, holder: holder)
      }
      held[path] = (descriptor, 1)
      Self.write(Self.line(holder), to: descriptor)
      return true
    }
  }

  deinit {
    Self.held.withLock { held in
      guard let entry = held[path] else { return }
      if entry.users > 1 {
        held[path] = (entry.descriptor, entry.users - 1)
      } else {
        close(entry.descriptor)
        held[path] = nil
      }
    }
  }

  /// Rewrites the holder's line, e.g. once the address the process serves is known.
  func describe(holder: String) {
    Self.held.withLock { held in
      guard let entry = held[path] else { return }
      Self.write(Self.line(holder), to: entry.descriptor)
    }
  }

  /// `pid 4242 on host web1`, then `: HOLDER` when given.
  private static func line(_ holder: String) -> String {
    let who = "pid \(getpid()) on host \(LeaseOwner.host)"
    return holder.isEmpty ? who : "\(who): \(holder)"
  }

  private static func write(_ line: String, to descriptor: Int32) {
    let bytes = Array((line + "\n").utf8)
    _ = ftruncate(descriptor, 0)
    _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
  }

  /// The holder's line, or a placeholder when the file names none.
  private static func read(_ descriptor: Int32) -> String {
    var buffer = [UInt8](repeating: 0, count: 1024)
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    let text = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
    let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    return line.isEmpty ? "a process that has not named itself yet" : line
  }

  /// The path with its folder resolved (symbolic links, `.`), so two spellings of one file
  /// share one lock within this process.
  private static func canonical(_ path: String) -> String {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    guard let resolved = realpath(folder.isEmpty ? "/" : folder, nil) else { return path }
    defer { free(resolved) }
    let base = String(cString: resolved)
    return (base.hasSuffix("/") ? base : base + "/") + name
  }
}
