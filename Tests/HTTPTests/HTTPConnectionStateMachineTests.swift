import TestSupport
import Testing

@testable import HTTP

/// A connection driven step by step with a manual clock; actions are read back as short words.
private struct Driver {
  var machine: HTTPConnectionStateMachine
  var now = MonotonicTime(nanoseconds: 1_000_000_000)

  init(_ configure: (inout HTTPConnectionStateMachine.Configuration) -> Void = { _ in }) {
    var configuration = HTTPConnectionStateMachine.Configuration()
    configure(&configuration)
    machine = HTTPConnectionStateMachine(configuration: configuration, now: now)
  }

  mutating func advance(_ duration: Duration) {
    now = now + duration
  }

  mutating func receive(_ text: String) -> [String] {
    Array(text.utf8).withUnsafeBytes { machine.received($0, now: now) }
    return drain()
  }

  mutating func respond(_ response: Response = Response(status: .ok, body: Array("ok".utf8)))
    -> [String]
  {
    machine.respond(response, now: now)
    return drain()
  }

  mutating func timer() -> [String] {
    machine.timerFired(now: now)
    return drain()
  }

  mutating func peerClosed() -> [String] {
    machine.peerClosed(now: now)
    return drain()
  }

  mutating func drain() -> [String] {
    var words: [String] = []
    while let action = machine.nextAction() { words.append(Self.word(action)) }
    return words
  }

  static func word(_ action: HTTPConnectionStateMachine.Action) -> String {
    switch action {
    case .dispatch(let request):
      "dispatch \(request.method) \(request.target)"
    case .send(let response, let omitBody, let keepAlive):
      "send \(response.status.code)"
        + (keepAlive.map { $0 ? " keep-alive" : " close" } ?? "") + (omitBody ? " no-body" : "")
    case .sendContinue: "continue"
    case .close: "close"
    case .closeLingering: "close-lingering"
    case .abort: "abort"
    case .upgrade(let leftover): "upgrade \(String(decoding: leftover, as: UTF8.self))"
    }
  }
}

private func get(_ path: String, _ extra: String = "") -> String {
  "GET \(path) HTTP/1.1\r\nHost: a\r\n\(extra)\r\n"
}

@Suite struct HTTPConnectionStateMachineTests {
  @Test func servesARequestAndWaitsForTheNext() {
    var d = Driver()
    #expect(d.machine.isIdle)
    #expect(d.receive(get("/a")) == ["dispatch GET /a"])
    #expect(!d.machine.isIdle)
    #expect(d.machine.deadline == nil, "no timer while the application has the request")
    #expect(d.respond() == ["send 200 keep-alive"])
    #expect(d.machine.isIdle)
    #expect(d.machine.deadline == d.now + .seconds(15))
    #expect(d.receive(get("/b")) == ["dispatch GET /b"])
    #expect(d.respond() == ["send 200 keep-alive"])
  }

  @Test func pipelinedRequestsAreAnsweredInOrderOneAtATime() {
    var d = Driver()
    #expect(d.receive(get("/1") + get("/2") + get("/3")) == ["dispatch GET /1"])
    #expect(d.respond() == ["send 200 keep-alive", "dispatch GET /2"])
    #expect(d.respond() == ["send 200 keep-alive", "dispatch GET /3"])
    #expect(d.respond() == ["send 200 keep-alive"])
    #expect(d.machine.isIdle)
  }

  @Test func aHeadArrivingByteByByteIsDispatchedOnce() {
    var d = Driver()
    var words: [String] = []
    for byte in get("/slow") { words += d.receive(String(byte)) }
    #expect(words == ["dispatch GET /slow"])
  }

  @Test func headAndNotModifiedAnswersHaveNoBody() {
    var d = Driver()
    #expect(d.receive("HEAD /h HTTP/1.1\r\nHost: a\r\n\r\n") == ["dispatch HEAD /h"])
    #expect(d.respond() == ["send 200 keep-alive no-body"])
    #expect(d.receive(get("/c")) == ["dispatch GET /c"])
    #expect(d.respond(Response(status: .notModified)) == ["send 304 keep-alive no-body"])
  }

  @Test func connectionCloseLingersThenCloses() {
    var d = Driver()
    #expect(d.receive(get("/", "Connection: close\r\n")) == ["dispatch GET /"])
    #expect(d.respond() == ["send 200 close", "close-lingering"])
    #expect(d.machine.wantsInput, "lingering drains input")
    #expect(d.receive(get("/ignored")) == [])
    d.advance(.milliseconds(4999))
    #expect(d.timer() == [])
    d.advance(.milliseconds(1))
    #expect(d.timer() == ["close"])
    #expect(d.machine.isClosed)
  }

  @Test func lingeringEndsWhenThePeerCloses() {
    var d = Driver()
    #expect(d.receive("BAD\u{1} / HTTP/1.1\r\n") == ["send 400 close", "close-lingering"])
    #expect(d.peerClosed() == ["close"])
  }

  @Test func http10ClosesUnlessAskedToKeepAlive() {
    var d = Driver()
    #expect(d.receive("GET / HTTP/1.0\r\n\r\n") == ["dispatch GET /"])
    #expect(d.respond() == ["send 200 close", "close-lingering"])
    var kept = Driver()
    #expect(kept.receive("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n") == ["dispatch GET /"])
    #expect(kept.respond() == ["send 200 keep-alive"])
  }

  @Test func aResponseMayEndTheConnection() {
    var d = Driver()
    _ = d.receive(get("/") + get("/next"))
    let closing = Response(status: .ok, headers: ["Connection": "close"])
    #expect(d.respond(closing) == ["send 200 close", "close-lingering"])
  }

  @Test func aPreparedResponseMayEndTheConnectionToo() {
    var prepared = Response(status: .ok, headers: ["Connection": "close"])
    prepared.prepare()
    var d = Driver()
    _ = d.receive(get("/"))
    #expect(d.respond(prepared) == ["send 200 close", "close-lingering"])

    var keeping = Response(status: .ok, headers: ["ETag": "\"x\""])
    keeping.prepare()
    var e = Driver()
    _ = e.receive(get("/"))
    #expect(e.respond(keeping) == ["send 200 keep-alive"])
    // A change after `prepare()` counts, as it does for the bytes sent.
    keeping.headers.add("Connection", "close")
    _ = e.receive(get("/"))
    #expect(e.respond(keeping) == ["send 200 close", "close-lingering"])
  }

  @Test func maxRequestsEndsTheConnection() {
    var d = Driver { $0.maxRequests = 2 }
    _ = d.receive(get("/1"))
    #expect(d.respond() == ["send 200 keep-alive"])
    _ = d.receive(get("/2"))
    #expect(d.respond() == ["send 200 close", "close-lingering"])
  }

  @Test func aBadRequestInAPipelineEndsItAfterTheGoodOnes() {
    var d = Driver()
    #expect(
      d.receive(get("/ok") + "GET / HTTP/1.1\r\nHost: a b\r\n\r\n" + get("/never")) == [
        "dispatch GET /ok"
      ])
    #expect(d.respond() == ["send 200 keep-alive", "send 400 close", "close-lingering"])
  }

  @Test func silentConnectionIsClosedWithoutAnAnswer() {
    var d = Driver()
    #expect(d.machine.nextDeadline == d.now + .seconds(10))
    d.advance(.seconds(10))
    #expect(d.timer() == ["close"])
  }

  @Test func unfinishedHeadTimesOutWith408() {
    var d = Driver()
    let accepted = d.now
    d.advance(.seconds(3))
    #expect(d.receive("GET / HTTP/1.1\r\n") == [])
    #expect(d.machine.deadline == accepted + .seconds(10), "a new connection is timed from accept")
    d.advance(.seconds(6))
    #expect(d.timer() == [])
    d.advance(.seconds(1))
    #expect(d.timer() == ["send 408 close", "close-lingering"])
  }

  @Test func theNextRequestIsTimedFromItsFirstByte() {
    var d = Driver()
    _ = d.receive(get("/1"))
    _ = d.respond()
    d.advance(.seconds(12))
    #expect(d.receive("GET /2 HTTP/1.1\r\n") == [])
    #expect(d.machine.deadline == d.now + .seconds(10))
  }

  @Test func dribblingBytesDoNotMoveTheDeadline() {
    var d = Driver()
    let start = d.now
    #expect(d.receive("G") == [])
    for byte in "ET / HTTP/1.1\r\nX-Slow: aaaaa" {
      d.advance(.milliseconds(300))
      #expect(d.receive(String(byte)) == [])
    }
    #expect(d.machine.deadline == start + .seconds(10))
    d.now = start + .seconds(10)
    #expect(d.timer() == ["send 408 close", "close-lingering"])
  }

  @Test func keptAliveConnectionIdlesOutSilently() {
    var d = Driver { $0.idleTimeout = .seconds(5) }
    _ = d.receive(get("/"))
    _ = d.respond()
    d.advance(.seconds(5))
    #expect(d.timer() == ["close"])
  }

  @Test func bodyHasItsOwnTimeout() {
    var d = Driver { $0.bodyTimeout = .seconds(4) }
    #expect(d.receive("POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nhello") == [])
    #expect(d.machine.deadline == d.now + .seconds(4))
    d.advance(.seconds(3))
    #expect(d.receive("wor") == [])
    d.advance(.seconds(1))
    #expect(d.timer() == ["send 408 close", "close-lingering"])
  }

  @Test func expectContinueGetsAnInterimAnswer() {
    var d = Driver()
    let head = "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n"
    #expect(d.receive(head) == ["continue"])
    #expect(d.receive("hi") == ["dispatch POST /p"])
  }

  @Test func readingPausesWhileAResponseIsPendingAndInputPilesUp() {
    var d = Driver { $0.maxBuffered = 100 }
    #expect(d.receive(get("/slow")) == ["dispatch GET /slow"])
    #expect(d.machine.wantsInput)
    let next = get("/next", "X-Pad: " + String(repeating: "p", count: 120) + "\r\n")
    #expect(d.receive(next) == [])
    #expect(!d.machine.wantsInput)
    #expect(d.respond() == ["send 200 keep-alive", "dispatch GET /next"])
    #expect(d.machine.wantsInput)
  }

  @Test func peerHalfCloseStillGetsItsAnswers() {
    var d = Driver()
    #expect(d.receive(get("/1") + get("/2")) == ["dispatch GET /1"])
    #expect(d.peerClosed() == [])
    #expect(d.respond() == ["send 200 keep-alive", "dispatch GET /2"])
    #expect(d.respond() == ["send 200 close", "close"])
  }

  @Test func peerCloseWithAnUnfinishedRequestCloses() {
    var d = Driver()
    #expect(d.receive("GET / HTTP/1.1\r\nHo") == [])
    #expect(d.peerClosed() == ["close"])
    #expect(!d.machine.wantsInput)
  }

  @Test func peerCloseAfterAResponseLeavesNothingToAnswer() {
    var d = Driver()
    _ = d.receive(get("/1") + "GET /2 HT")
    _ = d.peerClosed()
    #expect(d.respond() == ["send 200 keep-alive", "close"])
  }

  @Test func upgradeHandsOverTheUnreadBytes() {
    var d = Driver()
    #expect(d.receive(get("/ws") + "frame") == ["dispatch GET /ws"])
    let switching = Response(status: .switchingProtocols, headers: ["Connection": "Upgrade"])
    #expect(d.respond(switching) == ["send 101 no-body", "upgrade frame"])
    #expect(!d.machine.wantsInput)
    #expect(d.machine.nextDeadline == nil)
  }

  @Test func stalledOutputIsDroppedAfterTheSendTimeout() {
    var d = Driver { $0.sendTimeout = .seconds(7) }
    _ = d.receive(get("/big"))
    _ = d.respond()
    let blocked = d.now
    d.machine.outputBlocked(now: d.now)
    d.advance(.seconds(3))
    d.machine.outputBlocked(now: d.now)
    #expect(d.machine.writeDeadline == blocked + .seconds(7), "it does not restart")
    d.machine.outputDrained(now: d.now)
    #expect(d.machine.writeDeadline == nil)
    d.machine.outputBlocked(now: d.now)
    d.advance(.seconds(7))
    #expect(d.timer() == ["abort"])
    #expect(d.machine.isClosed)
  }

  @Test func pipelinedRequestsWaitWhileOutputIsStuck() {
    // A peer that sends requests but reads no answers must not make us queue answers forever.
    var d = Driver()
    #expect(d.receive(get("/1") + get("/2") + get("/3")) == ["dispatch GET /1"])
    d.machine.outputBlocked(now: d.now)
    #expect(!d.machine.wantsInput)
    #expect(d.respond() == ["send 200 keep-alive"])
    #expect(d.machine.nextDeadline == d.now + .seconds(30), "only the send timeout runs")
    #expect(d.receive(get("/4")) == [])
    d.advance(.seconds(1))
    d.machine.outputDrained(now: d.now)
    #expect(d.drain() == ["dispatch GET /2"])
    #expect(d.machine.wantsInput)
    #expect(d.respond() == ["send 200 keep-alive", "dispatch GET /3"])
    #expect(d.respond() == ["send 200 keep-alive", "dispatch GET /4"])
  }

  @Test func drainingWithNothingHeldRestartsTheIdleClock() {
    var d = Driver()
    _ = d.receive(get("/1"))
    d.machine.outputBlocked(now: d.now)
    _ = d.respond()
    d.advance(.seconds(20))
    d.machine.outputDrained(now: d.now)
    #expect(d.drain() == [])
    #expect(d.machine.nextDeadline == d.now + .seconds(15))
  }

  @Test func nextDeadlineIsTheEarlierOfTheTwo() {
    var d = Driver { $0.sendTimeout = .seconds(2) }
    _ = d.receive(get("/"))
    _ = d.respond()
    #expect(d.machine.nextDeadline == d.now + .seconds(15))
    d.machine.outputBlocked(now: d.now)
    #expect(d.machine.nextDeadline == d.now + .seconds(2))
  }

  @Test func shutdownClosesIdleConnectionsAtOnce() {
    var d = Driver()
    d.machine.shutDown(now: d.now)
    #expect(d.drain() == ["close"])
  }

  @Test func shutdownLetsTheRequestInFlightFinish() {
    var d = Driver()
    _ = d.receive(get("/busy"))
    d.machine.shutDown(now: d.now)
    #expect(d.drain() == [])
    #expect(d.respond() == ["send 200 close", "close-lingering"])
  }

  @Test func responsesToUnknownStatesAreIgnored() {
    var d = Driver()
    #expect(d.respond() == [], "nothing was dispatched")
    _ = d.receive("junk\u{0}\r\n")
    #expect(d.respond() == [])
  }

  /// Property: whatever arrives, in whatever pieces, with timers and stalls between, requests
  /// are dispatched one at a time, each answered once, and nothing is dispatched after a close.
  @Test func randomInputKeepsTheRulesOfTheConnection() {
    var generator = SplitMix64(seed: 2026)
    let pieces = [
      get("/a"), "HEAD /h HTTP/1.1\r\nHost: a\r\n\r\n",
      "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc",
      "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nx",
      "GET / HTTP/1.0\r\n\r\n", "\r\n", "junk\u{0}\r\n", "GET / HTTP/1.1\r\nHo",
    ]
    for _ in 0..<300 {
      var d = Driver { $0.maxBuffered = 256 }
      var outstanding = 0
      var ended = false
      for _ in 0..<Int(generator.next() % 12) {
        var words: [String] = []
        switch generator.next() % 6 {
        case 0, 1, 2:
          let text = pieces[Int(generator.next() % UInt64(pieces.count))]
          let cut = Int(generator.next() % UInt64(text.utf8.count + 1))
          words =
            d.receive(String(text.utf8.prefix(cut))!) + d.receive(String(text.utf8.dropFirst(cut))!)
        case 3:
          words = d.respond()
        case 4:
          d.advance(.seconds(Int64(generator.next() % 40)))
          words = d.timer()
        default:
          if generator.next() % 2 == 0 {
            d.machine.outputBlocked(now: d.now)
          } else {
            d.machine.outputDrained(now: d.now)
          }
          words = d.drain()
        }
        for word in words {
          if word.hasPrefix("dispatch") {
            #expect(!ended, "dispatched after the connection ended")
            #expect(outstanding == 0, "two requests with the application at once")
            outstanding += 1
          }
          if word.hasPrefix("send") && !word.hasPrefix("send 4") { outstanding -= 1 }
          if word == "close" || word == "close-lingering" || word == "abort" { ended = true }
        }
        #expect(outstanding >= 0, "an answer without a request")
      }
    }
  }
}
