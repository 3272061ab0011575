import CZlib

/// A zlib failure or a broken limit: the zlib return code and message, or the limit that was hit.
public enum DeflateError: Error, Equatable, CustomStringConvertible {
  /// zlib returned `code` with its message (`msg`), e.g. Z_DATA_ERROR for corrupt input.
  case zlib(code: Int32, message: String)
  /// Inflating would produce more than `limit` bytes (a decompression bomb, or just too big).
  case outputLimitExceeded(limit: Int)

  public var description: String {
    switch self {
    case .zlib(let code, let message): "zlib error \(code): \(message)"
    case .outputLimitExceeded(let limit): "inflated data exceeds the limit of \(limit) bytes"
    }
  }

  /// Throws unless `code` is one of `accepted`; every zlib call goes through here.
  static func check(
    _ code: Int32, _ stream: UnsafeMutablePointer<z_stream>, accepted: Set<Int32> = [Z_OK]
  ) throws {
    guard !accepted.contains(code) else { return }
    let message = stream.pointee.msg.map { String(cString: $0) } ?? Self.name(of: code)
    throw DeflateError.zlib(code: code, message: message)
  }

  static func name(of code: Int32) -> String {
    switch code {
    case Z_STREAM_ERROR: "stream error"
    case Z_DATA_ERROR: "invalid or corrupt data"
    case Z_MEM_ERROR: "out of memory"
    case Z_BUF_ERROR: "no progress possible"
    case Z_VERSION_ERROR: "incompatible zlib version"
    default: "code \(code)"
    }
  }
}
