import Dispatch
import HTTP
import Storage
import Testing

@testable import Playfield
@testable import Server

/// Requests that read or write the store are answered off the event loop, within bounds, and
/// charged to their clients.
@Suite struct StoreCallsTests {
  let alice = ClientKey(address: "10.0.0.1")
  let bob = ClientKey(address: "10.0.0.2")

  @Test func aCallIsAnsweredLaterAndAFullQueueGets503AtOnce() throws {
    let calls = StoreCalls(workers: 1, capacity: 1)
    let gate = DispatchSemaphore(value: 0)
    let first = calls.answer(client: alice) {
      gate.wait()
      return .response(Response(status: .ok, body: Array("listed".utf8)))
    }
    #expect(first.now == nil, "answered later, on a store worker")
    let second = calls.answer(client: bob) { .response(Response(status: .created)) }
    #expect(second.now == nil, "waits for the worker")
    #expect(calls.count == 2)

    let refused = try #require(calls.answer(client: bob) { .response(Response(status: .ok)) }.now)
    #expect(refused.status == .serviceUnavailable)
    #expect(refused.headers["Retry-After"] != nil)
    #expect(String(decoding: refused.body, as: UTF8.self).contains("--store-call-queue"))
    #expect(calls.run(client: bob, {}) != nil, "nothing more is taken while full")

    gate.signal()
    #expect(first.eventually().body == Array("listed".utf8))
    #expect(second.eventually().status == .created)
  }

  @Test func aClientOverItsShareGets429AndOthersStillGetTheirTurn() throws {
    let calls = StoreCalls(workers: 1, capacity: 16, perClient: 2)
    let gate = DispatchSemaphore(value: 0)
    let held = calls.answer(client: alice) {
      gate.wait()
      return .response(Response(status: .ok))
    }
    let waiting = calls.answer(client: alice) { .response(Response(status: .ok)) }
    let over = try #require(calls.answer(client: alice) { .response(Response(status: .ok)) }.now)
    #expect(over.status == .tooManyRequests)
    #expect(over.headers["Retry-After"] != nil)
    #expect(String(decoding: over.body, as: UTF8.self).contains("--store-calls-per-client"))
    let other = calls.answer(client: bob) { .response(Response(status: .created)) }
    #expect(other.now == nil, "another client is admitted")
    gate.signal()
    #expect(held.eventually().status == .ok)
    #expect(waiting.eventually().status == .ok)
    #expect(other.eventually().status == .created)
  }

  @Test func aCallThatFindsNoWorkerInTimeGets503WhileTheWorkerIsHeld() {
    let calls = StoreCalls(workers: 1, capacity: 4, wait: 0.2)
    let gate = DispatchSemaphore(value: 0)
    let stuck = calls.answer(client: alice) {
      gate.wait()  // a database that does not answer
      return .response(Response(status: .ok))
    }
    let late = calls.answer(client: bob) { .response(Response(status: .created)) }
    let answer = late.eventually(within: 30)
    #expect(answer.status == .serviceUnavailable, "refused by the clock, the worker still held")
    #expect(answer.headers["Retry-After"] != nil)
    #expect(String(decoding: answer.body, as: UTF8.self).contains("--store-call-wait"))
    gate.signal()
    #expect(stuck.eventually().status == .ok)
  }

  @Test func anAddressSendingBigPagesHoldsOneWorkerAndOthersAreAnsweredBesideIt() throws {
    let calls = StoreCalls(limits: Application.storeCallLimits(Limits()))
    let big = StoreCalls.estimate(bodyBytes: 1 << 20)
    let gate = DispatchSemaphore(value: 0)
    let starts = DispatchSemaphore(value: 0)
    let flood = (0..<3).map { index in
      calls.answer(client: alice, cost: big) {
        starts.signal()
        gate.wait()
        return .response(Response(status: .ok, body: Array("page \(index)".utf8)))
      }
    }
    #expect(flood.allSatisfy { $0.now == nil })
    // Bob's big page and his short calls are answered while Alice's first page is still read
    // and her others wait for her own worker.
    let page = calls.answer(client: bob, cost: big) { .response(Response(status: .created)) }
    #expect(page.eventually(within: 30).status == .created)
    for _ in 0..<3 {
      let listed = calls.answer(client: bob) { .response(Response(status: .ok)) }
      #expect(listed.eventually(within: 30).status == .ok)
    }
    #expect(starts.wait(timeout: .now() + 30) == .success, "Alice's first page is read")
    #expect(starts.wait(timeout: .now()) == .timedOut, "her others wait for her own worker")
    for _ in flood { gate.signal() }
    let bodies = flood.map { String(decoding: $0.eventually(within: 30).body, as: UTF8.self) }
    #expect(bodies == ["page 0", "page 1", "page 2"])
  }

  @Test func clientsAreToldTheHoldersShardOnly() {
    let owner = LeaseOwner.unique(shard: "b", serving: "http://10.0.0.5:9001")
    #expect(owner.hasPrefix("b@"))
    #expect(LeaseOwner.shard(of: owner) == "b")
    #expect(LeaseOwner.shard(of: LeaseOwner.unique(serving: "http://h:1")) == nil)
    #expect(LeaseOwner.shard(of: "web1/42/ab http://x@y:1") == nil, "an @ past the name is not one")
  }

  @Test func postgresFailuresAreToldByKindNotByAddress() {
    let error = PostgresError(
      sqlState: "08001",
      serverMessage: "connection to server at \"10.0.0.7\", port 5432 failed: Connection refused",
      context: "cannot connect to PostgreSQL at postgresql://playfield@10.0.0.7:5432/playfield")
    let told = APIError(storage: error).message
    #expect(told.contains("cannot be reached"))
    #expect(!told.contains("10.0.0.7") && !told.contains("5432"), "\(told)")
  }
}
