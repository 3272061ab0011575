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
}
