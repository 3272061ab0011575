import Foundation
import JSON
import Testing

@testable import Simulation

@Suite("Tag cloud")
struct TagCloudTests {
  private func frame(_ model: TagCloud) throws -> JSONValue {
    var writer = JSONWriter()
    writer.beginObject()
    model.writeFrame(into: &writer)
    writer.endObject()
    return try JSONValue.parse(writer.bytes)
  }

  @Test func spiralPointsLieOnTheSphereInEvenBands() {
    let points = TagCloud.spiral(50)
    #expect(points.count == 50)
    for (k, point) in points.enumerated() {
      let length = (point.x * point.x + point.y * point.y + point.z * point.z).squareRoot()
      #expect(abs(length - 1) < 1e-12)
      #expect(abs(point.y - (Double(k) * 0.04 - 1 + 0.02)) < 1e-12)
    }
    let meanX = points.reduce(0) { $0 + $1.x } / 50
    let meanZ = points.reduce(0) { $0 + $1.z } / 50
    #expect(abs(meanX) < 0.05 && abs(meanZ) < 0.05)
  }

  @Test func deterministicSineAndCosineMatchTheLibrary() {
    var random = SeededGenerator(seed: 5)
    for _ in 0..<10_000 {
      let x = random.next(in: -1_000...1_000)
      #expect(abs(DeterministicMath.sin(x) - Foundation.sin(x)) < 1e-13)
      #expect(abs(DeterministicMath.cos(x) - Foundation.cos(x)) < 1e-13)
    }
    #expect(DeterministicMath.sin(0) == 0 && DeterministicMath.cos(0) == 1)
  }

  @Test func aQuarterTurnDragMovesTheFrontToTheRightAndDown() throws {
    var model = try TagCloud(config: ["autoRotate": 0], seed: 1)
    _ = model.step(parsing: [["type": "drag", "dx": .number(150 * Double.pi / 2), "dy": 0]])
    var front = model.state.rotation.apply(0, 0, 1)
    #expect(abs(front.x - 1) < 1e-12 && abs(front.z) < 1e-12)
    model = try TagCloud(config: ["autoRotate": 0], seed: 1)
    _ = model.step(parsing: [["type": "drag", "dx": 0, "dy": .number(150 * Double.pi / 2)]])
    front = model.state.rotation.apply(0, 0, 1)
    #expect(abs(front.y - 1) < 1e-12 && abs(front.z) < 1e-12)
  }

  @Test func releasedSpinDecaysToTheIdleSpin() throws {
    var model = try TagCloud(config: ["autoRotate": 0.6, "damping": 0.9], seed: 1)
    for _ in 0..<4 { _ = model.step(parsing: [["type": "drag", "dx": 30, "dy": -15]]) }
    #expect(model.state.dragging)
    let held = model.state.spin
    #expect(held.x > 0.1 && held.y < -0.05)
    _ = model.step(parsing: [["type": "release"]])
    let idle = Vector2(x: 0.01, y: 0)
    var expected = idle + (held - idle) * 0.9
    #expect((model.state.spin - expected).length < 1e-15)
    for _ in 0..<200 { _ = model.step(parsing: []) }
    for _ in 0..<200 { expected = idle + (expected - idle) * 0.9 }
    #expect((model.state.spin - expected).length < 1e-12)
    #expect((model.state.spin - idle).length < 1e-9)
  }

  @Test func rotationStaysOrthonormalOver100000Steps() throws {
    var model = try TagCloud(config: ["autoRotate": 5], seed: 1)
    for step in 0..<100_000 {
      let inputs: [JSONValue] = step % 1_000 < 10 ? [["type": "drag", "dx": 7, "dy": 3]] : []
      _ = model.step(parsing: step % 1_000 == 10 ? [["type": "release"]] : inputs)
    }
    let m = model.state.rotation
    let product =
      m
      * Matrix3(
        m00: m.m00, m01: m.m10, m02: m.m20, m10: m.m01, m11: m.m11, m12: m.m21, m20: m.m02,
        m21: m.m12, m22: m.m22)
    for (entry, identity) in zip(product.entries, Matrix3.identity.entries) {
      #expect(abs(entry - identity) < 1e-12)
    }
  }

  @Test func framesShowDepthAsScaleOpacityAndOrder() throws {
    var model = try TagCloud(config: ["minOpacity": 0.2], seed: 1)
    for _ in 0..<37 { _ = model.step(parsing: []) }
    let frame = try frame(model)
    let count = model.state.tags.count
    let scale = (frame["scale"]?.arrayValue ?? []).compactMap(\.doubleValue)
    let opacity = (frame["opacity"]?.arrayValue ?? []).compactMap(\.doubleValue)
    let order = (frame["order"]?.arrayValue ?? []).compactMap(\.intValue)
    #expect(frame["points"]?.arrayValue?.count == 2 * count)
    #expect(scale.count == count && opacity.count == count)
    #expect(scale.allSatisfy { (0.1...1).contains($0) })
    #expect(opacity.allSatisfy { (0.2...1).contains($0) })
    #expect(Set(order) == Set(0..<count))
    for (back, front) in zip(order, order.dropFirst()) { #expect(scale[back] <= scale[front]) }
  }

  @Test func tagsComeFromTheConfigAndInputsSafely() throws {
    let model = try TagCloud(
      config: ["tags": ["swift", ["text": "docs", "weight": 3, "url": "https://example.com"]]],
      seed: 1)
    #expect(model.config["tags"]?[0] == ["text": "swift", "weight": 1, "url": ""])
    #expect(model.sizes == [0.75, 1.5])
    let cases: [(JSONValue, String)] = [
      (
        ["tags": [["text": "x", "url": "javascript:alert(1)"]]],
        "tags[0].url: must start with http://HOST, https://HOST or a single /, with no backslash or space"
      ),
      (
        ["tags": [["text": "x", "url": "//evil.example"]]],
        "tags[0].url: must start with http://HOST, https://HOST or a single /, with no backslash or space"
      ),
      (
        ["tags": [""]], "tags[0]: must be a string of 1 to 64 characters without control characters"
      ),
      (["tags": []], "tags: must be an array of 1 to 200 tags"),
      (
        ["tags": [["text": "x", "size": 3]]],
        "tags[0].size: unknown field; known fields: text, url, weight"
      ),
    ]
    for (config, message) in cases {
      do {
        _ = try TagCloud(config: config, seed: 1)
        Issue.record("accepted \(config)")
      } catch {
        #expect(error.description == message)
      }
    }
    var running = model
    let events = running.step(parsing: [["type": "tags", "tags": ["a", "b", "c"]]])
    #expect(events.map(\.name) == ["tags"])
    #expect(events[0].fields["sizes"] == [1, 1, 1])
    #expect(try frame(running)["points"]?.arrayValue?.count == 6)
  }
}
