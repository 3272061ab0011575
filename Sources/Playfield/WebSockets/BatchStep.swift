import Simulation

/// The work of one batch `step` message (`/ws/batch`): each session's inputs and ticks, in the
/// message's order, run as one `StepJob` of the connection's client, in slices (a slice that
/// runs out stops between two model steps, and the next goes on from there).
final class BatchStep: @unchecked Sendable {
  /// One session's part: inputs applied before its first tick, and how many ticks.
  struct Entry {
    let session: LiveSession
    var inputs: [CheckedInput]
    let count: Int
  }

  private var entries: [Entry]
  private var next = 0
  private var left: Int
  private(set) var reply: BatchReply

  init(_ entries: [Entry], request: UInt32, width: Int) {
    self.entries = entries
    self.left = entries.first?.count ?? 0
    reply = BatchReply(request: request, sessions: entries.count, width: width)
  }

  /// One slice (on the step scheduler's thread, never two at once): `.more` while sessions
  /// are left.
  func run(_ slice: inout StepSlice) -> StepJob.Progress {
    while next < entries.count {
      let entry = entries[next]
      switch entry.session.stepBatch(
        entry.inputs, count: left, mayStep: { slice.mayStep() }, values: &reply.values)
      {
      case .stepped(let remaining, let tick):
        entries[next].inputs = []
        left = remaining
        guard remaining == 0 else { return .more }
        reply.stepped(tick: tick, stored: entry.session.storedWatermark(at: tick))
      case .deleted:
        reply.notStepped(BatchReply.deleted, tick: 0)
      case .fenced(let tick):
        reply.notStepped(
          BatchReply.fenced, tick: tick, stored: entry.session.storedWatermark(at: tick))
      case .waiting:
        // NB: brought back from storage, not yet where it was: the next slice asks again.
        return .more
      }
      next += 1
      left = next < entries.count ? entries[next].count : 0
    }
    return .done
  }
}
