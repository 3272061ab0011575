import Foundation
import HTTP
import Synchronization
import Testing

@testable import Playfield

@Suite("Heavy sessions step off the tick")
struct OffTickStepsTests {
  @Test("a session in flight off the tick is not chosen again until it is back")
  func busyIsSkipped() {
    var budget = TickBudget(budget: 10)
    #expect(budget.select(["a", "b"], tick: 1) == ["a", "b"])
    #expect(!budget.isMeasured("a"))
    budget.record("a", milliseconds: 40)
    #expect(budget.isMeasured("a"))
    budget.record("b", milliseconds: 0.1)
    // a is over its share (5 ms): every 8 ticks. Due at tick 9, but still busy then.
    #expect(budget.select(["a", "b"], tick: 9, busy: ["a"]) == ["b"])
    #expect(budget.state(of: "a").interval == 8)
    #expect(budget.select(["a", "b"], tick: 10) == ["a", "b"])
  }

  @Test("a submitted session is stepped once on the other thread, and its cost comes back")
  func stepsAndReportsCost() throws {
    let model = try Counter(config: [:], seed: 1)
    let session = LiveSession(
      id: "s1", model: model, seed: 1, tokenHash: "", createdAt: 0, running: true,
      journal: nil, idlePause: 30, clock: { MonotonicTime.now() })
    let steps = OffTickSteps(wallClock: { 0 })
    steps.start()
    defer { steps.stop() }
    steps.submit(session, budget: SessionBudget(interval: 4, cost: 30, share: 5))
    #expect(steps.busy == ["s1"] || session.summary.tick == 1)
    var costs: [(String, Duration)] = []
    for _ in 0..<500 where costs.isEmpty {
      costs = steps.takeCosts()
      if costs.isEmpty { usleep(10_000) }
    }
    #expect(costs.map(\.0) == ["s1"])
    #expect(steps.busy.isEmpty)
    #expect(session.summary.tick == 1)
  }
}

@Suite("A new session's first step off the tick")
struct OffTickOrderTests {
  @Test("a step submitted ahead runs before those already waiting")
  func aheadGoesFirst() throws {
    let steps = OffTickSteps(wallClock: { 0 })
    var sessions: [LiveSession] = []
    for id in ["heavy1", "heavy2", "new"] {
      sessions.append(
        LiveSession(
          id: id, model: try Counter(config: [:], seed: 1), seed: 1, tokenHash: "", createdAt: 0,
          running: true, journal: nil, idlePause: 30, clock: { MonotonicTime.now() }))
    }
    // Queued before the thread starts, so the order is the queue's alone.
    steps.submit(sessions[0], budget: SessionBudget(interval: 9, cost: 50, share: 1))
    steps.submit(sessions[1], budget: SessionBudget(interval: 9, cost: 50, share: 1))
    steps.submit(sessions[2], budget: SessionBudget(), ahead: true)
    #expect(steps.busy == ["heavy1", "heavy2", "new"])
    steps.start()
    defer { steps.stop() }
    var order: [String] = []
    for _ in 0..<500 where order.count < 3 {
      order += steps.takeCosts().map(\.0)
      if order.count < 3 { usleep(10_000) }
    }
    #expect(order == ["new", "heavy1", "heavy2"])
  }
}
