import HTTP
import JSON
import Simulation
import Storage
import Testing

@testable import Playfield

/// A session whose journal says it may not step (its lease is about to run out, or ran out
/// while the process was paused) applies nothing: no input, no tick; the commands wait.
@Suite struct FenceBeforeApplyTests {
  @Test func aFencedSessionAppliesNothingUntilItMayStepAgain() throws {
    let journal = RecordingJournal()
    let live = LiveSession(
      id: "s1", model: try Counter(config: [:], seed: 1), seed: 1,
      tokenHash: TokenHash.hash(token: "t"), createdAt: 0, running: true, journal: journal,
      idlePause: 30, clock: { MonotonicTime.now() })
    live.advance(now: 1, budget: SessionBudget())
    let tick = live.summary.tick
    journal.isFenced = true
    let add: JSONValue = ["type": "add", "amount": 2]
    #expect(live.send(.input(try #require(try Counter.checkedInput(from: add)))))
    for second in 2...4 { live.advance(now: Double(second), budget: SessionBudget()) }
    #expect(live.summary.tick == tick, "no tick while fenced")
    #expect(journal.inputs.isEmpty, "no input applied while fenced")
    #expect(live.wantsTick, "the input waits")

    journal.isFenced = false
    live.advance(now: 5, budget: SessionBudget())
    #expect(live.summary.tick == tick + 1)
    #expect(journal.inputs.map { $0["amount"] } == [2])
  }

  @Test func aFencedSessionTakesNoBatchStepAndGivesItsInputsBackToTheLogBound() throws {
    let journal = RecordingJournal()
    let live = LiveSession(
      id: "h1", model: try Holes(config: [:], seed: 1), seed: 1,
      tokenHash: TokenHash.hash(token: "t"), createdAt: 0, running: false, journal: journal,
      idlePause: 30, clock: { MonotonicTime.now() })
    let log = InputLogCap(maxInputs: 1)
    live.inputLog = log
    let tilt = try Holes.batchInput([0.5, 0])
    #expect(log.admit("h1", bytes: tilt.json.serialized().count) == nil)
    journal.isFenced = true
    var values = BatchValues()
    #expect(
      live.stepBatch([tilt], count: 3, mayStep: { true }, values: &values) == .fenced(tick: 0))
    #expect(values.values.isEmpty && journal.inputs.isEmpty)
    // The input's room came back: the one input the bound allows is admitted again.
    #expect(log.admit("h1", bytes: tilt.json.serialized().count) == nil)

    journal.isFenced = false
    #expect(
      live.stepBatch([tilt], count: 3, mayStep: { true }, values: &values)
        == .stepped(left: 0, tick: 3))
    #expect(try values.values.count == Holes(config: [:], seed: 1).batchFields.count)
    #expect(journal.inputs.count == 1)
  }
}
