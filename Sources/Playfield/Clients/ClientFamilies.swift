/// The client families the server issued, per address: which `playfield_client` ids it knows.
///
/// Pure: the caller makes the ids (random) and keeps this behind a lock. The table is bounded:
/// an address keeps its `perAddress` newest families and the table its `addresses` newest
/// addresses; a forgotten id counts as its address again.
struct ClientFamilies {
  /// Families remembered per address; issuing one more forgets that address's oldest.
  let perAddress: Int
  /// Addresses remembered; issuing to one more forgets the one that was issued to longest ago.
  let addresses: Int
  /// Issued ids per address, oldest first.
  private var issued: [String: [String]] = [:]
  /// Addresses, the one issued to longest ago first.
  private var order: [String] = []

  init(perAddress: Int, addresses: Int = 4096) {
    self.perAddress = max(1, perAddress)
    self.addresses = max(1, addresses)
  }

  /// Remembers `id` as issued to `address`; returns the ids this forgot.
  @discardableResult
  mutating func issue(_ id: String, to address: String) -> [String] {
    var forgotten: [String] = []
    var families = issued[address] ?? []
    families.append(id)
    if families.count > perAddress {
      forgotten += families.prefix(families.count - perAddress)
      families.removeFirst(families.count - perAddress)
    }
    issued[address] = families
    order.removeAll { $0 == address }
    order.append(address)
    while order.count > addresses {
      forgotten += issued.removeValue(forKey: order.removeFirst()) ?? []
    }
    return forgotten
  }

  /// The key of a request from `address` presenting `id`: its family when this server issued
  /// `id` to `address` and still remembers it, else the address alone.
  func key(address: String, presenting id: String?) -> ClientKey {
    guard let id, issued[address]?.contains(id) == true else { return ClientKey(address: address) }
    return ClientKey(address: address, family: id)
  }

  /// How many families `address` holds.
  func count(for address: String) -> Int {
    issued[address]?.count ?? 0
  }
}
