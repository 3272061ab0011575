/// How many imports (or shopping-list changes) each client made in the last minute: a pure
/// counter over the times it is given (unix seconds), for the `recipe-imports-per-minute` and
/// `shopping-changes-per-minute` limits.
struct ImportWindow: Sendable {
  /// Imports a client may start in any 60 seconds.
  let perMinute: Int
  private var times: [String: [Double]] = [:]

  init(perMinute: Int) {
    self.perMinute = perMinute
  }

  /// Counts one import of `client` at `now` and returns nil, or, when the client has had its
  /// share of the last 60 seconds, counts nothing and returns the seconds until it may again.
  mutating func admit(_ client: String, now: Double) -> Double? {
    var recent = (times[client] ?? []).filter { $0 > now - 60 }
    defer {
      if recent.isEmpty { times[client] = nil } else { times[client] = recent }
      if times.count > 10_000 { times = times.filter { $0.value.last ?? 0 > now - 60 } }
    }
    guard recent.count < perMinute else { return max(1, (recent.first ?? now) + 60 - now) }
    recent.append(now)
    return nil
  }
}
