import Dispatch
import JSON
import Logging
import Server
import Storage
import Synchronization
import WebSocket

/// The live shopping lists: for each book with a device connected, its list and the sockets
/// to tell. Every change is stored (`recipe_books.shopping`) and sent, whole, to every device
/// of the book, the sender included, in the order the changes were applied. Changes are
/// written off the event loops, in the order they were applied, on a queue of their own.
final class ShoppingHub: Sendable {
  private struct Channel {
    var list: ShoppingList
    var sockets: [UInt64: WebSocket] = [:]
  }

  private let store: (any SessionStore)?
  private let channels = Mutex<[String: Channel]>([:])
  private let writes = DispatchQueue(label: "playfield.shopping-writes")
  private let log = Logger(label: "playfield.recipes")
  /// The changes each client sent in the last minute (`--shopping-changes-per-minute`).
  private let changes: Mutex<ImportWindow>
  private let wallClock: @Sendable () -> Double

  init(
    store: (any SessionStore)?, changesPerMinute: Int = 600,
    wallClock: @escaping @Sendable () -> Double = { 0 }
  ) {
    self.store = store
    self.changes = Mutex(ImportWindow(perMinute: changesPerMinute))
    self.wallClock = wallClock
  }

  /// Counts one change by `client`; refuses it (counting nothing) past its share of the
  /// minute, saying when it may change the list again.
  func charge(_ client: String) throws(ShoppingListError) {
    guard let wait = changes.withLock({ $0.admit(client, now: wallClock()) }) else { return }
    throw ShoppingListError(
      "too many shopping-list changes this minute (--shopping-changes-per-minute); try again "
        + "in \(Int(wait.rounded(.up))) s")
  }

  /// Adds a device to the book's channel and sends it the list (`stored`, as the store held
  /// it, unless the channel is open already: then its list, which is newer).
  func open(bookID: String, stored: String, socket: WebSocket) {
    let list = channels.withLock { channels in
      var channel = channels[bookID] ?? Channel(list: ShoppingList(stored: stored))
      channel.sockets[socket.id] = socket
      channels[bookID] = channel
      return channel.list
    }
    socket.send(.text(Self.message(list).jsonString))
  }

  /// Applies a device's change, stores the list and sends it to every device of the book.
  func apply(_ message: JSONValue, bookID: String) throws(ShoppingListError) {
    let changed: (ShoppingList, [WebSocket])? = try channels.withLock {
      channels throws(ShoppingListError) in
      guard var channel = channels[bookID] else { return nil }
      try channel.list.apply(message)
      channels[bookID] = channel
      return (channel.list, Array(channel.sockets.values))
    }
    guard let (list, sockets) = changed else { return }
    let text = Self.message(list).jsonString
    write(list.json.jsonString, bookID: bookID)
    for socket in sockets { socket.send(.text(text)) }
  }

  /// Stores a book's list on the writes queue; a failure is logged (the devices keep the list,
  /// and the next change stores it whole again).
  private func write(_ items: String, bookID: String) {
    guard let store else { return }
    writes.async { [log] in
      do {
        try store.setShoppingList(bookID: bookID, items: items)
      } catch {
        log.error("the shopping list of a book could not be stored: \(error)")
      }
    }
  }

  /// Removes a device; the book's channel goes when its last device does.
  func close(bookID: String, socket: WebSocket) {
    channels.withLock { channels in
      channels[bookID]?.sockets[socket.id] = nil
      if channels[bookID]?.sockets.isEmpty == true { channels[bookID] = nil }
    }
  }

  private static func message(_ list: ShoppingList) -> JSONValue {
    .object(["type": "list", "items": list.json])
  }
}
