/// The parsed head of a request and how its body is framed (RFC 9112 §2-§6).
struct RequestHead: Sendable {
  enum Framing: Sendable, Equatable {
    case none
    case length(Int)
    case chunked
  }

  var request: Request
  var framing: Framing
  var expectsContinue: Bool

  /// Methods this server implements; any other valid token gets 501 (RFC 9110 §9.1).
  static let implementedMethods: Set<String> = [
    "GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH",
  ]

  /// Parses a complete head, ending with its empty line.
  static func parse(_ p: UnsafeBufferPointer<UInt8>, limits: HTTPLimits) -> Result<
    RequestHead, HTTPError
  > {
    var lines = Lines(p)
    guard var requestLine = lines.next() else {
      return .failure(HTTPError(.badRequest, "no request line"))
    }
    while requestLine.isEmpty, let next = lines.next() { requestLine = next }
    if lines.sawBareCR { return .failure(HTTPError(.badRequest, "a bare CR in the request line")) }

    // The request line: method SP target SP version (RFC 9112 §3).
    let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
    guard parts.count == 3 else {
      return .failure(
        HTTPError(.badRequest, "the request line must be: method, target and HTTP version"))
    }
    guard Syntax.isToken(parts[0]) else {
      return .failure(HTTPError(.badRequest, "the method is not a token"))
    }
    guard parts[1].allSatisfy(Syntax.isTargetByte) else {
      return .failure(HTTPError(.badRequest, "the request target holds a control character"))
    }
    let version: HTTPVersion
    switch parseVersion(parts[2]) {
    case .success(let parsed): version = parsed
    case .failure(let error): return .failure(error)
    }
    let methodName = String(decoding: parts[0], as: UTF8.self)
    var target = String(decoding: parts[1], as: UTF8.self)

    // The header fields (RFC 9112 §5).
    var headers = HTTPHeaders()
    while let line = lines.next(), !line.isEmpty {
      if lines.sawBareCR { return .failure(HTTPError(.badRequest, "a bare CR in a header field")) }
      switch parseField(line) {
      case .success(let field):
        guard headers.count < limits.maxHeaderCount else {
          return .failure(HTTPError(.headerFieldsTooLarge, "too many header fields"))
        }
        headers.add(field.name, field.value)
      case .failure(let error):
        return .failure(error)
      }
    }
    if lines.sawBareCR { return .failure(HTTPError(.badRequest, "a bare CR in the head")) }

    // Version, method and target semantics.
    guard version.major == 1 else {
      return .failure(HTTPError(.httpVersionNotSupported, "only HTTP/1.0 and HTTP/1.1 are served"))
    }
    guard implementedMethods.contains(methodName) else {
      return .failure(HTTPError(.notImplemented, "the method \(methodName) is not implemented"))
    }
    let method = HTTPMethod(methodName)
    switch normalizeTarget(target, method: method, headers: &headers) {
    case .success(let originForm): target = originForm
    case .failure(let error): return .failure(error)
    }
    if let error = checkHost(headers, version: version) { return .failure(error) }

    // Body framing (RFC 9112 §6.1-§6.3).
    let framing: Framing
    switch bodyFraming(headers, method: method, version: version, limits: limits) {
    case .success(let parsed): framing = parsed
    case .failure(let error): return .failure(error)
    }

    // Expectations (RFC 9110 §10.1.1).
    var expectsContinue = false
    if let expect = headers["Expect"] {
      guard expect.lowercased() == "100-continue" else {
        return .failure(HTTPError(.expectationFailed, "only Expect: 100-continue is understood"))
      }
      expectsContinue = version == .http1_1 && framing != .none
    }

    let request = Request(method: method, target: target, version: version, headers: headers)
    return .success(RequestHead(request: request, framing: framing, expectsContinue: expectsContinue))
  }

  static func parseVersion(_ bytes: ByteSlice) -> Result<HTTPVersion, HTTPError> {
    let bad = HTTPError(.badRequest, "the HTTP version is malformed")
    guard bytes.count >= 8, bytes.starts(with: "HTTP/".utf8) else { return .failure(bad) }
    let numbers = bytes.dropFirst(5).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard numbers.count == 2,
      numbers.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(Syntax.isDigit) })
    else { return .failure(bad) }
    let major = numbers[0].reduce(0) { $0 * 10 + Int($1 - 0x30) }
    let minor = numbers[1].reduce(0) { $0 * 10 + Int($1 - 0x30) }
    return .success(HTTPVersion(major: major, minor: minor))
  }

  static func parseField(_ line: ByteSlice) -> Result<HTTPHeaders.Field, HTTPError> {
    guard let first = line.first, first != UInt8(ascii: " "), first != UInt8(ascii: "\t") else {
      return .failure(HTTPError(.badRequest, "obsolete line folding is not accepted"))
    }
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
      return .failure(HTTPError(.badRequest, "a header field has no colon"))
    }
    let name = line[..<colon]
    guard Syntax.isToken(name) else {
      return .failure(HTTPError(.badRequest, "a header field name is not a token"))
    }
    var value = line[(colon + 1)...]
    while let b = value.first, b == 0x20 || b == 0x09 { value = value.dropFirst() }
    while let b = value.last, b == 0x20 || b == 0x09 { value = value.dropLast() }
    guard value.allSatisfy(Syntax.isFieldValueByte) else {
      return .failure(HTTPError(.badRequest, "a header field value holds a control character"))
    }
    return .success(
      HTTPHeaders.Field(
        name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
  }

  /// Turns the target into origin form (`/path?query`), taking the authority of an absolute
  /// target as the Host (RFC 9112 §3.2).
  static func normalizeTarget(_ target: String, method: HTTPMethod, headers: inout HTTPHeaders)
    -> Result<String, HTTPError>
  {
    if target.hasPrefix("/") { return .success(target) }
    if target == "*" {
      return method == .options
        ? .success(target) : .failure(HTTPError(.badRequest, "* is a target for OPTIONS only"))
    }
    let lower = target.lowercased()
    for scheme in ["http://", "https://"] where lower.hasPrefix(scheme) {
      let rest = target.dropFirst(scheme.count)
      let slash = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
      let authority = rest[..<slash]
      guard !authority.isEmpty, !authority.contains("@"),
        authority.utf8.allSatisfy(Syntax.isHostByte)
      else {
        return .failure(HTTPError(.badRequest, "the target's authority is invalid"))
      }
      headers.set("Host", String(authority))
      let path = rest[slash...]
      return .success(path.hasPrefix("/") ? String(path) : "/" + path)
    }
    return .failure(HTTPError(.badRequest, "the request target must be a path starting with /"))
  }

  /// RFC 9112 §3.2: exactly one valid Host, required in HTTP/1.1.
  static func checkHost(_ headers: HTTPHeaders, version: HTTPVersion) -> HTTPError? {
    let hosts = headers.values("Host")
    guard hosts.count <= 1 else { return HTTPError(.badRequest, "more than one Host field") }
    guard let host = hosts.first else {
      return version == .http1_0 ? nil : HTTPError(.badRequest, "an HTTP/1.1 request needs a Host")
    }
    guard !host.isEmpty, host.utf8.allSatisfy(Syntax.isHostByte) else {
      return HTTPError(.badRequest, "the Host field is invalid")
    }
    return nil
  }

  static func bodyFraming(
    _ headers: HTTPHeaders, method: HTTPMethod, version: HTTPVersion, limits: HTTPLimits
  ) -> Result<Framing, HTTPError> {
    let encodings = headers.values("Transfer-Encoding")
    let lengths = headers.values("Content-Length")
    if !encodings.isEmpty {
      // RFC 9112 §6.1: Transfer-Encoding with Content-Length is a smuggling attempt.
      guard lengths.isEmpty else {
        return .failure(
          HTTPError(.badRequest, "Content-Length and Transfer-Encoding must not both be sent"))
      }
      guard version == .http1_1 else {
        return .failure(HTTPError(.badRequest, "Transfer-Encoding needs HTTP/1.1"))
      }
      let codings = headers.tokens("Transfer-Encoding")
      guard codings.last == "chunked" else {
        return .failure(HTTPError(.badRequest, "the final transfer coding must be chunked"))
      }
      guard codings.count == 1 else {
        return codings.dropLast().contains("chunked")
          ? .failure(HTTPError(.badRequest, "chunked may be applied only once"))
          : .failure(HTTPError(.notImplemented, "only the chunked transfer coding is supported"))
      }
      return .success(.chunked)
    }
    if !lengths.isEmpty {
      var length: Int?
      for field in lengths {
        for element in field.split(separator: ",", omittingEmptySubsequences: false) {
          let digits = element.trimmingCharacters(in: " \t")
          guard !digits.isEmpty, digits.utf8.allSatisfy(Syntax.isDigit) else {
            return .failure(HTTPError(.badRequest, "Content-Length is not a number"))
          }
          let trimmed = digits.drop { $0 == "0" }
          guard trimmed.count <= 15, let value = Int(trimmed.isEmpty ? "0" : String(trimmed))
          else {
            return .failure(HTTPError(.contentTooLarge, "the body is larger than the limit"))
          }
          if let length, length != value {
            return .failure(HTTPError(.badRequest, "Content-Length values differ"))
          }
          length = value
        }
      }
      let value = length ?? 0
      guard value <= limits.maxBody else {
        return .failure(
          HTTPError(.contentTooLarge, "the body is larger than \(limits.maxBody) bytes"))
      }
      return .success(value == 0 ? .none : .length(value))
    }
    if method == .post || method == .put || method == .patch {
      return .failure(HTTPError(.lengthRequired, "a \(method) request needs a Content-Length"))
    }
    return .success(.none)
  }
}

/// A view of part of the bytes being parsed, indexed like the whole.
typealias ByteSlice = Slice<UnsafeBufferPointer<UInt8>>

/// Splits a head into lines ending in LF, dropping a CR before the LF and noting any other CR.
struct Lines: IteratorProtocol {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0
  var sawBareCR = false

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  mutating func next() -> ByteSlice? {
    guard position < bytes.count else { return nil }
    var end = position
    while end < bytes.count, bytes[end] != 0x0A { end += 1 }
    let next = min(end + 1, bytes.count)
    var lineEnd = end
    if lineEnd > position, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
    let line = bytes[position..<lineEnd]
    if line.contains(0x0D) { sawBareCR = true }
    position = next
    return line
  }
}
