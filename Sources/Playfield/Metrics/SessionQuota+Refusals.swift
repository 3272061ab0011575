extension SessionQuota.Bound {
  /// The option that sets this bound, naming its refusals in `/metrics`.
  var limitName: String {
    switch self {
    case .client: Limit.sessionsPerClient.name
    case .address, .reserve: Limit.sessionShare.name
    case .onDemand: Limit.onDemandSessionsPerClient.name
    }
  }
}
