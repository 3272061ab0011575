import HTTP
import JSON
import Simulation
import Storage
import Testing
import WebSocket

@testable import Playfield
@testable import Server

/// Street soccer's `plan` questions go through `QueryLimiter`: a client has at most its share
/// waiting, and the session's answers give them back.
@Suite struct QueryBoundTests {
  /// A street soccer session limited to 3 questions a client, and one controller's socket.
  struct Bench {
    let limiter = QueryLimiter(perClient: 3)
    let session: LiveSession
    let loop: EventLoop
    let socket: WebSocket
    let client = ClientKey(address: "10.0.0.1")
    let handler: SessionSocketHandler
    static let plan = WebSocketMessage.text(#"{"type":"plan","side":"home","moves":[]}"#)

    init(running: Bool) throws {
      session = LiveSession(
        id: "s", model: try StreetSoccer(config: [:], seed: 1), seed: 1,
        tokenHash: TokenHash.hash(token: "t"), createdAt: 0, running: running, journal: nil,
        idlePause: 30, clock: { MonotonicTime.now() })
      session.queryLimiter = limiter
      loop = try EventLoop(index: 0)
      socket = WebSocket(
        request: Request(method: .get, target: "/ws", headers: HTTPHeaders(), body: []),
        remoteAddress: "10.0.0.1", subprotocol: nil, compressionWindowBits: nil, loop: loop)
      handler = SessionSocketHandler(
        session: session, role: .controller, inputLog: InputLogCap(maxInputs: 100),
        client: client, queries: limiter)
    }
  }

  @Test("plans past a client's share are refused until the session answers the others")
  func plansAreBoundedPerClient() throws {
    let bench = try Bench(running: false)
    let (limiter, session, socket, client, handler) = (
      bench.limiter, bench.session, bench.socket, bench.client, bench.handler
    )
    // NB: a command waiting in the inbox keeps the plans behind it, for the next tick.
    _ = session.send(.inspect { _ in })
    let answers = (0..<5).map { _ in handler.handle(Bench.plan, from: socket) }
    let refused = answers.compactMap { answer -> ClientError? in
      if case .failure(let error) = answer { error } else { nil }
    }
    #expect(refused.count == 2)
    #expect(refused.allSatisfy { $0.code == "too-many" && $0.text.contains("3 questions") })
    #expect(limiter.count(of: client) == 3)
    session.advance(now: 1, budget: SessionBudget())
    #expect(limiter.count(of: client) == 0, "answered, they are given back")
    guard case .success = handler.handle(Bench.plan, from: socket) else {
      Issue.record("a plan after the answers is taken")
      return
    }
    handler.closed(socket, code: WebSocketCloseCode?.none, reason: "")
    #expect(limiter.count(of: client) == 0, "a closed connection's questions are no one's")
  }

  @Test("a plan is answered at once when nothing waits before it; behind a command, on the tick")
  func plansAnswerAtOnce() throws {
    let bench = try Bench(running: true)
    let (limiter, session, socket, client, handler) = (
      bench.limiter, bench.session, bench.socket, bench.client, bench.handler
    )
    for _ in 0..<5 {
      guard case .success = handler.handle(Bench.plan, from: socket) else {
        Issue.record("an idle session's plan is answered, never refused")
        return
      }
    }
    #expect(limiter.count(of: client) == 0, "answered without a tick")
    #expect(session.advanceCount == 0)
    // An input waits: the plan after it waits too, and is answered on the tick, after it.
    let kit = try #require(
      try StreetSoccer.checkedInput(
        from: [
          "type": "kit", "side": "home", "shirt": "#d00000", "shorts": "#ffffff",
          "pattern": "plain", "patternColor": "#d00000",
        ], sentBy: .controller))
    _ = session.send(.input(kit))
    _ = handler.handle(Bench.plan, from: socket)
    #expect(limiter.count(of: client) == 1)
    session.advance(now: 1, budget: SessionBudget())
    #expect(limiter.count(of: client) == 0)
    handler.closed(socket, code: WebSocketCloseCode?.none, reason: "")
  }
}
