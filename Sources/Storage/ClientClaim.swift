/// A new session's place in its client's quota across every process sharing the store: the
/// client and its address, and the bounds to hold them to. The store counts the sessions other
/// processes hold under a live lease (`SQLSessionStore.createSession`); the creating process
/// counts its own (`heldHere`), since only it knows which of them it is letting go.
public struct ClientClaim: Sendable, Equatable {
  /// Which bound a new session would pass.
  public enum Bound: String, Sendable, Equatable {
    case client
    case address
    case onDemand
  }

  /// The client (an address, or an address and a browser family), as text.
  public var client: String
  /// The client's address: all clients of one address share `perAddress`.
  public var address: String
  /// Whether the new session steps on demand (it must also be under `perClientOnDemand`).
  public var onDemand: Bool
  /// Sessions one client may have live at once, across every process.
  public var perClient: Int
  /// Sessions all clients of one address may have live at once, across every process.
  public var perAddress: Int
  /// Of `perClient`, the on-demand sessions one client may have live at once.
  public var perClientOnDemand: Int
  /// What the creating process holds itself for this client and address, the new session
  /// included.
  public var heldHere: ClientCounts

  /// Makes a claim.
  public init(
    client: String, address: String, onDemand: Bool, perClient: Int, perAddress: Int,
    perClientOnDemand: Int, heldHere: ClientCounts
  ) {
    self.client = client
    self.address = address
    self.onDemand = onDemand
    self.perClient = perClient
    self.perAddress = perAddress
    self.perClientOnDemand = perClientOnDemand
    self.heldHere = heldHere
  }

  /// The bound passed with `elsewhere` held by other processes, or nil when the session fits.
  public func bound(elsewhere: ClientCounts) -> Bound? {
    let total = ClientCounts(
      client: heldHere.client + elsewhere.client, address: heldHere.address + elsewhere.address,
      onDemand: heldHere.onDemand + elsewhere.onDemand)
    if total.client > perClient { return .client }
    if total.address > perAddress { return .address }
    if onDemand && total.onDemand > perClientOnDemand { return .onDemand }
    return nil
  }
}
