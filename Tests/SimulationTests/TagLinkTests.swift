import JSON
import Simulation
import Testing

@Suite("Tag links are read the way a browser reads them")
struct TagLinkTests {
  static let rule =
    "must start with http://HOST, https://HOST or a single /, with no backslash or space"

  @Test(
    "links that leave the site or hide a scheme are refused",
    arguments: [
      "/\\evil.example", "\\\\evil.example", "/\\/evil.example", "/\t/evil.example",
      "/\n/evil.example", "http:\\\\evil.example", "https://", "http:///path", "http://@evil",
      "https://:443/", "/a b", "//evil.example", "javascript:alert(1)", "\u{7F}/x",
    ])
  func refused(url: String) {
    let error = #expect(throws: SimulationError.self) {
      _ = try TagCloud(config: ["tags": [["text": "x", "url": .string(url)]]], seed: 1)
    }
    #expect(error?.field == "tags[0].url")
    // Control characters are refused by the text reader first, with its own message.
    if !url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      #expect(error?.message == Self.rule)
    }
  }

  @Test(
    "web links and site paths are kept",
    arguments: [
      "/demos/maze", "/", "https://example.com", "http://example.com:8080/a?b#c",
      "https://user@example.com/x", "/search?q=a%20b", "",
    ])
  func kept(url: String) throws {
    let model = try TagCloud(config: ["tags": [["text": "x", "url": .string(url)]]], seed: 1)
    #expect(model.config["tags"]?[0]?["url"] == .string(url))
  }
}
