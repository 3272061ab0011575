/// The life of one HTTP/1.1 connection as a pure state machine (RFC 9112 §9).
///
/// The socket code feeds it bytes, responses and the time, and carries out the actions it
/// returns. It answers pipelined requests in order, one at a time, and owns every timeout.
public struct HTTPConnectionStateMachine: Sendable {
  /// Timeouts and bounds for one connection.
  public struct Configuration: Sendable {
    public var limits = HTTPLimits()
    /// Time allowed to send a whole request head, from its first byte (or from accept), however
    /// it dribbles in.
    public var headerTimeout: Duration = .seconds(10)
    /// Time allowed to send a whole request body once its head is in.
    public var bodyTimeout: Duration = .seconds(30)
    /// How long a kept-alive connection may sit idle between requests.
    public var idleTimeout: Duration = .seconds(15)
    /// How long to keep reading (and discarding) after the last response before closing, so
    /// that the client sees the response rather than a reset.
    public var lingerTimeout: Duration = .seconds(2)
    /// Most requests served on one connection.
    public var maxRequests = 10_000
    /// Most unread bytes buffered while a response is pending; reading pauses beyond this.
    public var maxBuffered = 64 * 1024

    public init() {}
  }

  /// What the socket code must do next.
  public enum Action: Sendable {
    /// Hand the request to the application; answer with `respond(_:now:)`.
    case dispatch(Request)
    /// Write this response; with `omitBody`, write the head only (HEAD, 304).
    case send(Response, omitBody: Bool)
    /// Write these bytes as they are (an interim `100 Continue`).
    case sendRaw([UInt8])
    /// Stop reading until the pending response is sent (too much pipelined input).
    case pauseReading
    /// Read again.
    case resumeReading
    /// Finish writing, then close. With `linger`, shut down writing first and drain input for a
    /// while, so that unread input does not turn into a reset that loses the response.
    case close(linger: Bool)
    /// The connection now speaks another protocol; these unread bytes belong to it.
    case upgrade(leftover: [UInt8])
  }

  enum State: Sendable, Equatable {
    /// Reading a request; `started` is whether any byte of it has arrived.
    case reading(started: Bool)
    /// A request is with the application.
    case waiting(method: HTTPMethod, keepAlive: Bool)
    /// The last response is out; draining input until the linger deadline.
    case lingering
    case closed
    case upgraded
  }

  public let configuration: Configuration
  var state = State.reading(started: false)
  var parser: RequestParser
  var buffer: [UInt8] = []
  var served = 0
  var peerFinished = false
  var paused = false
  /// Whether the current request's head is in and its body is being read.
  var inBody = false
  /// When the current phase times out.
  public private(set) var deadline: MonotonicTime

  public init(configuration: Configuration = Configuration(), now: MonotonicTime) {
    self.configuration = configuration
    self.parser = RequestParser(limits: configuration.limits)
    self.deadline = now + configuration.headerTimeout
  }

  /// Whether the connection is reading the next request with nothing of it seen yet.
  public var isIdle: Bool { state == .reading(started: false) && buffer.isEmpty }

  public var isClosed: Bool { state == .closed }

  /// Bytes arrived from the peer.
  public mutating func received(_ bytes: UnsafeRawBufferPointer, now: MonotonicTime) -> [Action] {
    switch state {
    case .lingering:
      return []
    case .closed, .upgraded:
      return []
    case .reading(let started):
      if !started && buffer.isEmpty && !bytes.isEmpty {
        state = .reading(started: true)
        deadline = now + configuration.headerTimeout
      }
      buffer.append(contentsOf: bytes)
      return parseBuffered(now: now)
    case .waiting:
      buffer.append(contentsOf: bytes)
      if !paused && buffer.count > configuration.maxBuffered {
        paused = true
        return [.pauseReading]
      }
      return []
    }
  }

  /// The application's answer to the dispatched request.
  public mutating func respond(_ response: Response, now: MonotonicTime) -> [Action] {
    guard case .waiting(let method, let requestKeepAlive) = state else { return [] }
    var response = response
    served += 1

    if response.status == .switchingProtocols {
      state = .upgraded
      let leftover = buffer
      buffer = []
      return [.send(response, omitBody: true), .upgrade(leftover: leftover)]
    }

    let keepAlive =
      requestKeepAlive && !peerFinished && served < configuration.maxRequests
      && !response.headers.hasToken("Connection", "close")
    response.headers.remove("Connection")
    response.headers.add("Connection", keepAlive ? "keep-alive" : "close")
    let omitBody = method == .head || response.status.forbidsBody
    var actions: [Action] = [.send(response, omitBody: omitBody)]
    guard keepAlive else {
      return actions + startClosing(now: now)
    }
    state = .reading(started: !buffer.isEmpty)
    deadline = now + (buffer.isEmpty ? configuration.idleTimeout : configuration.headerTimeout)
    if paused {
      paused = false
      actions.append(.resumeReading)
    }
    return actions + parseBuffered(now: now)
  }

  /// The peer finished sending (read returned end of file).
  public mutating func peerClosed(now: MonotonicTime) -> [Action] {
    peerFinished = true
    switch state {
    case .reading:
      state = .closed
      return [.close(linger: false)]
    case .lingering:
      state = .closed
      return [.close(linger: false)]
    case .waiting, .closed, .upgraded:
      return []
    }
  }

  /// Time passed; call at `deadline` or later.
  public mutating func timerFired(now: MonotonicTime) -> [Action] {
    guard now >= deadline else { return [] }
    switch state {
    case .reading(let started):
      guard started || !buffer.isEmpty else {
        state = .closed
        return [.close(linger: false)]
      }
      return fail(HTTPError(.requestTimeout, "the request took too long to arrive"), now: now)
    case .lingering:
      state = .closed
      return [.close(linger: false)]
    case .waiting, .closed, .upgraded:
      return []
    }
  }

  // MARK: Internals

  private mutating func parseBuffered(now: MonotonicTime) -> [Action] {
    var actions: [Action] = []
    while case .reading = state, !buffer.isEmpty {
      let (step, consumed) = buffer.withUnsafeBufferPointer { parser.parse($0) }
      buffer.removeFirst(consumed)
      switch step {
      case .needMore:
        if !parser.isIdle, case .reading(false) = state {
          state = .reading(started: true)
        }
        if parser.isBodyPhase && !inBody {
          inBody = true
          deadline = now + configuration.bodyTimeout
        }
        return actions
      case .expectContinue:
        actions.append(.sendRaw(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)))
        inBody = true
        deadline = now + configuration.bodyTimeout
      case .request(let request):
        inBody = false
        state = .waiting(method: request.method, keepAlive: request.keepAlive)
        if buffer.count > configuration.maxBuffered {
          paused = true
          actions.append(.pauseReading)
        }
        actions.append(.dispatch(request))
        return actions
      case .failure(let error):
        return actions + fail(error, now: now)
      }
    }
    return actions
  }

  private mutating func fail(_ error: HTTPError, now: MonotonicTime) -> [Action] {
    var response = error.response
    response.headers.set("Connection", "close")
    buffer = []
    return [.send(response, omitBody: false)] + startClosing(now: now)
  }

  private mutating func startClosing(now: MonotonicTime) -> [Action] {
    if peerFinished {
      state = .closed
      return [.close(linger: false)]
    }
    state = .lingering
    deadline = now + configuration.lingerTimeout
    return [.close(linger: true)]
  }
}
