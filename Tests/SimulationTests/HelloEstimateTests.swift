import JSON
import Testing

@testable import Simulation

/// `helloBytesEstimate` is what tells the server, before encoding, that a joiner's hello is big
/// (charged to the joiner): it must not fall short of the real size of a bulky state, nor be so
/// far above it that ordinary hellos count as big.
@Suite struct HelloEstimateTests {
  static func helloBytes(_ model: some Simulation) -> Int {
    var writer = JSONWriter()
    writer.beginObject()
    model.writeHello(into: &writer)
    writer.endObject()
    return writer.bytes.count
  }

  /// A canvas of `marks` marks of `perMark` points each, at coordinates near `corner`.
  static func canvas(marks: Int, perMark: Int, corner: Double) throws -> Paintbrush {
    var model = try Paintbrush(
      config: ["width": 4096, "height": 4096, "maxPoints": 250_000, "maxStrokes": 10_000], seed: 1)
    for mark in 0..<marks {
      var points: [JSONValue] = []
      for k in 0..<perMark {
        points.append(.number(corner - Double(k % 7) - 0.37))
        points.append(.number(corner - Double(mark % 11) - 0.61))
      }
      let input: JSONValue = [
        "type": "stroke", "author": "painter", "stroke": .number(Double(mark)),
        "color": "#ffffff", "radius": 12.345678901234, "points": .array(points),
      ]
      _ = model.step(parsing: [try #require(try Paintbrush.normalized(input))])
    }
    return model
  }

  @Test(arguments: [
    (marks: 976, perMark: 256, corner: 4095.0),  // the most points, the longest coordinates
    (marks: 976, perMark: 256, corner: 99.0),
    (marks: 2_000, perMark: 1, corner: 4095.0),  // dots: marks without points
  ])
  func aCanvasIsEstimatedAtOrAboveItsSizeAndWithinTwice(marks: Int, perMark: Int, corner: Double)
    throws
  {
    let model = try Self.canvas(marks: marks, perMark: perMark, corner: corner)
    #expect(model.state.marks.count == marks)
    let real = Self.helloBytes(model)
    #expect(model.helloBytesEstimate >= real)
    #expect(model.helloBytesEstimate <= 2 * real)
  }

  @Test func ballsAreEstimatedAtOrAboveTheirSizeAndWithinTwice() throws {
    var model = try BouncingBalls(
      config: ["balls": 10_000, "width": 10_000, "height": 10_000], seed: 3)
    for _ in 0..<30 { _ = model.step(parsing: []) }
    let real = Self.helloBytes(model)
    #expect(real > 150_000)
    #expect(model.helloBytesEstimate >= real)
    #expect(model.helloBytesEstimate <= 2 * real)
  }

  @Test func smallStatesAreEstimatedSmall() throws {
    #expect(try Paintbrush(config: [:], seed: 1).helloBytesEstimate < 4096)
    #expect(try BouncingBalls(config: ["balls": 5], seed: 1).helloBytesEstimate < 4096)
    #expect(try MazeBall(config: [:], seed: 1).helloBytesEstimate == 0)
  }
}
