/// An incremental HTTP/1.1 request parser (RFC 9112).
///
/// Feed it the connection's unread bytes; each call reports how many it consumed and whether a
/// whole request is ready, more bytes are needed, or the request is bad (with the status to
/// answer). It keeps no reference to the bytes, so the caller may drop consumed ones.
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
    /// Looking for the end of the head. Offsets are relative to the unread bytes.
    case head(lineStart: Int, scanned: Int, sawRequestLine: Bool)
    case fixedBody(remaining: Int)
    case chunked(ChunkPhase)
  }

  enum ChunkPhase: Sendable {
    case sizeLine
    case data(remaining: Int)
    case dataEnd
    case trailers(size: Int)
  }

  public let limits: HTTPLimits
  var state = State.head(lineStart: 0, scanned: 0, sawRequestLine: false)
  /// The head whose body is being read.
  var pending = Request(method: .get, target: "/")
  var continueSent = false

  public init(limits: HTTPLimits = .default) {
    self.limits = limits
  }

  /// Whether the parser is between requests, with nothing of the next one seen yet.
  public var isIdle: Bool {
    if case .head(0, 0, false) = state { return true }
    return false
  }

  /// Whether the head is in and the body is being read.
  public var isBodyPhase: Bool {
    if case .head = state { return false }
    return true
  }

  /// Parses from the start of `bytes` (the unread bytes). Returns the step and how many bytes
  /// of `bytes` it consumed; a `.request` or `.failure` resets the parser for the next request.
  public mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (Step, consumed: Int) {
    var consumed = 0
    while true {
      let rest = UnsafeBufferPointer(rebasing: bytes[consumed...])
      let (step, used) = advance(rest)
      consumed += used
      switch step {
      case .needMore where used > 0 && consumed < bytes.count:
        continue
      case .request, .failure:
        reset()
        return (step, consumed)
      default:
        return (step, consumed)
      }
    }
  }

  /// Convenience for tests and small callers.
  public mutating func parse(_ bytes: [UInt8]) -> (Step, consumed: Int) {
    bytes.withUnsafeBufferPointer { parse($0) }
  }

  mutating func reset() {
    state = .head(lineStart: 0, scanned: 0, sawRequestLine: false)
    pending = Request(method: .get, target: "/")
    continueSent = false
  }

  private mutating func advance(_ p: UnsafeBufferPointer<UInt8>) -> (Step, Int) {
    switch state {
    case .head(let lineStart, let scanned, let sawRequestLine):
      return scanHead(p, lineStart: lineStart, scanned: scanned, sawRequestLine: sawRequestLine)
    case .fixedBody(let remaining):
      let take = min(remaining, p.count)
      pending.body.append(contentsOf: UnsafeBufferPointer(rebasing: p[..<take]))
      if take == remaining { return (.request(pending), take) }
      state = .fixedBody(remaining: remaining - take)
      return (.needMore, take)
    case .chunked(let phase):
      let (result, used) = ChunkedBody.advance(
        p, phase: phase, body: &pending.body, limits: limits)
      switch result {
      case .more(let next):
        state = .chunked(next)
        return (.needMore, used)
      case .done:
        return (.request(pending), used)
      case .failure(let error):
        return (.failure(error), used)
      }
    }
  }

  // MARK: Head

  private mutating func scanHead(
    _ p: UnsafeBufferPointer<UInt8>, lineStart: Int, scanned: Int, sawRequestLine: Bool
  ) -> (Step, Int) {
    var lineStart = lineStart
    var sawRequestLine = sawRequestLine
    var i = scanned
    while i < p.count {
      // Look for the end of the current line.
      guard let newline = Self.firstNewline(p, from: i) else {
        if let error = checkUnfinishedLine(p, lineStart: lineStart, sawRequestLine: sawRequestLine)
        {
          return (.failure(error), 0)
        }
        state = .head(lineStart: lineStart, scanned: p.count, sawRequestLine: sawRequestLine)
        return (.needMore, 0)
      }
      let lineEnd = newline > lineStart && p[newline - 1] == UInt8(ascii: "\r") ? newline - 1 : newline
      if !sawRequestLine {
        if lineEnd == lineStart {
          // RFC 9112 §2.2: ignore empty lines before the request line, a few at most.
          guard newline < 8 else { return (.failure(HTTPError(.badRequest, "empty lines")), 0) }
          lineStart = newline + 1
          i = lineStart
          continue
        }
        guard lineEnd - lineStart <= limits.maxRequestLine else {
          return (.failure(HTTPError(.uriTooLong, "the request line is too long")), 0)
        }
        sawRequestLine = true
      } else if lineEnd == lineStart {
        // The empty line ends the head.
        let head = UnsafeBufferPointer(rebasing: p[..<(newline + 1)])
        return finishHead(head)
      }
      guard newline + 1 <= limits.maxHeaderBlock else {
        return (.failure(HTTPError(.headerFieldsTooLarge, "the request head is too large")), 0)
      }
      lineStart = newline + 1
      i = lineStart
    }
    state = .head(lineStart: lineStart, scanned: p.count, sawRequestLine: sawRequestLine)
    return (.needMore, 0)
  }

  /// Rejects early what can never become a valid head, so junk is answered at once.
  private func checkUnfinishedLine(
    _ p: UnsafeBufferPointer<UInt8>, lineStart: Int, sawRequestLine: Bool
  ) -> HTTPError? {
    if !sawRequestLine {
      var j = lineStart
      while j < p.count, p[j] != UInt8(ascii: " ") {
        guard Syntax.isTokenByte(p[j]) || (p[j] == UInt8(ascii: "\r") && j == p.count - 1) else {
          return HTTPError(.badRequest, "the method is not a token")
        }
        j += 1
      }
      if p.count - lineStart > limits.maxRequestLine {
        return HTTPError(.uriTooLong, "the request line is too long")
      }
    } else if p.count > limits.maxHeaderBlock {
      return HTTPError(.headerFieldsTooLarge, "the request head is too large")
    }
    return nil
  }

  private static func firstNewline(_ p: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard start < p.count, let base = p.baseAddress else { return nil }
    guard let hit = memchr(base + start, 0x0A, p.count - start) else { return nil }
    return UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - base
  }

  private mutating func finishHead(_ head: UnsafeBufferPointer<UInt8>) -> (Step, Int) {
    switch RequestHead.parse(head, limits: limits) {
    case .failure(let error):
      return (.failure(error), head.count)
    case .success(let parsed):
      pending = parsed.request
      switch parsed.framing {
      case .none:
        return (.request(pending), head.count)
      case .length(let length):
        pending.body.reserveCapacity(length)
        state = .fixedBody(remaining: length)
      case .chunked:
        state = .chunked(.sizeLine)
      }
      if parsed.expectsContinue && !continueSent {
        continueSent = true
        return (.expectContinue, head.count)
      }
      return (.needMore, head.count)
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
