import Foundation
import HTTP
import JSON
import Synchronization
import Testing

@testable import Playfield
@testable import Server

/// Replay states (`GET /api/sessions/ID/replay`) wait in a fair queue: one address's flood
/// waits behind itself, and another address's request is answered in its turn.
@Suite(.serialized) struct ReplayStatePlacesTests {
  private func ask(_ app: TestApplication, _ target: String, from address: String) -> Reply {
    let request = Request(method: .get, target: target, headers: HTTPHeaders())
    let context = RequestContext(remoteAddress: address, serverAddress: "127.0.0.1:80")
    return app.application.handle(request, context: context)
  }

  @Test("a flooding address waits behind itself; another address's replay state is answered")
  func floodWaitsBehindItself() throws {
    let app = try TestApplication {
      $0.limits[.replayStates] = 2
      $0.limits[.replayStatesPerClient] = 8
    }
    defer { app.shutdown() }
    let created = try app.json(.post, "/api/sessions", ["kind": "bouncing-balls"])
    let id = try #require(created["id"]?.stringValue)
    app.tick(300)
    app.application.registry.session(id)?.send(.stop)
    app.tick()
    // Who was answered, in order, and how.
    let answered = Mutex<[(who: String, status: Int)]>([])
    var refused: [Response] = []
    for tick in 200..<210 {
      switch ask(app, "/api/sessions/\(id)/replay?tick=\(tick)&from=start", from: "10.0.0.2") {
      case .later(let pending):
        pending.whenDone { response in
          answered.withLock { $0.append(("flood", Int(response.status.code))) }
        }
      case .response(let response):
        refused.append(response)
      case .webSocket:
        Issue.record("not a socket")
      }
    }
    // Two run, six wait (the client's share is eight), two are refused at once.
    #expect(refused.map(\.status.code) == [429, 429])
    #expect(refused.allSatisfy { $0.headers["Retry-After"] != nil })
    #expect(app.application.registry.refusals.all["replay-states-per-client"] == 2)
    guard case .later(let mine) = ask(app, "/api/sessions/\(id)/replay?tick=50", from: "10.0.0.3")
    else {
      Issue.record("the bystander's replay state was refused while another address flooded")
      return
    }
    mine.whenDone { response in
      answered.withLock { $0.append(("bystander", Int(response.status.code))) }
    }
    // NB: bounded by count of ticks, not time: each tick gives the scheduler a slice.
    for _ in 0..<20_000 where answered.withLock({ $0.count }) < 9 {
      app.tick()
      Thread.sleep(forTimeInterval: 0.001)
    }
    let order = answered.withLock { $0 }
    #expect(order.count == 9)
    #expect(order.allSatisfy { $0.status == 200 }, "\(order)")
    let turn = try #require(order.firstIndex { $0.who == "bystander" })
    // In first-come order it would follow all eight of the flood's; in turn, at most the two
    // that were running and the one whose turn came before the bystander's.
    #expect(turn <= 3, "\(order)")
  }
}
