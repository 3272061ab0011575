import Dispatch
import Foundation
import HTTP
import Synchronization
import Testing
import Tiles

@testable import Playfield
@testable import Server

/// A value several threads share.
final class Shared<T: Sendable>: Sendable {
  let value: Mutex<T>
  init(_ value: T) { self.value = Mutex(value) }
  var now: T { value.withLock { $0 } }
}

/// A computation that runs until it is told to stop, counting how it ended.
struct Endless: ColdResource {
  let stopped: Shared<[RenderStopped]>
  let started: DispatchSemaphore
  let estimate: Double?

  var errorStyle: ErrorStyle { .text }
  var wording: ColdWording {
    ColdWording(
      tooManyFromClient: "too many", busy: "busy", failed: "not made", tooCostly: "costly")
  }

  func key(path: ArraySlice<String>, request: Request) throws(ColdResourceError) -> String {
    path.joined(separator: "/")
  }

  func headers(for key: String) -> HTTPHeaders { ["ETag": "\"\(key)\""] }

  func compute(_ key: String, work: inout ColdWork) throws -> [UInt8] {
    started.signal()
    while true {
      if let reason = work.cancellation.reason {
        stopped.value.withLock { $0.append(reason) }
        throw reason
      }
      usleep(1_000)
    }
  }

  func estimatedSeconds(_ key: String) -> Double? { estimate }
}

/// Issue 22, finding 5: a cold computation stops when the client that asked goes away (its
/// connection closes) or when its deadline passes, and one estimated past the deadline is
/// refused before it starts.
@Suite struct ColdCancellationTests {
  static func service(
    deadline: Double, estimate: Double? = nil, running: Int = 1,
    clock: @escaping @Sendable () -> Double
  )
    -> (ColdResourceService<Endless>, Shared<[RenderStopped]>, DispatchSemaphore)
  {
    let stopped = Shared<[RenderStopped]>([])
    let started = DispatchSemaphore(value: 0)
    let resource = Endless(stopped: stopped, started: started, estimate: estimate)
    let service = ColdResourceService(
      resource, name: "test.endless", cacheBytes: 1 << 20,
      limits: .init(running: running, waiting: 8, perClient: 8, perAddress: 8, deadline: deadline),
      clock: clock)
    return (service, stopped, started)
  }

  static let request = Request(method: .get, target: "/x/a", headers: ["Host": "test"])

  @Test func aComputationStopsWhenItsOnlyClientGoesAway() throws {
    let (service, stopped, started) = Self.service(deadline: 3600, clock: { 0 })
    guard
      case .later(let pending) = service.respond(to: Self.request, path: ["a"], client: "127.0.0.1")
    else {
      Issue.record("not computed later")
      return
    }
    #expect(started.wait(timeout: .now() + 30) == .success)
    pending.abandon()
    let answer = Reply.later(pending).eventually(within: 30)
    #expect(answer.status == .serviceUnavailable)
    #expect(stopped.now == [.cancelled])
  }

  @Test func twoClientsOfOneComputationBothHaveToGo() throws {
    let (service, stopped, started) = Self.service(deadline: 3600, running: 2, clock: { 0 })
    guard
      case .later(let first) = service.respond(to: Self.request, path: ["a"], client: "127.0.0.1"),
      case .later(let second) = service.respond(to: Self.request, path: ["a"], client: "127.0.0.2")
    else {
      Issue.record("not computed later")
      return
    }
    #expect(started.wait(timeout: .now() + 30) == .success)
    first.abandon()
    usleep(50_000)
    #expect(stopped.now.isEmpty, "the second client still waits for it")
    second.abandon()
    _ = Reply.later(second).eventually(within: 30)
    #expect(stopped.now == [.cancelled])
  }

  @Test func aComputationPastItsDeadlineIsStoppedAnd503() throws {
    let now = Shared(0.0)
    let (service, stopped, started) = Self.service(deadline: 10, clock: { now.now })
    let reply = service.respond(to: Self.request, path: ["a"], client: "127.0.0.1")
    #expect(started.wait(timeout: .now() + 30) == .success)
    now.value.withLock { $0 = 11 }
    let answer = reply.eventually(within: 30)
    #expect(answer.status == .serviceUnavailable && answer.headers["Retry-After"] != nil)
    #expect(stopped.now == [.deadlinePassed])
  }

  @Test func anEstimatePastTheDeadlineIsRefusedBeforeItStarts() throws {
    let (service, stopped, _) = Self.service(deadline: 10, estimate: 25, clock: { 0 })
    let answer = try #require(
      service.respond(to: Self.request, path: ["a"], client: "127.0.0.1").now)
    #expect(answer.status == .serviceUnavailable && answer.headers["Retry-After"] == "60")
    #expect(String(decoding: answer.body, as: UTF8.self).contains("about 25 s"))
    #expect(stopped.now.isEmpty)
  }
}
