import Foundation
import HTTP
import JSON
import Synchronization
import Testing

@testable import Playfield
@testable import Server
@testable import Storage

/// A shopping-list change encodes the list once, for every device and the store alike. Before,
/// it was encoded twice: to send it, and again to store it.
@Suite struct ShoppingHubEncodeTests {
  @Test("each change encodes the list once, and the store holds what the devices were sent")
  func oneEncodingPerChange() throws {
    let app = try TestApplication()
    defer { app.shutdown() }
    let store = try #require(app.application.journal?.store as? SQLiteSessionStore)
    try store.createRecipeBook(id: "book", ownerToken: "owner", client: nil, at: 0)
    let encodings = Mutex<[String]>([])
    let hub = ShoppingHub(
      store: store,
      encode: { list in
        let text = list.json.jsonString
        encodings.withLock { $0.append(text) }
        return text
      })
    let loop = try EventLoop(index: 0)
    let socket = WebSocket.unopened(on: loop)
    hub.open(bookID: "book", socket: socket, viaLink: false)
    // The stored list is read and sent: one encoding.
    let deadline = Date().addingTimeInterval(10)
    while encodings.withLock({ $0.isEmpty }), Date() < deadline {
      Thread.sleep(forTimeInterval: 0.01)
    }
    #expect(encodings.withLock { $0 } == ["[]"])
    let changes = 5
    for number in 0..<changes {
      let add: JSONValue = [
        "type": "add",
        "items": [["name": .string("thing \(number)"), "amount": 1, "unit": "", "aisle": "other"]],
      ]
      hub.apply(add, bookID: "book", from: socket)
    }
    #expect(hub.flush(timeout: 10))
    let made = encodings.withLock { $0 }
    #expect(made.count == 1 + changes, "one encoding for the read list and one for each change")
    #expect(try store.shoppingList(bookID: "book")?.items == made.last)
  }
}
