import JSON
import Server
import Storage
import WebSocket

/// `/ws/recipes/shopping`: one device's connection to its book's shopping list. A read-only
/// link sees the list and cannot change it.
struct ShoppingSocketHandler: WebSocketHandler {
  let hub: ShoppingHub
  let bookID: String
  let canChange: Bool
  /// It came with a read or read-write link, which the owner may replace or revoke.
  let viaLink: Bool
  /// Who is charged for the changes this device sends.
  let client: String

  func opened(_ socket: WebSocket) {
    hub.open(bookID: bookID, socket: socket, viaLink: viaLink)
  }

  func received(_ message: WebSocketMessage, on socket: WebSocket) {
    do throws(ShoppingListError) {
      guard canChange else { throw ShoppingListError("this link can only read the list") }
      // NB: its size is bounded by the socket (`--shopping-message-bytes`, close 1009).
      guard case .text(let text) = message else {
        throw ShoppingListError("send a JSON object as a text message")
      }
      // NB: charged before it is parsed: past its share a client's messages cost no parsing.
      try hub.charge(client)
      guard let value = try? JSONValue.parse(text, maxDepth: 8) else {
        throw ShoppingListError("send a JSON object")
      }
      hub.apply(value, bookID: bookID, from: socket)
    } catch {
      hub.refuse(error, to: [socket])
    }
  }

  func closed(_ socket: WebSocket, code: WebSocketCloseCode?, reason: String) {
    hub.close(bookID: bookID, socket: socket)
  }
}
