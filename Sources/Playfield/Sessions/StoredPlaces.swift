/// The database's places for sessions, as the operator's `Limits` set them: at least as many
/// as may be live (`--max-sessions`, `--sessions-per-client`), so that every live session can
/// be stored; an address's clients together get their families' shares, but at most the
/// address's `--session-share` of the whole, as for live sessions.
struct StoredPlaces: Sendable, Equatable {
  /// Sessions the store keeps (`--stored-sessions`).
  var total: Int
  /// Sessions one client may keep stored (`--stored-sessions-per-client`).
  var perClient: Int
  /// Sessions all clients of one address may keep stored together.
  var perAddress: Int

  init(_ limits: Limits) {
    total = max(limits[.storedSessions], limits[.maxSessions])
    perClient = max(limits[.storedSessionsPerClient], limits[.sessionsPerClient])
    let share = Int(Double(total) * limits[.sessionShare] / 100)
    perAddress = min(perClient * limits[.familiesPerAddress], max(perClient, share))
  }
}
