/// The life of one HTTP/1.1 connection as a pure state machine (RFC 9112 §9).
///
/// The socket code reports events (bytes read, the application's response, end of input, the
/// time, a stalled or drained output), then carries out the actions that `nextAction()` hands
/// back, in order. The machine answers pipelined requests in order, one at a time, owns every
/// timeout, and says through `wantsInput` whether reading should go on.
public struct HTTPConnectionStateMachine: Sendable {
  /// Timeouts and bounds for one connection.
  public struct Configuration: Sendable {
    public var limits = HTTPLimits()
    /// Time allowed to send a whole request head, from its first byte (or from accept), however
    /// it dribbles in.
    public var headerTimeout: Duration = .seconds(10)
    /// Time allowed to send a whole request body once its head is in.
    public var bodyTimeout: Duration = .seconds(20)
    /// How long a kept-alive connection may sit idle between requests.
    public var idleTimeout: Duration = .seconds(15)
    /// How long to keep reading (and discarding) after the last response before closing, so
    /// that the client sees the response rather than a reset.
    public var lingerTimeout: Duration = .seconds(5)
    /// How long output may stay stuck (the peer reads nothing) before the connection is dropped.
    public var sendTimeout: Duration = .seconds(30)
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
    /// Write this response. With `omitBody`, the head only (HEAD, 304); `keepAlive` is what its
    /// `Connection` field says, nil to keep the response's own (a 101).
    case send(Response, omitBody: Bool, keepAlive: Bool?)
    /// Write the interim `100 Continue` (RFC 9110 §15.2.1).
    case sendContinue
    /// Finish writing, then close.
    case close
    /// Finish writing, shut down writing, and drain input until the peer closes or the linger
    /// deadline passes, so that unread input does not turn into a reset that loses the response
    /// (RFC 9112 §9.6).
    case closeLingering
    /// Close at once, dropping unsent output.
    case abort
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

  /// The configuration's timeouts in nanoseconds, to add to the clock without `Duration` math.
  struct Timeouts: Sendable {
    var header, body, idle, linger, send: UInt64

    init(_ configuration: Configuration) {
      header = MonotonicTime.nanoseconds(in: configuration.headerTimeout)
      body = MonotonicTime.nanoseconds(in: configuration.bodyTimeout)
      idle = MonotonicTime.nanoseconds(in: configuration.idleTimeout)
      linger = MonotonicTime.nanoseconds(in: configuration.lingerTimeout)
      send = MonotonicTime.nanoseconds(in: configuration.sendTimeout)
    }
  }

  public let configuration: Configuration
  let timeouts: Timeouts
  var state = State.reading(started: false)
  var parser: RequestParser
  /// Bytes read but not yet parsed.
  var buffer: [UInt8] = []
  var served = 0
  /// The peer sent end of file: no more input will come.
  var peerFinished = false
  /// The server is stopping: the next response is the last.
  var stopping = false
  /// Whether the current request's head is in and its body is being read.
  var inBody = false
  /// When the current phase times out; nil while the application has the request.
  public private(set) var deadline: MonotonicTime?
  /// When stalled output gives up; nil while output flows.
  public private(set) var writeDeadline: MonotonicTime?
  /// The socket would not take all the output: hold later requests until it drains.
  var outputStuck = false
  private var actions: [Action] = []
  private var nextIndex = 0

  public init(configuration: Configuration = Configuration(), now: MonotonicTime) {
    self.configuration = configuration
    self.timeouts = Timeouts(configuration)
    self.parser = RequestParser(limits: configuration.limits)
    self.deadline = now.adding(nanoseconds: timeouts.header)
  }

  /// Whether the connection waits for a request with nothing of it seen yet.
  public var isIdle: Bool { state == .reading(started: false) && buffer.isEmpty }

  public var isClosed: Bool { state == .closed }

  /// Whether the socket code should read: false once closed or upgraded, while output is stuck
  /// (a peer that does not read gets no more answers queued), and while a response is pending
  /// with `maxBuffered` bytes of later input already held.
  public var wantsInput: Bool {
    switch state {
    case .lingering: true
    case .reading: !outputStuck
    case .waiting: !outputStuck && buffer.count < configuration.maxBuffered
    case .closed, .upgraded: false
    }
  }

  /// The earliest deadline: call `timerFired(now:)` once it has passed.
  public var nextDeadline: MonotonicTime? {
    guard let writeDeadline else { return deadline }
    guard let deadline else { return writeDeadline }
    return min(deadline, writeDeadline)
  }

  /// Whether `nextAction()` has something.
  public var hasActions: Bool { nextIndex < actions.count }

  /// The next action to carry out, in order; nil when there is none.
  public mutating func nextAction() -> Action? {
    guard nextIndex < actions.count else {
      if !actions.isEmpty {
        actions.removeAll(keepingCapacity: true)
        nextIndex = 0
      }
      return nil
    }
    // Move the action out (leaving a payload-free one behind) rather than copy it: a copy of
    // a request or response costs a retain and a release per field.
    var action = Action.sendContinue
    swap(&action, &actions[nextIndex])
    nextIndex += 1
    return action
  }

  // MARK: Events

  /// Bytes arrived from the peer.
  public mutating func received(_ bytes: UnsafeRawBufferPointer, now: MonotonicTime) {
    switch state {
    case .lingering, .closed, .upgraded:
      return
    case .waiting:
      buffer.append(contentsOf: bytes)
    case .reading(let started):
      if !started && buffer.isEmpty && !bytes.isEmpty {
        state = .reading(started: true)
        // A new connection's head is timed from accept (as nginx does); a kept-alive one's
        // from the first byte of the next request.
        if served > 0 { deadline = outputStuck ? nil : now.adding(nanoseconds: timeouts.header) }
      }
      guard buffer.isEmpty, !outputStuck else {
        buffer.append(contentsOf: bytes)
        parseBuffered(now: now)
        return
      }
      // The common case: parse straight from the read, keeping only what is left over.
      let consumed = parse(bytes.assumingMemoryBound(to: UInt8.self), now: now)
      if consumed < bytes.count {
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[consumed...]))
      }
    }
  }

  /// The application's answer to the dispatched request.
  public mutating func respond(_ response: Response, now: MonotonicTime) {
    guard case .waiting(let method, let requestKeepAlive) = state else { return }
    served += 1

    if response.status.code == 101 {
      state = .upgraded
      deadline = nil
      let leftover = buffer
      buffer = []
      actions.append(.send(response, omitBody: true, keepAlive: nil))
      actions.append(.upgrade(leftover: leftover))
      return
    }

    let keepAlive =
      requestKeepAlive && !stopping && served < configuration.maxRequests
      && !(peerFinished && buffer.isEmpty) && !response.asksToClose
    let omitBody = method == .head || response.status.forbidsBody
    actions.append(.send(response, omitBody: omitBody, keepAlive: keepAlive))
    guard keepAlive else {
      startClosing(now: now)
      return
    }
    state = .reading(started: !buffer.isEmpty)
    deadline = now.adding(nanoseconds: buffer.isEmpty ? timeouts.idle : timeouts.header)
    guard !outputStuck else {
      // The next request waits until the output drains; only the send timeout runs meanwhile.
      deadline = nil
      return
    }
    parseNext(now: now)
  }

  /// Parses what is buffered; closes if the peer is done and no request can come of it.
  private mutating func parseNext(now: MonotonicTime) {
    parseBuffered(now: now)
    if peerFinished, case .reading = state {
      // What is left can never become a request.
      state = .closed
      deadline = nil
      actions.append(.close)
    }
  }

  /// The peer finished sending (a read returned end of file).
  public mutating func peerClosed(now: MonotonicTime) {
    peerFinished = true
    switch state {
    case .reading, .lingering:
      state = .closed
      deadline = nil
      actions.append(.close)
    case .waiting, .closed, .upgraded:
      break
    }
  }

  /// The server is stopping: close now if idle, else after the response in progress.
  public mutating func shutDown(now: MonotonicTime) {
    stopping = true
    if isIdle {
      state = .closed
      deadline = nil
      actions.append(.close)
    }
  }

  /// Output could not all be written: the peer has `sendTimeout` to take it, and no further
  /// request is answered meanwhile.
  public mutating func outputBlocked(now: MonotonicTime) {
    if writeDeadline == nil { writeDeadline = now.adding(nanoseconds: timeouts.send) }
    outputStuck = true
  }

  /// All output was written; requests held back meanwhile go ahead.
  public mutating func outputDrained(now: MonotonicTime) {
    writeDeadline = nil
    guard outputStuck else { return }
    outputStuck = false
    guard case .reading(let started) = state else { return }
    // The idle (or header) clock starts once the answer is out.
    deadline = now.adding(nanoseconds: started ? timeouts.header : timeouts.idle)
    parseNext(now: now)
  }

  /// Time passed; call at `nextDeadline` or later.
  public mutating func timerFired(now: MonotonicTime) {
    if let writeDeadline, now >= writeDeadline, state != .upgraded {
      state = .closed
      deadline = nil
      self.writeDeadline = nil
      actions.append(.abort)
      return
    }
    guard let deadline, now >= deadline else { return }
    switch state {
    case .reading(let started):
      guard started || !buffer.isEmpty else {
        state = .closed
        self.deadline = nil
        actions.append(.close)
        return
      }
      fail(HTTPError(.requestTimeout, "the request took too long to arrive"), now: now)
    case .lingering:
      state = .closed
      self.deadline = nil
      actions.append(.close)
    case .waiting, .closed, .upgraded:
      break
    }
  }

  // MARK: Internals

  private mutating func parseBuffered(now: MonotonicTime) {
    guard !buffer.isEmpty, !outputStuck else { return }
    var pending = buffer
    buffer = []
    let consumed = pending.withUnsafeBufferPointer { parse($0, now: now) }
    pending.removeFirst(consumed)
    buffer = pending
  }

  /// Parses requests from `bytes` while reading; returns how many bytes were consumed.
  private mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>, now: MonotonicTime) -> Int {
    var offset = 0
    while case .reading = state, offset < bytes.count {
      let (step, consumed) = parser.parse(UnsafeBufferPointer(rebasing: bytes[offset...]))
      offset += consumed
      switch step {
      case .needMore:
        if !parser.isIdle, case .reading(false) = state {
          state = .reading(started: true)
        }
        if parser.isBodyPhase && !inBody {
          inBody = true
          deadline = now.adding(nanoseconds: timeouts.body)
        }
        return offset
      case .expectContinue:
        actions.append(.sendContinue)
        inBody = true
        deadline = now.adding(nanoseconds: timeouts.body)
      case .request(let request):
        inBody = false
        state = .waiting(method: request.method, keepAlive: request.keepAlive)
        deadline = nil
        actions.append(.dispatch(request))
      case .failure(let error):
        fail(error, now: now)
        return bytes.count
      }
    }
    return offset
  }

  private mutating func fail(_ error: HTTPError, now: MonotonicTime) {
    buffer = []
    actions.append(.send(error.response, omitBody: false, keepAlive: false))
    startClosing(now: now)
  }

  private mutating func startClosing(now: MonotonicTime) {
    if peerFinished {
      state = .closed
      deadline = nil
      actions.append(.close)
      return
    }
    state = .lingering
    deadline = now.adding(nanoseconds: timeouts.linger)
    actions.append(.closeLingering)
  }
}
