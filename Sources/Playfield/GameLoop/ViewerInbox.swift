import Synchronization

/// The commands waiting for one `ViewerWork` (a replay, a compare group) and whether it has work
/// without them: what any thread may send and the game loop asks (`wantsTick`), while the work
/// itself runs on one thread at a time.
final class ViewerInbox<Command: Sendable>: Sendable {
  private let commands = Mutex<[Command]>([])
  private let closed = Atomic<Bool>(false)
  /// The machine's own `wantsTick` after its last tick.
  private let busy: Atomic<Bool>
  /// Wakes a game loop that sleeps for lack of work.
  private let wake: @Sendable () -> Void

  init(busy: Bool, wake: @escaping @Sendable () -> Void) {
    self.busy = Atomic(busy)
    self.wake = wake
  }

  var isClosed: Bool { closed.load(ordering: .relaxed) }

  /// Queues `command` for the next tick and wakes the loop.
  func send(_ command: Command) {
    commands.withLock { $0.append(command) }
    wake()
  }

  /// Ends the work: a job of it stops within one step.
  func close() {
    closed.store(true, ordering: .relaxed)
    wake()
  }

  /// Whether the next tick has anything to do.
  var wantsTick: Bool {
    !isClosed && (busy.load(ordering: .relaxed) || commands.withLock { !$0.isEmpty })
  }

  /// The commands sent since the last call, oldest first.
  func take() -> [Command] {
    commands.withLock { commands in
      let taken = commands
      commands.removeAll()
      return taken
    }
  }

  /// Records whether the machine has work without commands, after its tick.
  func settle(busy machine: Bool) {
    busy.store(machine, ordering: .relaxed)
  }
}
