import Dispatch
import HTTP
import Logging
import Synchronization
import Testing

@testable import Server

/// Responses held back by `/hold/...` until a test lets them go.
private let held = Mutex<[PendingResponse]>([])
/// Responses of `/abandon/...`, never answered: tests close their connections.
private let abandonable = Mutex<[PendingResponse]>([])
/// How many `/big/...` requests were answered.
private let bigAnswers = Atomic<Int>(0)
/// A `/gate/...` request signals `gateEntered`, then holds its event loop until the test
/// signals `gateOpen`.
private let gateEntered = DispatchSemaphore(value: 0)
private let gateOpen = DispatchSemaphore(value: 0)
/// The paths of `/turns/...` requests, in the order the handler got them.
private let turnsOrder = Mutex<[String]>([])

/// Answers `/echo/...` with the path, `/later/...` from another thread after a pause,
/// `/hold/...` only when the test says, `/big/N` with N bytes, and anything else with 404.
private struct TestHandler: HTTPHandler {
  func handle(_ request: Request, context: RequestContext) -> Reply {
    let path = String(request.path)
    if path.hasPrefix("/hold/") {
      let pending = PendingResponse()
      held.withLock { $0.append(pending) }
      return .later(pending)
    }
    if path.hasPrefix("/gate/") {
      gateEntered.signal()
      _ = gateOpen.wait(timeout: .now() + .seconds(20))
      return .response(Response(contentType: "text/plain", body: path))
    }
    if path.hasPrefix("/turns/") {
      turnsOrder.withLock { $0.append(path) }
      return .response(Response(contentType: "text/plain", body: path))
    }
    if path.hasPrefix("/abandon/") {
      let pending = PendingResponse()
      abandonable.withLock { $0.append(pending) }
      return .later(pending)
    }
    if path.hasPrefix("/later/") {
      let pending = PendingResponse()
      DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
        pending.succeed(Response(contentType: "text/plain", body: path))
      }
      return .later(pending)
    }
    if path.hasPrefix("/big/"), let size = Int(path.dropFirst(5)) {
      bigAnswers.add(1, ordering: .relaxed)
      return .response(Response(contentType: "application/octet-stream", body: bigBody(size)))
    }
    if path.hasPrefix("/echo/") {
      return .response(
        Response(
          contentType: "text/plain",
          body: path + " " + String(decoding: request.body, as: UTF8.self)))
    }
    return .response(HTTPError(.notFound, "no \(path)").response)
  }
}

/// `size` bytes of `x` ending in `.end`, quick to make even in a debug build.
private func bigBody(_ size: Int) -> [UInt8] {
  Array(repeating: UInt8(ascii: "x"), count: size - 4) + Array(".end".utf8)
}

/// A server on a free port for one test, stopped at the end.
private func withServer(
  _ configuration: HTTPServer.Configuration = testConfiguration(),
  _ body: (HTTPServer) throws -> Void
) throws {
  let server = try HTTPServer(
    configuration: configuration, handler: TestHandler(), logger: Logger(label: "test"))
  defer { server.stop() }
  try body(server)
}

/// Port 0, two loops, a short grace on stop.
private func testConfiguration(_ change: (inout HTTPServer.Configuration) -> Void = { _ in })
  -> HTTPServer.Configuration
{
  var configuration = HTTPServer.Configuration()
  configuration.port = 0
  configuration.eventLoops = 2
  configuration.shutdownGrace = .milliseconds(500)
  change(&configuration)
  return configuration
}

private func get(_ path: String, _ extra: String = "") -> String {
  "GET \(path) HTTP/1.1\r\nHost: test\r\n\(extra)\r\n"
}

@Suite struct HTTPServerTests {
  @Test func answersOverARealSocket() throws {
    try withServer { server in
      #expect(server.port > 0)
      let client = try TestClient(port: server.port)
      try client.send(get("/echo/hello"))
      let reply = try client.read()
      #expect(reply.status == 200)
      #expect(reply.text == "/echo/hello ")
      #expect(reply.header("Connection") == "keep-alive")
      #expect(reply.header("Date")?.hasSuffix("GMT") == true)
    }
  }

  /// One address's pipelined requests are charged to its read budget, as a WebSocket's
  /// messages are: past its 4 requests a turn, the rest wait, and another address's request
  /// that arrived meanwhile is handled in the next turn, not after the whole pipeline. A trusted
  /// proxy's connections carry many clients: each is read on a budget of its own, so another
  /// connection of the proxy is not held behind the flood either; two connections of one
  /// address that is no proxy share theirs, and the second waits for the whole pipeline.
  @Test func pipelinedRequestsOfOneAddressTakeTurnsWithAnotherAddress() throws {
    // NB: one test, the cases one after the other: they share the gate and the order.
    #expect(try placeOfAnotherRequest(from: "127.0.0.2") == 7, "another address: after a1-a7")
    #expect(
      try placeOfAnotherRequest(from: "127.0.0.1", trustedProxy: "127.0.0.1") == 7,
      "another connection of a trusted proxy: after a1-a7")
    #expect(
      try placeOfAnotherRequest(from: "127.0.0.1") == 100,
      "another connection of the same address: after the whole pipeline")
  }

  /// Where among the handled `/turns/` requests another connection's request (from `source`)
  /// comes, sent while a 100-request pipeline of 127.0.0.1 waits behind a held gate, with a
  /// budget of 4 requests a turn on one loop.
  private func placeOfAnotherRequest(from source: String, trustedProxy: String? = nil) throws
    -> Int?
  {
    turnsOrder.withLock { $0 = [] }
    let configuration = testConfiguration {
      $0.eventLoops = 1
      $0.readBudget = ReadBudget(bytes: 32 << 10, messages: 4)
      $0.addressGrouping = AddressGrouping(trustedProxies: trustedProxy.map { [$0] } ?? [])
    }
    var place: Int?
    try withServer(configuration) { server in
      let flood = try TestClient(port: server.port)
      let other = try TestClient(port: server.port, source: source)
      for client in [flood, other] {
        try client.send(get("/echo/accepted"))
        _ = try client.read()
      }
      // The loop reads the whole pipeline at once; its first request holds the loop until the
      // other connection's request is in the server's socket.
      let pipeline = (1...100).map { get("/turns/a\($0)") }.joined()
      try flood.send(get("/gate/0") + pipeline)
      #expect(gateEntered.wait(timeout: .now() + .seconds(20)) == .success)
      try other.send(get("/turns/b"))
      #expect(other.waitUntilReceived())
      gateOpen.signal()
      let texts = try (0...100).map { _ in try flood.read().text }
      #expect(try other.read().text == "/turns/b")
      #expect(texts == ["/gate/0"] + (1...100).map { "/turns/a\($0)" })
      // Turn 1: the gate and a1-a3 (4 requests), a4 held. Turn 2: a4-a7 first (the held
      // connection goes first), then the other connection's b if its budget has room.
      let order = turnsOrder.withLock { $0 }
      #expect(order.filter { $0 != "/turns/b" } == (1...100).map { "/turns/a\($0)" })
      place = order.firstIndex(of: "/turns/b")
    }
    return place
  }

  @Test func pipelinedRequestsComeBackInOrderEvenWhenSomeAreLate() throws {
    try withServer { server in
      let client = try TestClient(port: server.port)
      try client.send(get("/later/1") + get("/echo/2") + get("/later/3") + get("/echo/4"))
      let texts = try (0..<4).map { _ in try client.read().text }
      #expect(texts == ["/later/1", "/echo/2 ", "/later/3", "/echo/4 "])
    }
  }

  @Test func bodiesOfBothFramingsReachTheHandler() throws {
    try withServer { server in
      let client = try TestClient(port: server.port)
      try client.send("POST /echo/a HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello")
      #expect(try client.read().text == "/echo/a hello")
      try client.send(
        "POST /echo/b HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
      )
      #expect(try client.read().text == "/echo/b abc")
    }
  }

  @Test func expectContinueIsAnsweredBeforeTheBody() throws {
    try withServer { server in
      let client = try TestClient(port: server.port)
      try client.send(
        "POST /echo/c HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n")
      #expect(try client.read().status == 100)
      try client.send("hi")
      #expect(try client.read().text == "/echo/c hi")
    }
  }

  @Test func aBadRequestGets400AndTheConnectionCloses() throws {
    try withServer { server in
      let client = try TestClient(port: server.port)
      try client.send("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
      #expect(try client.read().status == 400)
      #expect(client.isClosed(within: 5))
      let other = try TestClient(port: server.port)
      try other.send(get("/echo/still"))
      #expect(try other.read().status == 200)
    }
  }

  @Test func connectionsBeyondTheLimitGet503() throws {
    try withServer(testConfiguration { $0.maxConnections = 2 }) { server in
      let first = try TestClient(port: server.port)
      let second = try TestClient(port: server.port)
      for client in [first, second] {
        try client.send(get("/echo/x"))
        #expect(try client.read().status == 200)
      }
      let third = try TestClient(port: server.port)
      #expect(try third.read().status == 503)
      #expect(third.isClosed(within: 5))
    }
  }

  @Test func anUnfinishedHeadTimesOutWith408() throws {
    try withServer(testConfiguration { $0.http.headerTimeout = .milliseconds(200) }) { server in
      let client = try TestClient(port: server.port)
      try client.send("GET /echo/x HTTP/1.1\r\nHost: t\r\n")
      #expect(try client.read().status == 408)
      #expect(client.isClosed(within: 5))
    }
  }

  @Test func anIdleKeptAliveConnectionIsClosed() throws {
    try withServer(testConfiguration { $0.http.idleTimeout = .milliseconds(200) }) { server in
      let client = try TestClient(port: server.port)
      try client.send(get("/echo/x"))
      #expect(try client.read().status == 200)
      #expect(client.isClosed(within: 5))
      #expect(waitUntil { server.connectionCount == 0 })
    }
  }

  @Test func aLargeBodyArrivesWholeThroughASmallWindow() throws {
    try withServer { server in
      let client = try TestClient(port: server.port, receiveBuffer: 4096)
      try client.send(get("/big/3000000") + get("/echo/after"))
      let reply = try client.read()
      #expect(reply.body.count == 3_000_000)
      #expect(reply.body == bigBody(3_000_000))
      #expect(try client.read().text == "/echo/after ")
    }
  }

  @Test func aPeerThatNeverReadsIsDroppedAfterTheSendTimeout() throws {
    try withServer(testConfiguration { $0.http.sendTimeout = .milliseconds(300) }) { server in
      let client = try TestClient(port: server.port, receiveBuffer: 4096)
      try client.send(get("/big/16000000"))
      #expect(waitUntil { server.connectionCount == 1 })
      #expect(waitUntil(seconds: 10) { server.connectionCount == 0 })
    }
  }

  @Test func aPeerThatPipelinesButNeverReadsGetsNoMoreAnswersQueued() throws {
    try withServer(testConfiguration { $0.http.sendTimeout = .seconds(2) }) { server in
      let before = bigAnswers.load(ordering: .relaxed)
      let client = try TestClient(port: server.port, receiveBuffer: 4096)
      try client.send(String(repeating: get("/big/1000000"), count: 200))
      #expect(waitUntil { bigAnswers.load(ordering: .relaxed) > before })
      usleep(300_000)
      let answered = bigAnswers.load(ordering: .relaxed) - before
      #expect(answered < 10, "\(answered) answers of 1 MB queued for a peer that reads nothing")
      #expect(waitUntil(seconds: 10) { server.connectionCount == 0 })
    }
  }

  /// What an address's connections queue for peers that do not read counts together, HTTP as
  /// well as WebSocket: past the bound, its next request waits before the handler sees it,
  /// until the peers read or go. Another address is not held back.
  @Test func anAddressWhosePeersDoNotReadWaitsBeforeItsNextRequest() throws {
    try withServer(testConfiguration { $0.maxQueuedBytesPerAddress = 1 << 20 }) { server in
      let stalled = try TestClient(port: server.port, receiveBuffer: 4096)
      try stalled.send(get("/big/16000000"))
      #expect(waitUntil(seconds: 20) { server.queuedBytes > 1 << 20 })
      let waiting = try TestClient(port: server.port)
      try waiting.send(get("/echo/waits"))
      #expect(waitUntil(seconds: 20) { server.requestsWaitingForReaders == 1 })
      let other = try TestClient(port: server.port, source: "127.0.0.2")
      try other.send(get("/echo/other"))
      #expect(try other.read(seconds: 20).text == "/echo/other ")
      #expect(server.requestsWaitingForReaders == 1, "still waiting: nothing was read")
      stalled.reset()
      #expect(try waiting.read(seconds: 20).text == "/echo/waits ")
      #expect(waitUntil(seconds: 20) { server.queuedBytes == 0 })
      #expect(server.requestsWaitingForReaders == 0)
    }
  }

  @Test func aResetWhileReadingIsPausedClosesAtOnce() throws {
    try withServer(testConfiguration { $0.http.maxBuffered = 1024 }) { server in
      let client = try TestClient(port: server.port)
      try client.send(get("/hold/1") + String(repeating: get("/echo/piled"), count: 100))
      #expect(waitUntil { held.withLock { !$0.isEmpty } })
      client.reset()
      #expect(waitUntil { server.connectionCount == 0 }, "closed without waiting for the answer")
      for pending in held.withLock({ $0 }) { pending.succeed(Response(status: .ok)) }
    }
  }

  /// Issue 22, finding 5: the work behind an answer may stop when its client goes away, by a
  /// close (end of file) or a reset.
  @Test func aClientThatGoesAwayAbandonsItsPendingAnswer() throws {
    try withServer { server in
      for ending in ["close", "reset"] {
        var client: TestClient? = try TestClient(port: server.port)
        try client!.send(get("/abandon/\(ending)"))
        #expect(waitUntil { abandonable.withLock { $0.count } == (ending == "close" ? 1 : 2) })
        let pending = abandonable.withLock { $0.last! }
        #expect(!pending.isAbandoned)
        if ending == "reset" { client!.reset() }
        client = nil
        #expect(waitUntil { pending.isAbandoned }, "\(ending)")
        pending.succeed(Response(status: .ok))
      }
    }
  }

  @Test func connectionsAreSpreadOverTheLoops() throws {
    try withServer(testConfiguration { $0.eventLoops = 3 }) { server in
      // One at a time, each answered before the next connects: two loops accepting at the same
      // moment may both pick the same least-loaded loop, which is fine, but not what this checks.
      var clients: [TestClient] = []
      for _ in 0..<12 {
        let client = try TestClient(port: server.port)
        try client.send(get("/echo/x"))
        #expect(try client.read().status == 200)
        clients.append(client)
      }
      #expect(server.loopConnectionCounts == [4, 4, 4])
    }
  }

  @Test func tasksThatKeepComingNeverStarveTheSockets() throws {
    // A loop handed tasks faster than it runs them (frames to thousands of sockets on a
    // saturated machine) must still accept, read and answer between them.
    try withServer(testConfiguration { $0.eventLoops = 1 }) { server in
      let loop = server.loops[0]
      let storming = Atomic<Bool>(true)
      @Sendable func storm() {
        guard storming.load(ordering: .relaxed) else { return }
        loop.execute { storm() }
      }
      defer { storming.store(false, ordering: .relaxed) }
      loop.execute { storm() }
      let client = try TestClient(port: server.port)
      try client.send(get("/echo/through"))
      let reply = try client.read(seconds: 5)
      #expect(reply.status == 200)
      #expect(reply.text == "/echo/through ")
    }
  }

  @Test func stopClosesIdleConnections() throws {
    var configuration = HTTPServer.Configuration()
    configuration.port = 0
    let server = try HTTPServer(
      configuration: configuration, handler: TestHandler(), logger: Logger(label: "test"))
    let client = try TestClient(port: server.port)
    try client.send(get("/echo/x"))
    #expect(try client.read().status == 200)
    server.stop()
    #expect(client.isClosed(within: 5))
    #expect(server.connectionCount == 0)
  }
}

/// Polls `condition` until it holds or `seconds` pass.
private func waitUntil(seconds: Double = 5, _ condition: () -> Bool) -> Bool {
  let deadline = DispatchTime.now() + seconds
  while DispatchTime.now() < deadline {
    if condition() { return true }
    usleep(10_000)
  }
  return condition()
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
