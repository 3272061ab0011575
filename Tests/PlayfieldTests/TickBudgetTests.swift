import Testing

@testable import Playfield

@Suite("Per-tick CPU budget")
struct TickBudgetTests {
  /// Runs `ticks` ticks where each session's step costs what `cost` says; returns steps taken.
  func run(_ budget: inout TickBudget, _ cost: [String: Double], ticks: UInt64) -> [String: Int] {
    var steps: [String: Int] = [:]
    for tick in 1...ticks {
      for id in budget.select(cost.keys.sorted(), tick: tick) {
        steps[id, default: 0] += 1
        budget.record(id, milliseconds: cost[id]!)
      }
    }
    return steps
  }

  @Test("under budget, everyone steps every tick")
  func underBudget() {
    var budget = TickBudget(budget: 10)
    let steps = run(&budget, ["a": 1, "b": 2, "c": 3], ticks: 60)
    #expect(steps == ["a": 60, "b": 60, "c": 60])
    #expect(budget.intervals.values.allSatisfy { $0 == 1 })
  }

  @Test("heavy sessions slow themselves; light ones keep 60 ticks a second")
  func heavy() {
    var budget = TickBudget(budget: 10)
    var cost: [String: Double] = ["heavy1": 12, "heavy2": 20]
    for index in 0..<8 { cost["light\(index)"] = 0.2 }
    let steps = run(&budget, cost, ticks: 600)
    for index in 0..<8 { #expect(steps["light\(index)"]! >= 595) }
    #expect(steps["heavy1"]! < 150)
    #expect(steps["heavy2"]! < steps["heavy1"]!)
    #expect(budget.intervals["heavy2"]! > 1 && budget.intervals["light0"] == 1)
    // What is stepped per tick stays near the budget once the averages settle.
    let perTick = cost.reduce(0.0) { $0 + $1.value / Double(budget.intervals[$1.key]!) }
    #expect(perTick <= 10 * 1.2)
  }

  @Test("a session that goes away is forgotten")
  func forget() {
    var budget = TickBudget(budget: 1)
    _ = run(&budget, ["a": 5, "b": 5], ticks: 10)
    _ = budget.select(["b"], tick: 11)
    #expect(budget.intervals.keys.sorted() == ["b"])
  }

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

  @Test("shares are per client: one client's many sessions split its share, not everyone's")
  func sharesPerClient() {
    // Client x runs 15 sessions, client y one; the budget is 10 ms, so 5 ms a client.
    var budget = TickBudget(budget: 10)
    var ids = (0..<15).map { "x\($0)" }
    ids.append("y")
    let owner: (String) -> String = { $0.hasPrefix("x") ? "x" : "y" }
    for id in ids { budget.record(id, milliseconds: id == "y" ? 4 : 1) }
    _ = budget.select(ids, tick: 1, client: owner)
    // y's 4 ms step is within its client's 5 ms: never throttled, though 16 sessions run.
    #expect(budget.state(of: "y") == SessionBudget(interval: 1, cost: 4, share: 5))
    // Each of x's sessions has 5 / 15 ms and costs 1 ms: every third tick.
    #expect(budget.state(of: "x0").interval == 3)
    var steps: [String: Int] = [:]
    for tick in UInt64(2)...61 {
      for id in budget.select(ids, tick: tick, client: owner) { steps[id, default: 0] += 1 }
    }
    #expect(steps["y"] == 60)
    #expect(steps["x0"]! <= 21)
  }
}
