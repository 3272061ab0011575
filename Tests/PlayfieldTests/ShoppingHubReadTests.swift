import Dispatch
import Foundation
import HTTP
import JSON
import Testing

@testable import Playfield
@testable import Server
@testable import Storage

/// The shopping hub's reads of a book's list, on a real store made slow: the test holds the
/// store's one reader connection, so the hub's reads wait, in order, behind it.
@Suite struct ShoppingHubReadTests {
  private func storedNames(_ store: SQLiteSessionStore) throws -> [String] {
    let stored = try JSONValue.parse(try store.shoppingList(bookID: "book")?.items ?? "[]")
    return (stored.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
  }

  @Test("a read for a channel that closed while it waited keeps the next channel's newer list")
  func staleReadKeepsTheNewerList() throws {
    let app = try TestApplication()
    defer { app.shutdown() }
    let store = try #require(app.application.journal?.store as? SQLiteSessionStore)
    try store.createRecipeBook(id: "book", ownerToken: "owner", client: nil, at: 0)
    let hub = ShoppingHub(store: store)
    let loop = try EventLoop(index: 0)
    let (first, second) = (WebSocket.unopened(on: loop), WebSocket.unopened(on: loop))

    let (held, letGo) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    // NB: a thread of its own, which starts at once however busy the global queue is.
    Thread {
      _ = try? store.withReader { _ in
        held.signal()
        _ = letGo.wait(timeout: .now() + 30)
      }
    }.start()
    #expect(held.wait(timeout: .now() + 10) == .success)
    // The first device's channel: its read waits for the reader.
    hub.open(bookID: "book", socket: first, viaLink: false)
    // It leaves before the list is in: its channel goes (nothing to store).
    hub.close(bookID: "book", socket: first)
    // The next device makes a new channel, whose read queues behind the first one, and sends a
    // change, kept until a read lands.
    hub.open(bookID: "book", socket: second, viaLink: false)
    let milk: JSONValue = [
      "type": "add", "items": [["name": "milk", "amount": 1, "unit": "", "aisle": "other"]],
    ]
    hub.apply(milk, bookID: "book", from: second)
    letGo.signal()
    // The first read lands in the new channel and applies the change (the device is sent
    // `milk`); the second read must not put the stored `[]` over it. Before, it did: the
    // device was sent `[]` next, and `[]` was stored.
    let deadline = Date().addingTimeInterval(10)
    while try storedNames(store) != ["milk"], Date() < deadline {
      Thread.sleep(forTimeInterval: 0.02)
    }
    #expect(try storedNames(store) == ["milk"])
  }
}
