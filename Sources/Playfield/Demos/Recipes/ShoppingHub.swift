import JSON
import Server
import Storage
import Synchronization
import WebSocket

/// The live shopping lists: for each book with a device connected, its list and the sockets
/// to tell. Every change is stored (`recipe_books.shopping`) and sent, whole, to every device
/// of the book, the sender included, in the order the changes were applied.
final class ShoppingHub: Sendable {
  private struct Channel {
    var list: ShoppingList
    var sockets: [UInt64: WebSocket] = [:]
  }

  private let store: (any SessionStore)?
  private let channels = Mutex<[String: Channel]>([:])

  init(store: (any SessionStore)?) {
    self.store = store
  }

  /// Adds a device to the book's channel and sends it the list.
  func open(bookID: String, socket: WebSocket) {
    let stored = (try? store?.shoppingList(bookID: bookID)) ?? "[]"
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
    try? store?.setShoppingList(bookID: bookID, items: list.json.jsonString)
    for socket in sockets { socket.send(.text(text)) }
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
