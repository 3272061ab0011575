/// Who a request counts against for quotas: its address and, for a browser, the client family
/// the server gave it (the `playfield_client` cookie).
///
/// Without a family (scripts, unknown or forgotten ids) a client is its address. Every family of
/// one address also counts against that address's larger cap, so minting families cannot
/// multiply an address's share.
struct ClientKey: Hashable, Sendable, CustomStringConvertible {
  /// The peer's address, e.g. `127.0.0.1`.
  var address: String
  /// The family id the server issued to this address, or nil.
  var family: String?

  init(address: String, family: String? = nil) {
    self.address = address
    self.family = family
  }

  /// `ADDRESS` or `ADDRESS FAMILY` (stored as a maze's owning client).
  var description: String {
    family.map { "\(address) \($0)" } ?? address
  }
}
