#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether the database file on disk is still the one the store opened.
///
/// SQLite keeps writing to its open file after the path is deleted or another file is moved
/// onto it, so every write looks fine while nothing survives a restart. Comparing the device
/// and inode at the path with those at open time notices both.
public enum DatabaseFileCheck: Sendable, Equatable, CustomStringConvertible {
  /// The path still names the opened file.
  case same
  /// Nothing is at the path any more.
  case missing
  /// Another file is at the path.
  case replaced
  /// The file (or the store) cannot be written: every write fails.
  case readOnly

  /// The device and inode of the file at `path`, or nil when there is none.
  static func identity(of path: String) -> FileIdentity? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  /// Compares the file at `path` now with `opened`.
  static func check(path: String, opened: FileIdentity?) -> DatabaseFileCheck {
    guard let now = identity(of: path) else { return .missing }
    guard let opened, now == opened else { return .replaced }
    // NB: asked now, not only when a write fails: a chmod or a read-only remount after start
    // shows at once, before anything is lost.
    guard access(path, W_OK) == 0 else { return .readOnly }
    return .same
  }

  /// `database file ok`, or what happened to it.
  public var description: String {
    switch self {
    case .same: "database file ok"
    case .missing:
      "the database file was deleted while open: nothing written now will survive a restart"
    case .replaced:
      "the database file was replaced while open: nothing written now will survive a restart"
    case .readOnly:
      "the database file is read-only: nothing new can be stored"
    }
  }
}

/// A file's device and inode numbers.
struct FileIdentity: Sendable, Equatable {
  var device: UInt64
  var inode: UInt64
}
