/// Decodes a request path into segments that can never climb out of a root.
public enum URLPath {
  /// The decoded segments of a raw (percent-encoded) path, with `.` and `..` resolved and empty
  /// segments merged. Fails with 400 for a path that climbs above the root, a malformed or
  /// invalid-UTF-8 escape, an encoded `/`, a backslash, or a NUL.
  public static func segments(_ rawPath: Substring) throws(HTTPError) -> [String] {
    var rawPath = rawPath
    return try rawPath.withUTF8 { segments($0) }.get()
  }

  static func segments(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<[String], HTTPError> {
    guard bytes.first == UInt8(ascii: "/") else {
      return .failure(HTTPError(.badRequest, "the path must start with /"))
    }
    var segments: [String] = []
    var start = 0
    while start < bytes.count {
      var end = start
      while end < bytes.count && bytes[end] != UInt8(ascii: "/") { end += 1 }
      defer { start = end + 1 }
      guard end > start else { continue }
      switch decodeSegment(UnsafeBufferPointer(rebasing: bytes[start..<end])) {
      case .failure(let error):
        return .failure(error)
      case .success("."):
        continue
      case .success(".."):
        guard !segments.isEmpty else {
          return .failure(HTTPError(.badRequest, "the path climbs above /"))
        }
        segments.removeLast()
      case .success(let segment):
        segments.append(segment)
      }
    }
    return .success(segments)
  }

  /// Whether a raw path names a folder rather than a file: it ends in `/`, or in a `.` or `..`
  /// segment (plain or percent-encoded), as in `/notes.txt/` or `/notes.txt/.`.
  public static func isFolderForm(_ rawPath: Substring) -> Bool {
    var rawPath = rawPath
    return rawPath.withUTF8 { bytes in
      guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return false }
      let last = UnsafeBufferPointer(rebasing: bytes[(slash + 1)...])
      guard let first = last.first else { return true }
      // Only `.`, `..` and their escapes (`%2e`, `.%2E`, ...) name a folder; six bytes at most.
      guard first == UInt8(ascii: ".") || first == UInt8(ascii: "%"), last.count <= 6 else {
        return false
      }
      guard case .success(let decoded) = decodeSegment(last) else { return false }
      return decoded == "." || decoded == ".."
    }
  }

  /// Percent-decodes one segment (RFC 3986 §2.1) and refuses bytes no file name should hold.
  static func decodeSegment(_ raw: UnsafeBufferPointer<UInt8>) -> Result<String, HTTPError> {
    if !raw.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "\\") || $0 == 0 }) {
      // Nothing to decode: the common case, without a byte buffer.
      return .success(String(decoding: raw, as: UTF8.self))
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(raw.count)
    var index = 0
    while index < raw.count {
      var byte = raw[index]
      if byte == UInt8(ascii: "%") {
        guard index + 2 < raw.count, let high = Syntax.hexValue(raw[index + 1]),
          let low = Syntax.hexValue(raw[index + 2])
        else {
          return .failure(HTTPError(.badRequest, "the path has a malformed percent escape"))
        }
        byte = UInt8(high * 16 + low)
        guard byte != UInt8(ascii: "/") else {
          return .failure(HTTPError(.badRequest, "the path has an encoded slash"))
        }
        index += 3
      } else {
        index += 1
      }
      guard byte != 0 else { return .failure(HTTPError(.badRequest, "the path has a NUL byte")) }
      guard byte != UInt8(ascii: "\\") else {
        return .failure(HTTPError(.badRequest, "the path has a backslash"))
      }
      bytes.append(byte)
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      return .failure(HTTPError(.badRequest, "the path is not valid UTF-8"))
    }
    return .success(text)
  }
}
