import Dispatch
import HTTP
import Synchronization
import Testing

@testable import Playfield
@testable import Server

/// Computations that wait until the test lets each one go (radius 9 never waits), recording
/// the radii in the order they ran.
private final class Gate: Sendable {
  let release = DispatchSemaphore(value: 0)
  let order = Mutex<[Double]>([])
  let now = Mutex(0.0)

  func api(_ limits: Spheres.Limits) -> Spheres {
    makeSpheres(
      limits: limits, clock: { self.now.withLock { $0 } },
      encoder: { key, _, _ in
        if key.request.radius != 9 { self.release.wait() }
        self.order.withLock { $0.append(key.request.radius) }
        return Array("r\(key.request.radius)".utf8)
      })
  }
}

private func ask(_ api: Spheres, radius: Int, level: Int = 10, client: String) -> Reply {
  let request = Request(
    method: .get, target: "/api/spheres/\(radius)/\(level)", headers: ["Host": "test"])
  return api.respond(
    to: request, path: [String(radius), String(level)], client: ClientKey(address: client))
}

/// The response now, or nil when it will come later.
private func now(_ reply: Reply) -> Response? { reply.now }

/// The response, waiting for one that comes later.
private func eventually(_ reply: Reply) -> Response { reply.eventually() }

@Suite("Sphere computations wait their turn")
struct SphereQueueTests {
  @Test("a client over its share gets 429, others take turns, cached bodies never wait")
  func turnsAndShares() throws {
    let gate = Gate()
    let api = gate.api(.init(running: 1, waiting: 8, perClient: 3, deadline: 30))
    // A body client b will ask for again, computed and cached first.
    #expect(eventually(ask(api, radius: 9, client: "b")).status == .ok)

    let a1 = ask(api, radius: 1, client: "a")
    let a2 = ask(api, radius: 2, client: "a")
    let a3 = ask(api, radius: 3, client: "a")
    #expect(now(a1) == nil && now(a2) == nil && now(a3) == nil)
    let over = try #require(now(ask(api, radius: 4, client: "a")))
    #expect(over.status == .tooManyRequests)
    #expect(over.headers["Retry-After"] == "1")
    #expect(String(decoding: over.body, as: UTF8.self).contains("too many sphere packings"))

    let b5 = ask(api, radius: 5, client: "b")
    #expect(now(b5) == nil, "another client waits its turn, it is not refused")
    let cached = try #require(now(ask(api, radius: 9, client: "b")), "a cached body never waits")
    #expect(cached.status == .ok && cached.body == Array("r9.0".utf8))

    for _ in 0..<4 { gate.release.signal() }
    for reply in [a1, a2, a3, b5] { #expect(eventually(reply).status == .ok) }
    // a's first was running; then a and b alternate: b's one comes before a's third.
    #expect(gate.order.withLock { $0 } == [9, 1, 2, 5, 3])
  }

  @Test("a full queue, or a wait past the deadline, gets 503 with Retry-After")
  func fullAndLate() throws {
    let gate = Gate()
    let api = gate.api(.init(running: 1, waiting: 1, perClient: 4, deadline: 30))
    let running = ask(api, radius: 1, client: "a")
    let waiting = ask(api, radius: 2, client: "b")
    let full = try #require(now(ask(api, radius: 3, client: "c")))
    #expect(full.status == .serviceUnavailable)
    #expect(Int(full.headers["Retry-After"] ?? "") ?? 0 >= 1)

    gate.now.withLock { $0 = 31 }
    gate.release.signal()
    #expect(eventually(running).status == .ok)
    let late = eventually(waiting)
    #expect(late.status == .serviceUnavailable)
    #expect(late.headers["Retry-After"] != nil && late.headers["Cache-Control"] == "no-store")
    #expect(gate.order.withLock { $0 } == [1])
  }

  @Test("bad requests are refused before they queue")
  func badRequestsDoNotQueue() throws {
    let gate = Gate()
    let api = gate.api(.init(running: 1, waiting: 1, perClient: 1, deadline: 30))
    let bad = try #require(now(ask(api, radius: 1, level: 99, client: "a")))
    #expect(bad.status == .badRequest)
    // The client's one place is still free.
    let first = ask(api, radius: 1, client: "a")
    #expect(now(first) == nil)
    gate.release.signal()
    #expect(eventually(first).status == .ok)
  }
}
