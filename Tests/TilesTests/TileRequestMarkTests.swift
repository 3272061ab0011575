import Testing
import Tiles

@Suite("Tile paths with combining marks")
struct TileRequestMarkTests {
  @Test(
    "a digit carrying a combining mark is not a number, and does not crash",
    arguments: ["1\u{5A1}3", "3\u{301}", "1\u{5A1}"])
  func marked(text: String) {
    #expect(throws: TileRequestError.self) {
      _ = try TileRequest.parse(zoom: Substring(text), x: "0", y: "0", query: nil)
    }
    #expect(throws: TileRequestError.self) {
      _ = try TileRequest.parse(zoom: "3", x: "0", y: "0", query: Substring("iter=\(text)"))
    }
  }
}
