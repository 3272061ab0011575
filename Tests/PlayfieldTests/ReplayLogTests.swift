import JSON
import Simulation
import Testing

@testable import Playfield

/// A log that fails at one tick, as a database fault would.
private struct FailingLog: ReplayLog {
  struct Fault: Error, CustomStringConvertible {
    var description: String { "disk I/O error" }
  }

  let failAt: UInt64

  mutating func inputs(forTick tick: UInt64) throws -> [CheckedInput]? {
    if tick == failAt { throw Fault() }
    return []
  }

  mutating func restart(after tick: UInt64) {}
  mutating func snapshot(atOrBefore tick: UInt64) -> (any Simulation)? { nil }
}

/// Which ticks a log cannot read now, changed by the test while the machine owns the log.
private final class BusyTicks: @unchecked Sendable {
  var ticks: Set<UInt64> = []
}

/// A memory log that answers nil (a busy database) for the ticks in `busy`.
private struct GatedLog: ReplayLog {
  var inner: MemoryReplayLog
  let busy: BusyTicks

  mutating func inputs(forTick tick: UInt64) throws -> [CheckedInput]? {
    busy.ticks.contains(tick) ? nil : try inner.inputs(forTick: tick)
  }

  mutating func restart(after tick: UInt64) { inner.restart(after: tick) }
  mutating func snapshot(atOrBefore tick: UInt64) -> (any Simulation)? { nil }
}

@Suite("A replay reads its log as it plays")
struct ReplayLogTests {
  static func add(_ amount: Int) throws -> CheckedInput {
    try #require(try Counter.checkedInput(from: ["type": "add", "amount": .number(amount)]))
  }

  /// A counter log adding the tick number at every tick divisible by 7, to `end`.
  static func log(end: UInt64) throws -> [UInt64: [CheckedInput]] {
    var inputs: [UInt64: [CheckedInput]] = [:]
    for tick in stride(from: UInt64(7), through: end, by: 7) { inputs[tick] = [try add(Int(tick))] }
    return inputs
  }

  /// The counter after stepping the log from tick 0 to `tick`.
  static func direct(_ inputs: [UInt64: [CheckedInput]], to tick: UInt64) throws -> Counter {
    var model = try Counter(config: ["goal": 1_000_000], seed: 1)
    while model.tick < tick { _ = model.step(checked: inputs[model.tick + 1] ?? []) }
    return model
  }

  static func machine(_ log: MemoryReplayLog, end: UInt64) throws -> ReplayMachine {
    ReplayMachine(
      id: "r", start: try Counter(config: ["goal": 1_000_000], seed: 1), log: log, end: end)
  }

  static func run(_ machine: inout ReplayMachine, _ commands: [ReplayMachine.Command] = [])
    -> [ReplayMachine.Action]
  {
    var actions: [ReplayMachine.Action] = []
    machine.tick(commands, mayStepAgain: { true }, perform: { actions.append($0) })
    return actions
  }

  @Test("the log is read one tick at a time, in order, each tick once")
  func readsInOrder() throws {
    let inputs = try Self.log(end: 100)
    var machine = try Self.machine(MemoryReplayLog(inputs: inputs), end: 100)
    _ = Self.run(&machine, [.speed(8)])
    while machine.playing { _ = Self.run(&machine) }
    #expect(machine.model.stateHash == (try Self.direct(inputs, to: 100)).stateHash)
    #expect(Self.reads(machine) == (1...100).map { "\($0)" })
  }

  @Test("a busy log stalls the replay at that tick; it goes on where it stopped")
  func busyStalls() throws {
    let inputs = try Self.log(end: 60)
    let busy = BusyTicks()
    busy.ticks = [21]
    var machine = ReplayMachine(
      id: "r", start: try Counter(config: ["goal": 1_000_000], seed: 1),
      log: GatedLog(inner: MemoryReplayLog(inputs: inputs), busy: busy), end: 60)
    _ = Self.run(&machine, [.seek(40)])
    _ = Self.run(&machine)
    #expect(machine.model.tick == 20 && machine.target == 40)
    busy.ticks = []
    _ = Self.run(&machine)
    #expect(machine.model.tick == 40 && machine.target == nil)
    #expect(machine.model.stateHash == (try Self.direct(inputs, to: 40)).stateHash)
  }

  @Test("a seek starts from the nearest snapshot, back or ahead, and ends in the same state")
  func seeksFromSnapshots() throws {
    let inputs = try Self.log(end: 300)
    var log = MemoryReplayLog(inputs: inputs)
    log.snapshots = [100: try Self.direct(inputs, to: 100), 200: try Self.direct(inputs, to: 200)]
    var machine = try Self.machine(log, end: 300)
    _ = Self.run(&machine, [.pause, .seek(250)])
    #expect(machine.model.tick == 250)
    #expect(machine.model.stateHash == (try Self.direct(inputs, to: 250)).stateHash)
    _ = Self.run(&machine, [.seek(150)])
    #expect(machine.model.stateHash == (try Self.direct(inputs, to: 150)).stateHash)
    _ = Self.run(&machine, [.seek(160)])
    #expect(machine.model.stateHash == (try Self.direct(inputs, to: 160)).stateHash)
    _ = Self.run(&machine, [.seek(50)])
    #expect(machine.model.stateHash == (try Self.direct(inputs, to: 50)).stateHash)
    let reads = Self.reads(machine)
    // Ahead to 250 from the snapshot at 200; back to 150 from 100; on to 160 from where it
    // was; back to 50 from the start.
    #expect(
      reads.filter { $0.hasPrefix("restart") } == ["restart 200", "restart 100", "restart 0"])
    #expect(reads.first == "restart 200" && reads[1] == "201")
  }

  @Test("a log that cannot be read ends the replay once, with the reason")
  func failure() throws {
    var machine = ReplayMachine(
      id: "r", start: try Counter(config: [:], seed: 1), log: FailingLog(failAt: 5), end: 50)
    let actions = Self.run(&machine, [.speed(8)])
    let failures = actions.compactMap { action -> String? in
      if case .fail(let reason) = action { return reason }
      return nil
    }
    #expect(failures == ["the replay's input log cannot be read: disk I/O error"])
    #expect(machine.model.tick == 4)
    #expect(Self.run(&machine, [.play]).isEmpty, "a failed replay does nothing more")
  }

  /// What the machine read from its `MemoryReplayLog` (or from one inside a `GatedLog`).
  static func reads(_ machine: ReplayMachine) -> [String] {
    let log = Mirror(reflecting: machine).children.first { $0.label == "log" }?.value
    return (log as? MemoryReplayLog)?.reads ?? []
  }
}
