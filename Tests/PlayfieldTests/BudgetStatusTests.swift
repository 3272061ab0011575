import JSON
import Simulation
import Testing

@testable import Playfield

/// One connection.
private final class Viewer: Sendable {}

/// Sessions under one `TickBudget`, each step costing what the test says (no clock), each
/// watched by one client; records the `status` messages each client is sent.
private struct Loop {
  typealias Machine = SessionMachine<Viewer>
  var budget: TickBudget
  var machines: [String: Machine] = [:]
  var cost: [String: Double]
  var statuses: [String: [ServerMessage.LiveStatus]] = [:]
  var steps: [String: Int] = [:]
  var tick: UInt64 = 0

  init(budget: Double, cost: [String: Double]) throws {
    self.budget = TickBudget(budget: budget)
    self.cost = cost
    for id in cost.keys {
      let model = try Counter(config: [:], seed: 1)
      var machine = Machine(id: id, model: model, running: true, configuration: .init())
      machine.tick(
        [.join(Viewer(), .spectator)], now: 0, mayStepAgain: { false }, perform: { _ in })
      machines[id] = machine
    }
  }

  /// Runs `count` game-loop ticks, as `GameLoop.tick` does: select, tell, step, record.
  mutating func run(_ count: Int) {
    for _ in 0..<count {
      tick += 1
      let now = Double(tick) / 60
      for id in budget.select(cost.keys.sorted(), tick: tick) {
        machines[id]!.budgeted(budget.state(of: id))
        machines[id]!.tick(
          [], now: now, mayStepAgain: { false },
          perform: { action in
            if case .broadcast(.status(let status), _, _) = action {
              statuses[id, default: []].append(status)
            }
          })
        steps[id, default: 0] += 1
        budget.record(id, milliseconds: cost[id]!)
      }
    }
  }
}

@Suite("The tick budget in status")
struct BudgetStatusTests {
  @Test("a heavy session is stepped less often and says so; default ones are not throttled")
  func heavyIsThrottledAndSaysSo() throws {
    // Four sessions share 20 ms (two cores): 5 ms each. A default session's step costs
    // about 0.05 ms; the heavy one 30 ms, so it is stepped every 30 / 5 = 6 ticks.
    var loop = try Loop(budget: 20, cost: ["heavy": 30, "a": 0.05, "b": 0.05, "c": 0.05])
    loop.run(120)
    let told = try #require(loop.statuses["heavy"]?.last)
    #expect(told.budget == SessionBudget(interval: 6, cost: 30, share: 5))
    #expect(told.budget.throttled)
    #expect(loop.steps["heavy"] == 20)
    for id in ["a", "b", "c"] {
      #expect(loop.steps[id] == 120)
      // Never throttled, so never a status about the budget.
      #expect(loop.statuses[id] == nil)
      #expect(loop.machines[id]!.status.budget.throttled == false)
      #expect(loop.machines[id]!.status.budget.interval == 1)
    }
  }

  @Test("throttling that ends is told at once")
  func throttlingEnds() throws {
    var loop = try Loop(budget: 20, cost: ["heavy": 30, "a": 0.05])
    loop.run(30)
    #expect(loop.statuses["heavy"]?.last?.budget.throttled == true)
    // The heavy session gets light: its average falls under its share, and it is told.
    loop.cost["heavy"] = 0.05
    loop.run(120)
    let last = try #require(loop.statuses["heavy"]?.last)
    #expect(last.budget.throttled == false && last.budget.interval == 1)
    #expect(loop.steps["a"] == 150)
  }

  @Test("a wavering interval is told at most once a second")
  func waveringIsRateLimited() throws {
    let model = try Counter(config: [:], seed: 1)
    var machine = SessionMachine<Viewer>(
      id: "s", model: model, running: true, configuration: .init())
    var told: [Int] = []
    for tick in 0..<180 {
      // Throttled throughout, but the interval flips between 2 and 3 every tick.
      machine.budgeted(SessionBudget(interval: 2 + tick % 2, cost: 12, share: 5))
      let commands: [SessionMachine<Viewer>.Command] =
        tick == 0 ? [.join(Viewer(), .spectator)] : []
      machine.tick(
        commands, now: Double(tick) / 60, mayStepAgain: { false },
        perform: { action in
          if case .broadcast(.status(let status), _, _) = action {
            told.append(status.budget.interval)
          }
        })
    }
    // The join's status (throttling starts: told at once), then a change only once a second
    // has passed: at tick 61 (interval 3) and tick 122 (interval 2).
    #expect(told == [2, 3, 2])
  }

  @Test("status carries the budget as an object")
  func encoding() {
    let status = ServerMessage.LiveStatus(
      tick: 7, running: true, spectators: 1, controllers: 0, queued: 0,
      budget: SessionBudget(interval: 3, cost: 12.3456, share: 5))
    let text = String(decoding: ServerMessage.status(status).bytes, as: UTF8.self)
    #expect(
      text
        == #"{"type":"status","tick":7,"running":true,"spectators":1,"controllers":0,"queued":0,"#
        + #""budget":{"throttled":true,"every":3,"costMs":12.346,"shareMs":5}}"#)
  }
}
