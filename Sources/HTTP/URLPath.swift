/// Decodes a request path into segments that can never climb out of a root.
public enum URLPath {
  /// The decoded segments of a raw (percent-encoded) path, with `.` and `..` resolved and empty
  /// segments merged. Fails with 400 for a path that climbs above the root, a malformed or
  /// invalid-UTF-8 escape, an encoded `/`, a backslash, or a NUL.
  public static func segments(_ rawPath: Substring) throws(HTTPError) -> [String] {
    guard rawPath.utf8.first == UInt8(ascii: "/") else {
      throw HTTPError(.badRequest, "the path must start with /")
    }
    var segments: [String] = []
    let utf8 = rawPath.utf8
    var start = utf8.startIndex
    while start < utf8.endIndex {
      let end = utf8[start...].firstIndex(of: UInt8(ascii: "/")) ?? utf8.endIndex
      defer { start = end < utf8.endIndex ? utf8.index(after: end) : end }
      guard start < end else { continue }
      let segment = try decodeSegment(utf8[start..<end])
      switch segment {
      case ".":
        continue
      case "..":
        guard !segments.isEmpty else { throw HTTPError(.badRequest, "the path climbs above /") }
        segments.removeLast()
      default:
        segments.append(segment)
      }
    }
    return segments
  }

  /// Whether a raw path names a folder rather than a file: it ends in `/`, or in a `.` or `..`
  /// segment (plain or percent-encoded), as in `/notes.txt/` or `/notes.txt/.`.
  public static func isFolderForm(_ rawPath: Substring) -> Bool {
    let utf8 = rawPath.utf8
    guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return false }
    let last = utf8[utf8.index(after: slash)...]
    guard !last.isEmpty else { return true }
    // Only `.`, `..` and their escapes (`%2e`, `.%2E`, ...) name a folder; six bytes at most.
    guard last.first == UInt8(ascii: ".") || last.first == UInt8(ascii: "%"), last.count <= 6
    else { return false }
    guard let decoded = try? decodeSegment(last) else { return false }
    return decoded == "." || decoded == ".."
  }

  /// Percent-decodes one segment (RFC 3986 §2.1) and refuses bytes no file name should hold.
  static func decodeSegment(_ raw: Substring.UTF8View.SubSequence) throws(HTTPError) -> String {
    if !raw.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "\\") || $0 == 0 }) {
      // Nothing to decode: the common case, without a byte buffer.
      return String(Substring(raw))
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(raw.count)
    var index = raw.startIndex
    while index < raw.endIndex {
      var byte = raw[index]
      if byte == UInt8(ascii: "%") {
        let first = raw.index(after: index)
        guard first < raw.endIndex, raw.index(after: first) < raw.endIndex,
          let high = Syntax.hexValue(raw[first]),
          let low = Syntax.hexValue(raw[raw.index(after: first)])
        else { throw HTTPError(.badRequest, "the path has a malformed percent escape") }
        byte = UInt8(high * 16 + low)
        guard byte != UInt8(ascii: "/") else {
          throw HTTPError(.badRequest, "the path has an encoded slash")
        }
        index = raw.index(first, offsetBy: 2)
      } else {
        index = raw.index(after: index)
      }
      guard byte != 0 else { throw HTTPError(.badRequest, "the path has a NUL byte") }
      guard byte != UInt8(ascii: "\\") else {
        throw HTTPError(.badRequest, "the path has a backslash")
      }
      bytes.append(byte)
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw HTTPError(.badRequest, "the path is not valid UTF-8")
    }
    return text
  }
}
