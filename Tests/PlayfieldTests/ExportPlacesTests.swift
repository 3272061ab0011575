import Testing

@testable import Playfield

/// Book exports take a place before reading the book and give it back when their answer is
/// freed: one per address, a few across the server.
@Suite struct ExportPlacesTests {
  @Test func onePerAddressAndFewInAll() throws {
    let places = ExportPlaces(capacity: 2)
    var first: ExportPlaces.Place? = try places.take(for: "10.0.0.1")
    #expect(throws: ExportPlaces.Refusal.address) { try places.take(for: "10.0.0.1") }
    let second = try places.take(for: "10.0.0.2")
    #expect(throws: ExportPlaces.Refusal.server) { try places.take(for: "10.0.0.3") }
    #expect(places.count == 2)
    // The first answer freed (written, or its connection closed): its address may ask again.
    first = nil
    #expect(places.count == 1)
    let again = try places.take(for: "10.0.0.1")
    #expect(places.count == 2)
    _ = (first, second, again)
  }
}
