/// Decodes a request path into segments that can never climb out of a root.
public enum URLPath {
  /// The decoded segments of a raw (percent-encoded) path, with `.` and `..` resolved and empty
  /// segments merged. Fails with 400 for a path that climbs above the root, a malformed or
  /// invalid-UTF-8 escape, an encoded `/`, a backslash, or a NUL.
  public static func segments(_ rawPath: Substring) throws(HTTPError) -> [String] {
    guard rawPath.hasPrefix("/") else { throw HTTPError(.badRequest, "the path must start with /") }
    var segments: [String] = []
    for raw in rawPath.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
      let segment = try decodeSegment(raw)
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

  /// Percent-decodes one segment (RFC 3986 §2.1) and refuses bytes no file name should hold.
  static func decodeSegment(_ raw: Substring.UTF8View.SubSequence) throws(HTTPError) -> String {
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
