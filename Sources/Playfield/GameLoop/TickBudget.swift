/// A per-tick CPU budget shared by the sessions that run: when stepping everyone would cost
/// more than the budget, a session whose step costs more than its fair share is stepped only
/// every few ticks, so heavy sessions slow themselves down and light ones keep 60 ticks a
/// second.
///
/// Shares are per client, then per session of that client: the budget is split evenly among
/// the clients with a running session, and each client's part among its own running sessions.
/// Sessions that do not run (idle, paused, stopped) are not handed in, so they dilute nobody.
///
/// Pure: the game loop reports each step's cost (ms) and asks which sessions to step.
struct TickBudget {
  /// Milliseconds of stepping a tick may take, across all sessions (a tick is 16.7 ms).
  let budget: Double
  /// Weight of the newest cost in each session's moving average.
  static let smoothing = 0.2

  private var costs: [String: Double] = [:]
  private var lastStepped: [String: UInt64] = [:]
  /// How many ticks apart each session is stepped now (1 = every tick).
  private(set) var intervals: [String: Int] = [:]
  /// One client's fair share of a tick (ms) at the last `select`.
  private(set) var share: Double
  /// Each session's fair share of a tick (ms) at the last `select`.
  private var shares: [String: Double] = [:]

  init(budget: Double = 10) {
    self.budget = budget
    self.share = budget
  }

  /// The sessions of `ids` to step at `tick`, leaving out those still `busy` with an earlier
  /// step; also drops what it knew of sessions gone. `client` names who each session is
  /// charged to (by default each session is a client of its own).
  mutating func select(
    _ ids: [String], tick: UInt64, busy: Set<String> = [], client: (String) -> String = { $0 }
  ) -> [String] {
    let present = Set(ids)
    costs = costs.filter { present.contains($0.key) }
    lastStepped = lastStepped.filter { present.contains($0.key) }
    let total = ids.reduce(0) { $0 + (costs[$1] ?? 0) }
    let owners = ids.map(client)
    var perClient: [String: Int] = [:]
    for owner in owners { perClient[owner, default: 0] += 1 }
    share = budget / Double(max(1, perClient.count))
    shares = [:]
    var chosen: [String] = []
    var intervals: [String: Int] = [:]
    for (id, owner) in zip(ids, owners) {
      let share = share / Double(perClient[owner] ?? 1)
      shares[id] = share
      let cost = costs[id] ?? 0
      // Over budget, a session pays for its own excess: its interval grows with its cost.
      let interval = total > budget && cost > share ? Int((cost / share).rounded(.up)) : 1
      intervals[id] = interval
      guard !busy.contains(id) else { continue }
      if tick &- (lastStepped[id] ?? 0) >= UInt64(interval) || lastStepped[id] == nil {
        chosen.append(id)
        lastStepped[id] = tick
      }
    }
    self.intervals = intervals
    return chosen
  }

  /// What the budget says of `id` now, for its `status`.
  func state(of id: String) -> SessionBudget {
    SessionBudget(interval: intervals[id] ?? 1, cost: costs[id] ?? 0, share: shares[id] ?? share)
  }

  /// Whether a step of `id` has been measured yet (a new session's has not).
  func isMeasured(_ id: String) -> Bool {
    costs[id] != nil
  }

  /// Records that stepping `id` took `milliseconds`.
  mutating func record(_ id: String, milliseconds: Double) {
    let old = costs[id] ?? milliseconds
    costs[id] = old + Self.smoothing * (milliseconds - old)
  }
}
