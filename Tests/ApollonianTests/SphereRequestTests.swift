import Testing

@testable import Apollonian

@Suite("Spheres URL parsing")
struct SphereRequestTests {
  @Test func theSeedURLParses() throws {
    let request = try SphereRequest.parse(radius: "1", level: "7")
    #expect(request == SphereRequest(radius: 1, level: 7))
  }

  @Test func suffixesAndSurfaceChooseTheForm() throws {
    let binary = try SphereRequest.parse(radius: "2.5", level: "10.bin", query: [("surface", "1")])
    #expect(binary.format == .binary && binary.formatInPath && binary.surface)
    #expect(binary.radius == 2.5 && binary.level == 10)
    let json = try SphereRequest.parse(radius: "1e-3", level: "0.json")
    #expect(json.format == .json && json.formatInPath && json.radius == 0.001)
    let off = try SphereRequest.parse(radius: ".5", level: "3", query: [("surface", "0")])
    #expect(!off.surface && off.radius == 0.5)
  }

  @Test(arguments: [
    "0", "-1", "abc", "", "inf", "nan", "1e400", "0x10", "+1", "1e", "..5", "2e9", "1e-400",
    "0.0", "-1e-400",
  ])
  func badRadiiNameTheRadius(text: String) {
    do {
      _ = try SphereRequest.parse(radius: Substring(text), level: "3")
      Issue.record("radius \(text) was accepted")
    } catch {
      #expect(error.field == "radius")
      #expect(error.message.contains("radius"))
      if text == "1e-400" { #expect(error.message.contains("too small for a double")) }
    }
  }

  @Test(arguments: ["11", "-1", "x", "", "3.5", "1000", "7.png", "+3", "99999"])
  func badLevelsNameTheLevel(text: String) {
    do {
      _ = try SphereRequest.parse(radius: "1", level: Substring(text))
      Issue.record("level \(text) was accepted")
    } catch {
      #expect(error.field == "level")
      #expect(error.message.contains("0 to 10") || error.message.contains("from 0"))
    }
  }

  @Test func aBadSurfaceValueNamesSurface() {
    do {
      _ = try SphereRequest.parse(radius: "1", level: "3", query: [("surface", "maybe")])
      Issue.record("surface=maybe was accepted")
    } catch {
      #expect(error.field == "surface")
    }
  }
}
