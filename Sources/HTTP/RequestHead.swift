/// What the fields of a complete head say about its body (RFC 9112 §6), and the checks that need
/// every field: Host, target form, framing, expectations.
struct RequestHead: Sendable, Equatable {
  enum Framing: Sendable, Equatable {
    case none
    case length(Int)
    case chunked
  }

  var framing: Framing
  var expectsContinue: Bool

  /// Checks a request whose head is complete, turns its target into origin form, and says how
  /// its body is framed.
  static func finish(_ request: inout Request, limits: HTTPLimits) -> Result<RequestHead, HTTPError>
  {
    if let error = checkHost(request.headers, target: request.target, version: request.version) {
      return .failure(error)
    }
    switch normalizeTarget(request.target, method: request.method, headers: &request.headers) {
    case .success(let originForm): request.target = originForm
    case .failure(let error): return .failure(error)
    }

    let framing: Framing
    switch bodyFraming(
      request.headers, method: request.method, version: request.version, limits: limits)
    {
    case .success(let parsed): framing = parsed
    case .failure(let error): return .failure(error)
    }

    // Expectations (RFC 9110 §10.1.1).
    var expectsContinue = false
    if let expect = request.headers["Expect"] {
      guard expect.lowercased() == "100-continue" else {
        return .failure(HTTPError(.expectationFailed, "only Expect: 100-continue is understood"))
      }
      expectsContinue = request.version == .http1_1 && framing != .none
    }
    return .success(RequestHead(framing: framing, expectsContinue: expectsContinue))
  }

  /// Checks one field line and appends it to `headers` as bytes (no `String` is made).
  static func parseField(_ line: ByteSlice, into headers: inout HTTPHeaders) -> HTTPError? {
    switch fieldParts(line) {
    case .failure(let error):
      return error
    case .success(let (name, value)):
      headers.appendPacked(name: name, value: value)
      return nil
    }
  }

  /// The name and the trimmed value of a valid field line (RFC 9112 §5).
  static func fieldParts(_ line: ByteSlice) -> Result<(ByteSlice, ByteSlice), HTTPError> {
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
    return .success((name, value))
  }

  /// Turns the target into origin form (`/path?query`), taking the authority of an absolute
  /// target as the Host (RFC 9112 §3.2).
  static func normalizeTarget(_ target: String, method: HTTPMethod, headers: inout HTTPHeaders)
    -> Result<String, HTTPError>
  {
    if target.utf8.first == UInt8(ascii: "/") { return .success(target) }
    if target == "*" {
      return method == .options
        ? .success(target) : .failure(HTTPError(.badRequest, "* is a target for OPTIONS only"))
    }
    let lower = target.lowercased()
    for scheme in ["http://", "https://"] where lower.hasPrefix(scheme) {
      let rest = target.dropFirst(scheme.count)
      let slash = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
      let authority = rest[..<slash]
      guard Syntax.isHost(authority) else {
        return .failure(HTTPError(.badRequest, "the target's authority is invalid"))
      }
      headers.set("Host", String(authority))
      let path = rest[slash...]
      return .success(path.hasPrefix("/") ? String(path) : "/" + path)
    }
    return .failure(HTTPError(.badRequest, "the request target must be a path starting with /"))
  }

  /// RFC 9112 §3.2: at most one Host, valid, and required in HTTP/1.1 unless the target names
  /// the host itself (absolute form).
  static func checkHost(_ headers: HTTPHeaders, target: String, version: HTTPVersion)
    -> HTTPError?
  {
    // NB: the values are read as bytes, without a String.
    var hosts = 0
    var valid = true
    headers.visitValues("Host") { host in
      hosts += 1
      valid = Syntax.isHost(host)
      return hosts == 1
    }
    guard hosts <= 1 else { return HTTPError(.badRequest, "more than one Host field") }
    guard hosts == 1 else {
      guard version == .http1_1, target.utf8.first == UInt8(ascii: "/") else { return nil }
      return HTTPError(.badRequest, "an HTTP/1.1 request needs a Host")
    }
    guard valid else { return HTTPError(.badRequest, "the Host field is invalid") }
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
      // RFC 9110 §8.6 lets a recipient either refuse or merge several equal values; refusing
      // every repeat (as nginx does) leaves no room for two parties to read them differently.
      guard lengths.count == 1, !lengths[0].contains(",") else {
        return .failure(HTTPError(.badRequest, "Content-Length must be sent once"))
      }
      let digits = lengths[0].utf8
      guard !digits.isEmpty, digits.allSatisfy(Syntax.isDigit) else {
        return .failure(HTTPError(.badRequest, "Content-Length is not a number"))
      }
      let significant = digits.drop { $0 == UInt8(ascii: "0") }
      guard significant.count <= 15 else {
        return .failure(HTTPError(.contentTooLarge, "the body is larger than the limit"))
      }
      let value = significant.reduce(0) { $0 * 10 + Int($1 - 0x30) }
      guard value <= limits.maxBody else {
        return .failure(
          HTTPError(.contentTooLarge, "the body is larger than \(limits.maxBody) bytes"))
      }
      return .success(value == 0 ? .none : .length(value))
    }
    // RFC 9112 §6.3: with neither field the body is empty. Where an empty body will not do,
    // the application answers 411 (`Request.declaresBody`).
    return .success(.none)
  }
}

/// A view of part of the bytes being parsed, indexed like the whole.
typealias ByteSlice = Slice<UnsafeBufferPointer<UInt8>>
