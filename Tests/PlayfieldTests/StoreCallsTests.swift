import Dispatch
import HTTP
import Testing

@testable import Playfield
@testable import Server

/// Requests that wait on a shared database are answered off the event loop, within a bound.
@Suite struct StoreCallsTests {
  @Test func aCallIsAnsweredLaterAndAFullQueueGets503AtOnce() throws {
    let calls = StoreCalls(workers: 1, capacity: 2)
    let gate = DispatchSemaphore(value: 0)
    let first = calls.answer {
      gate.wait()
      return .response(Response(status: .ok, body: Array("listed".utf8)))
    }
    #expect(first.now == nil, "answered later, on a store worker")
    let second = calls.answer { .response(Response(status: .created)) }
    #expect(second.now == nil)
    #expect(calls.count == 2)

    let refused = try #require(calls.answer { .response(Response(status: .ok)) }.now)
    #expect(refused.status == .serviceUnavailable)
    #expect(refused.headers["Retry-After"] == "1")
    #expect(!calls.run {}, "nothing more is taken while full")

    gate.signal()
    #expect(first.eventually().body == Array("listed".utf8))
    #expect(second.eventually().status == .created)
  }
}
