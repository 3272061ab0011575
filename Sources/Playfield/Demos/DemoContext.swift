import Storage

/// What a demo's own routes may use, handed over once when the app starts.
struct DemoContext: Sendable {
  let environment: Environment
  let registry: SessionRegistry
  /// The store, nil when the app runs without a database.
  let store: (any SessionStore)?
  /// Where the demos' services are counted, for `/metrics`.
  let meters: Meters
  /// The compare groups, which the game loop steps as its viewers' jobs.
  let compares: CompareRegistry
  /// The store workers, where store reads run off the event loops and the game loop.
  let storeCalls: StoreCalls
  /// What the demo's parts do at shutdown (`Application.shutdown`).
  let atShutdown: ShutdownHooks
}
