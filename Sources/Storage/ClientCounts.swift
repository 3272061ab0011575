/// How many live sessions one client holds, how many its whole address holds, and how many of
/// the client's step on demand.
public struct ClientCounts: Sendable, Equatable {
  /// The client's own sessions.
  public var client: Int
  /// The sessions of every client of its address, the client's included.
  public var address: Int
  /// The client's on-demand sessions.
  public var onDemand: Int

  /// Makes counts.
  public init(client: Int, address: Int, onDemand: Int) {
    self.client = client
    self.address = address
    self.onDemand = onDemand
  }
}
