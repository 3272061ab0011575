import HTTP
import JSON
import Simulation
import Storage
import Testing

@testable import Playfield
@testable import Server

/// One owner per session (`LiveSession`, `SessionMailbox`): a close (a delete, a park, a lost
/// lease) is a message after which nothing applies, whoever runs the session next; a session
/// still being rebuilt from storage takes no batch part until it is where it was.
@Suite struct SessionOwnerTests {
  private func counter(_ journal: RecordingJournal) throws -> LiveSession {
    LiveSession(
      id: "c1", model: try Counter(config: [:], seed: 1), seed: 1,
      tokenHash: TokenHash.hash(token: "t"), createdAt: 0, running: true, journal: journal,
      idlePause: 30, clock: { MonotonicTime.now() })
  }

  @Test func aDeletedSessionAppliesNothingAfterwards() throws {
    let journal = RecordingJournal()
    let live = try counter(journal)
    live.advance(now: 1, budget: SessionBudget())
    let tick = live.summary.tick
    let add: JSONValue = ["type": "add", "amount": 2]
    #expect(live.send(.input(try #require(try Counter.checkedInput(from: add)))))
    // Before: the next tick applied and logged the input of a session already deleted.
    live.disconnectAll(.goingAway, reason: "the session was deleted")
    #expect(!live.wantsTick, "a closed session wants no tick")
    live.advance(now: 2, budget: SessionBudget())
    #expect(live.summary.tick == tick, "no tick after the close")
    #expect(journal.inputs.isEmpty, "nothing logged after the close")
    #expect(live.endForShutdown().tick == tick)
  }

  @Test func aJoinAfterTheCloseIsNotCountedNorApplied() throws {
    let live = try counter(RecordingJournal())
    live.disconnectAll(.tryAgainLater, reason: "the session was parked to make room; reconnect")
    let loop = try EventLoop(index: 0)
    let socket = WebSocket(
      request: Request(method: .get, target: "/ws", headers: HTTPHeaders(), body: []),
      remoteAddress: "127.0.0.1", subprotocol: nil, compressionWindowBits: nil, loop: loop)
    #expect(live.send(.join(socket, .spectator)), "taken, and closed with the close's reason")
    #expect(!live.isWatched, "a closed session's joiner does not keep it watched")
    #expect(live.send(.leave(socket)))
    #expect(!live.isWatched)
    #expect(!live.wantsTick)
  }

  @Test func aBatchPartWaitsForASessionBeingRebuilt() throws {
    let journal = RecordingJournal()
    let live = LiveSession(
      id: "h1", model: try Holes(config: [:], seed: 1), seed: 1,
      tokenHash: TokenHash.hash(token: "t"), createdAt: 0, running: false, journal: journal,
      idlePause: 30, clock: { MonotonicTime.now() },
      onDemand: OnDemandSteps(scheduler: StepScheduler(), wallClock: { 0 }, owner: { _ in nil }),
      restoring: true)
    var values = BatchValues()
    let tilt = try Holes.batchInput([0.5, 0])
    // Before: the part stepped the stand-in model (the snapshot's), and its inputs were logged
    // at the stand-in's tick.
    #expect(live.stepBatch([tilt], count: 3, mayStep: { true }, values: &values) == .waiting)
    #expect(values.values.isEmpty && journal.inputs.isEmpty)

    live.restored(try Holes(config: [:], seed: 1), running: false)
    #expect(
      live.stepBatch([tilt], count: 3, mayStep: { true }, values: &values)
        == .stepped(left: 0, tick: 3))
    #expect(journal.inputs.count == 1)

    live.disconnectAll(.goingAway, reason: "the session was deleted")
    #expect(live.stepBatch([], count: 1, mayStep: { true }, values: &values) == .deleted)
    #expect(!live.waitsToShow, "a closed session is not shown")
  }
}
