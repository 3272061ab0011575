import Synchronization

/// Places for book exports being built or waiting to be written: a few across the server, one
/// per address (`--recipe-exports`).
///
/// NB: an export is the one answer here as big as a client's books (up to
/// `--recipe-bytes-per-client`, 64 MiB), and a peer that does not read keeps it in memory until
/// the send timeout. Without a bound, one client asking again and again on connections it never
/// read held 28 exports, 2 GB, at once. A place is taken before the book is read and comes back
/// when the answer has been written or dropped (`Response.heldUntilWritten`).
final class ExportPlaces: Sendable {
  enum Refusal: Error {
    /// The address has an export being built or written.
    case address
    /// Every place is taken.
    case server
  }

  /// A taken place; it comes back when this is freed.
  final class Place: Sendable {
    private let places: ExportPlaces
    private let address: String

    fileprivate init(_ places: ExportPlaces, _ address: String) {
      (self.places, self.address) = (places, address)
    }

    deinit { places.giveBack(address) }
  }

  private let capacity: Int
  private let taken = Mutex<Set<String>>([])

  init(capacity: Int) {
    self.capacity = capacity
  }

  /// A place for an export to `address`.
  func take(for address: String) throws(Refusal) -> Place {
    try taken.withLock { (taken: inout Set<String>) throws(Refusal) in
      guard !taken.contains(address) else { throw .address }
      guard taken.count < capacity else { throw .server }
      taken.insert(address)
    }
    return Place(self, address)
  }

  /// Exports being built or written now.
  var count: Int { taken.withLock { $0.count } }

  fileprivate func giveBack(_ address: String) {
    _ = taken.withLock { $0.remove(address) }
  }
}
