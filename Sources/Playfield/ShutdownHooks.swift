import Synchronization

/// Work the parts made after the app (a demo's own stores) do at shutdown: `Application.shutdown`
/// runs them in the order added, once the server takes no more requests and before the journal
/// closes.
final class ShutdownHooks: Sendable {
  private let hooks = Mutex<[@Sendable () -> Void]>([])

  func add(_ hook: @escaping @Sendable () -> Void) {
    hooks.withLock { $0.append(hook) }
  }

  func run() {
    for hook in hooks.withLock({ $0 }) { hook() }
  }
}
