/// The first line of a request: method, target and version (RFC 9112 §3).
struct RequestLine: Sendable, Equatable {
  var method: HTTPMethod
  var target: String
  var version: HTTPVersion

  /// Parses `method SP target SP version` (without its line end). Runs of spaces count as one
  /// (RFC 9112 §3 allows this). A bad line is 400, a version other than 1.x 505, and a method
  /// this server does not implement 501 (RFC 9110 §9.1).
  static func parse(_ line: ByteSlice) -> Result<RequestLine, HTTPError> {
    var index = line.startIndex
    /// The next run of non-space bytes, or nil at the end.
    func nextWord() -> ByteSlice? {
      while index < line.endIndex && line[index] == UInt8(ascii: " ") { index += 1 }
      let start = index
      while index < line.endIndex && line[index] != UInt8(ascii: " ") { index += 1 }
      return index > start ? line[start..<index] : nil
    }
    guard let methodWord = nextWord(), let targetWord = nextWord(), let versionWord = nextWord(),
      nextWord() == nil
    else { return .failure(malformed) }
    guard Syntax.isToken(methodWord) else {
      return .failure(HTTPError(.badRequest, "the method is not a token"))
    }
    guard targetWord.allSatisfy(Syntax.isTargetByte) else {
      return .failure(HTTPError(.badRequest, "the request target holds a control character"))
    }
    let version: HTTPVersion
    switch parseVersion(versionWord) {
    case .success(let parsed): version = parsed
    case .failure(let error): return .failure(error)
    }
    guard version.major == 1 else {
      return .failure(
        HTTPError(.httpVersionNotSupported, "only HTTP/1.0 and HTTP/1.1 are served"))
    }
    guard let method = HTTPMethod(implemented: methodWord) else {
      let name = String(decoding: methodWord.prefix(32), as: UTF8.self)
      return .failure(HTTPError(.notImplemented, "the method \(name) is not implemented"))
    }
    let target = String(decoding: targetWord, as: UTF8.self)
    return .success(RequestLine(method: method, target: target, version: version))
  }

  static let malformed = HTTPError(
    .badRequest, "the request line must be: method, target and HTTP version")

  /// `HTTP/1.1` and friends: exactly `HTTP/` DIGIT `.` DIGIT (RFC 9112 §2.3).
  static func parseVersion(_ bytes: ByteSlice) -> Result<HTTPVersion, HTTPError> {
    let start = bytes.startIndex
    // NB: byte by byte, not `starts(with:)`, which is generic over two sequences.
    guard bytes.count == 8, bytes[start] == UInt8(ascii: "H"),
      bytes[start + 1] == UInt8(ascii: "T"), bytes[start + 2] == UInt8(ascii: "T"),
      bytes[start + 3] == UInt8(ascii: "P"),
      bytes[start + 4] == UInt8(ascii: "/"), bytes[start + 6] == UInt8(ascii: "."),
      Syntax.isDigit(bytes[start + 5]), Syntax.isDigit(bytes[start + 7])
    else {
      return .failure(HTTPError(.badRequest, "the HTTP version is malformed"))
    }
    return .success(
      HTTPVersion(major: Int(bytes[start + 5] - 0x30), minor: Int(bytes[start + 7] - 0x30)))
  }
}
