/// An incremental HTTP/1.1 request parser (RFC 9112).
///
/// Feed it the connection's unread bytes; each call reports how many it consumed and whether a
/// whole request is ready, more bytes are needed, or the request is bad (with the status to
/// answer). It checks each line as soon as it ends, so junk is refused at once, and keeps no
/// reference to the bytes, so the caller may drop consumed ones.
public struct RequestParser: Sendable {
  /// What one call to `parse` found.
  public enum Step: Sendable {
    /// The bytes so far are a valid prefix; read more.
    case needMore
    /// The head asked for `Expect: 100-continue`; send an interim 100 and call `parse` again.
    case expectContinue
    /// A complete request.
    case request(Request)
    /// The request is bad; answer with the error and close the connection.
    case failure(HTTPError)
  }

  enum State: Sendable {
    /// Waiting for the request line, after `emptyLines` empty lines.
    case requestLine(emptyLines: Int)
    /// Reading header field lines.
    case fields
    case fixedBody(remaining: Int)
    case chunked(ChunkedBody)
  }

  public let limits: HTTPLimits
  var state = State.requestLine(emptyLines: 0)
  /// How much of the unfinished line at the start of the unread bytes was already searched.
  var scanned = 0
  /// Bytes of the current head consumed so far, request line included.
  var headSize = 0
  /// The request being read; its fields are kept as bytes (`HTTPHeaders.appendPacked`).
  var pending = RequestParser.fresh()
  /// How many header fields it has.
  var fieldCount = 0
  var continueSent = false

  /// RFC 9112 §2.2: empty lines tolerated before a request line.
  static let maxEmptyLines = 4

  public init(limits: HTTPLimits = .default) {
    self.limits = limits
  }

  /// Whether the parser is between requests, with nothing of the next one seen yet.
  public var isIdle: Bool {
    if case .requestLine(0) = state, scanned == 0 { return true }
    return false
  }

  /// Whether the head is in and the body is being read.
  public var isBodyPhase: Bool {
    switch state {
    case .requestLine, .fields: false
    case .fixedBody, .chunked: true
    }
  }

  /// Parses from the start of `bytes` (the unread bytes). Returns the step and how many bytes
  /// of `bytes` it consumed; a `.request` or `.failure` resets the parser for the next request.
  public mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (Step, consumed: Int) {
    var consumed = 0
    while consumed < bytes.count {
      let (step, used) = advance(UnsafeBufferPointer(rebasing: bytes[consumed...]))
      consumed += used
      switch step {
      case .needMore where used > 0:
        continue
      case .request, .failure:
        reset()
        return (step, consumed)
      case .needMore, .expectContinue:
        return (step, consumed)
      }
    }
    return (.needMore, consumed)
  }

  /// Convenience for tests and small callers.
  public mutating func parse(_ bytes: [UInt8]) -> (Step, consumed: Int) {
    bytes.withUnsafeBufferPointer { parse($0) }
  }

  mutating func reset() {
    state = .requestLine(emptyLines: 0)
    scanned = 0
    headSize = 0
    pending = Self.fresh()
    fieldCount = 0
    continueSent = false
  }

  static func fresh() -> Request {
    Request(method: .get, target: "/", headers: .packedForParsing())
  }

  private mutating func advance(_ p: UnsafeBufferPointer<UInt8>) -> (Step, Int) {
    switch state {
    case .requestLine, .fields:
      guard let newline = Self.firstNewline(p, from: scanned) else {
        scanned = p.count
        if let error = checkUnfinishedLine(p) { return (.failure(error), 0) }
        return (.needMore, 0)
      }
      scanned = 0
      headSize += newline + 1
      let end = newline > 0 && p[newline - 1] == UInt8(ascii: "\r") ? newline - 1 : newline
      return (lineEnded(p[..<end]), newline + 1)
    case .fixedBody(let remaining):
      let take = min(remaining, p.count)
      pending.body.append(contentsOf: UnsafeBufferPointer(rebasing: p[..<take]))
      if take == remaining { return (.request(pending), take) }
      state = .fixedBody(remaining: remaining - take)
      return (.needMore, take)
    case .chunked(var decoder):
      let (result, used) = decoder.advance(p, body: &pending.body, limits: limits)
      state = .chunked(decoder)
      switch result {
      case .more:
        return (.needMore, used)
      case .done:
        return (.request(pending), used)
      case .failure(let error):
        return (.failure(error), used)
      }
    }
  }

  // MARK: Head

  /// Handles one complete line of the head (without its CRLF).
  private mutating func lineEnded(_ line: ByteSlice) -> Step {
    switch state {
    case .requestLine(let emptyLines):
      guard !line.isEmpty else {
        // RFC 9112 §2.2: ignore a few empty lines before the request line.
        guard emptyLines < Self.maxEmptyLines else {
          return .failure(HTTPError(.badRequest, "empty lines instead of a request"))
        }
        state = .requestLine(emptyLines: emptyLines + 1)
        headSize = 0
        return .needMore
      }
      guard line.count <= limits.maxRequestLine else {
        return .failure(HTTPError(.uriTooLong, "the request line is too long"))
      }
      switch RequestLine.parse(line) {
      case .failure(let error):
        return .failure(error)
      case .success(let requestLine):
        pending.method = requestLine.method
        pending.target = requestLine.target
        pending.version = requestLine.version
        state = .fields
        return .needMore
      }
    case .fields:
      guard !line.isEmpty else { return finishHead() }
      guard headSize <= limits.maxHeaderBlock else {
        return .failure(HTTPError(.headerFieldsTooLarge, "the request head is too large"))
      }
      guard line.count <= limits.maxFieldLine else {
        return .failure(HTTPError(.headerFieldsTooLarge, "a header field is too large"))
      }
      guard fieldCount < limits.maxHeaderCount else {
        return .failure(HTTPError(.headerFieldsTooLarge, "too many header fields"))
      }
      if let error = RequestHead.parseField(line, into: &pending.headers) {
        return .failure(error)
      }
      fieldCount += 1
      return .needMore
    case .fixedBody, .chunked:
      return .failure(HTTPError(.internalServerError, "a head line while reading a body"))
    }
  }

  /// Refuses early what can never become a valid head, so junk is answered at once.
  private func checkUnfinishedLine(_ p: UnsafeBufferPointer<UInt8>) -> HTTPError? {
    switch state {
    case .requestLine:
      var j = 0
      while j < p.count, p[j] != UInt8(ascii: " ") {
        guard Syntax.isTokenByte(p[j]) || (p[j] == UInt8(ascii: "\r") && j == p.count - 1) else {
          return HTTPError(.badRequest, "the method is not a token")
        }
        j += 1
      }
      if p.count > limits.maxRequestLine {
        return HTTPError(.uriTooLong, "the request line is too long")
      }
    case .fields:
      if p.count > limits.maxFieldLine + 1 {
        return HTTPError(.headerFieldsTooLarge, "a header field is too large")
      }
      if headSize + p.count > limits.maxHeaderBlock {
        return HTTPError(.headerFieldsTooLarge, "the request head is too large")
      }
    case .fixedBody, .chunked:
      break
    }
    return nil
  }

  private static func firstNewline(_ p: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard start < p.count, let base = p.baseAddress else { return nil }
    guard let hit = memchr(base + start, 0x0A, p.count - start) else { return nil }
    return UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - base
  }

  private mutating func finishHead() -> Step {
    switch RequestHead.finish(&pending, limits: limits) {
    case .failure(let error):
      return .failure(error)
    case .success(let head):
      switch head.framing {
      case .none:
        return .request(pending)
      case .length(let length):
        pending.body.reserveCapacity(length)
        state = .fixedBody(remaining: length)
      case .chunked:
        state = .chunked(ChunkedBody())
      }
      if head.expectsContinue && !continueSent {
        continueSent = true
        return .expectContinue
      }
      return .needMore
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
