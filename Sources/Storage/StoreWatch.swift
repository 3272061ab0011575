import Foundation
import Synchronization

/// A watch of what other processes store (`SessionStore.watchShoppingLists`): on PostgreSQL, a
/// connection of its own that LISTENs and a thread that waits on it, connecting again a
/// second after the link breaks. `cancel()` stops it (within `pollMilliseconds`).
public final class StoreWatch: Sendable {
  /// The channel a stored shopping list is announced on, with its book's ID as the payload.
  static let shoppingLists = "playfield_shopping"
  /// How long one wait for a notification lasts before the watch checks whether it was
  /// cancelled.
  static let pollMilliseconds: Int32 = 250

  private let cancelled = Atomic<Bool>(false)

  /// Starts watching `channel` on PostgreSQL at `url`, calling `heard` with each payload.
  init(url: String, channel: String, heard: @escaping @Sendable (String) -> Void) {
    let thread = Thread { [self] in run(url: url, channel: channel, heard: heard) }
    thread.start()
  }

  /// Stops the watch: no call of `heard` starts after its thread notices.
  public func cancel() {
    cancelled.store(true, ordering: .relaxed)
  }

  public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

  private func run(url: String, channel: String, heard: @Sendable (String) -> Void) {
    var connection: PostgresConnection?
    while !isCancelled {
      do {
        if connection == nil {
          let fresh = try PostgresConnection(url: url)
          try fresh.executeScript("LISTEN \(channel)")
          connection = fresh
        }
        for payload in try connection!.notifications(waitingAtMost: Self.pollMilliseconds)
        where !isCancelled {
          heard(payload)
        }
      } catch {
        // NB: a broken or refused link: try again a second later, a little at a time so that
        // a cancel is not kept waiting.
        connection = nil
        for _ in 0..<4 where !isCancelled { usleep(UInt32(Self.pollMilliseconds) * 1000) }
      }
    }
  }
}

extension SessionStore {
  /// A store no other process writes has nothing to watch.
  public func watchShoppingLists(_ changed: @escaping @Sendable (String) -> Void) -> StoreWatch? {
    nil
  }
}
