import Simulation

@testable import Playfield

/// A replay log held in memory, for driving `ReplayMachine` in tests: inputs by tick, snapshots
/// by tick, and a record of what the machine read.
struct MemoryReplayLog: ReplayLog {
  var inputs: [UInt64: [CheckedInput]]
  var snapshots: [UInt64: any Simulation] = [:]
  /// The ticks asked for, in order, and the restarts, as `restart N`.
  private(set) var reads: [String] = []

  mutating func inputs(forTick tick: UInt64) throws -> [CheckedInput]? {
    reads.append("\(tick)")
    return inputs[tick] ?? []
  }

  mutating func restart(after tick: UInt64) {
    reads.append("restart \(tick)")
  }

  mutating func snapshot(atOrBefore tick: UInt64) -> (any Simulation)? {
    snapshots.filter { $0.key <= tick }.max { $0.key < $1.key }?.value
  }
}

extension ReplayMachine {
  /// A replay of `inputs` held in memory.
  init(id: String, start: any Simulation, inputs: [UInt64: [CheckedInput]], end: UInt64) {
    self.init(id: id, start: start, log: MemoryReplayLog(inputs: inputs), end: end)
  }
}
