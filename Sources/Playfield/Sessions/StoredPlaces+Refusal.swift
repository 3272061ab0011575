import Storage

extension StoredPlaces {
  /// What a client is told when the store has no place for its new session, and the limit that
  /// refused it (`/metrics`); nil for any other failure of the store.
  static func refusal(_ error: StoreError) -> (error: APIError, limitName: String)? {
    switch error {
    case .tooManySessionsForClient(let limit):
      (
        APIError(
          .tooManyRequests,
          "you have \(limit) stored sessions, the most one client may "
            + "(--stored-sessions-per-client); delete one of yours"),
        Limit.storedSessionsPerClient.name
      )
    case .tooManySessionsForAddress(let limit):
      (
        APIError(
          .tooManyRequests,
          "your address has \(limit) stored sessions, the most one address may "
            + "(--session-share of --stored-sessions); delete one"),
        Limit.storedSessionsPerClient.name
      )
    case .storeReserved(let held, let free):
      (
        APIError(
          .tooManyRequests,
          "the store is nearly full (\(free) places free) and your address has \(held) stored "
            + "sessions: its last places go to addresses holding fewer (--session-share of "
            + "--stored-sessions); delete one"),
        Limit.sessionShare.name
      )
    case .tooManySessions(let limit):
      (
        APIError.full(
          "the store is full: it keeps \(limit) sessions (--stored-sessions); try again later"),
        Limit.storedSessions.name
      )
    default: nil
    }
  }
}
