import JSON
import Testing

@testable import Simulation

@Suite("Paintbrush")
struct PaintbrushTests {
  /// The final state hash of `script`; pins strokes, continuation, undo, clear and bounds.
  static let goldenHash: UInt64 = 13_682_611_954_836_865_995

  /// Three painters for 1,200 ticks: wavy strokes in batches, undos, a CLEAR, a refused stroke.
  static func script(_ tick: Int) -> [JSONValue] {
    var inputs: [JSONValue] = []
    for painter in 0..<3 where (tick + painter * 7) % 5 == 0 {
      let number = (tick + painter * 40) / 60
      var points: [JSONValue] = []
      for k in 0..<6 {
        let t = Double(tick * 6 + k)
        points.append(.number(Double((tick * 3 + k * 5 + painter * 150) % 640) + 0.37))
        points.append(.number(240 + 180 * DeterministicMath.sin(t * 0.01 + Double(painter))))
      }
      let color = Paintbrush.palette[(number + painter) % 5]
      inputs.append([
        "type": "stroke", "author": .string("painter-\(painter)"), "stroke": .number(number),
        "color": .string(color), "radius": .number(Double(4 + painter * 3)),
        "points": .array(points),
      ])
    }
    if tick % 170 == 169 { inputs.append(["type": "undo", "author": "painter-1"]) }
    if tick == 700 { inputs.append(["type": "clear"]) }
    return inputs
  }

  static func run(_ model: inout Paintbrush, from start: Int, to end: Int) -> Set<String> {
    var names: Set<String> = []
    for tick in start..<end {
      let inputs = script(tick).compactMap { try? Paintbrush.normalized($0) }
      for event in model.step(parsing: inputs) { names.insert(event.name) }
    }
    return names
  }

  static func stroke(
    _ author: String, _ number: Int, _ points: [Double], color: String = "#ffffff",
    radius: Double = 10
  ) -> JSONValue {
    [
      "type": "stroke", "author": .string(author), "stroke": .number(number),
      "color": .string(color), "radius": .number(radius),
      "points": .array(points.map(JSONValue.number)),
    ]
  }

  /// One step with `inputs` (validated first, as the session does); returns the events.
  static func step(_ model: inout Paintbrush, _ inputs: JSONValue...) throws -> [SimulationEvent] {
    model.step(parsing: try inputs.map { try #require(try Paintbrush.normalized($0)) })
  }

  @Test func goldenStateHash() throws {
    var model = try Paintbrush(config: ["maxStrokes": 20], seed: 5)
    let events = Self.run(&model, from: 0, to: 1_200)
    #expect(events == ["paint", "input-rejected"])
    #expect(model.tick == 1_200)
    #expect(model.stateHash == Self.goldenHash, "\(model.stateHash)")
  }

  @Test func snapshotRestoreAndContinueEqualsTheStraightRun() throws {
    var straight = try Paintbrush(config: ["maxStrokes": 20], seed: 5)
    _ = Self.run(&straight, from: 0, to: 1_200)
    for cut in [0, 333, 701] {
      var first = try Paintbrush(config: ["maxStrokes": 20], seed: 5)
      _ = Self.run(&first, from: 0, to: cut)
      var resumed = try Paintbrush(snapshot: first.snapshot())
      #expect(resumed.snapshot() == first.snapshot())
      _ = Self.run(&resumed, from: cut, to: 1_200)
      #expect(resumed.stateHash == straight.stateHash)
    }
  }

  @Test func replayOfTheLoggedInputsGivesTheSameHello() throws {
    var live = try Paintbrush(config: [:], seed: 1)
    var replay = try Paintbrush(config: [:], seed: 1)
    for tick in 0..<400 {
      let logged = Self.script(tick).compactMap { try? Paintbrush.normalized($0) }
      let reparsed = try logged.map { try JSONValue.parse($0.serialized()) }
      #expect(live.step(parsing: logged) == replay.step(parsing: reparsed))
    }
    var a = JSONWriter()
    var b = JSONWriter()
    live.writeHello(into: &a)
    replay.writeHello(into: &b)
    #expect(a.bytes == b.bytes)
  }

  @Test func aContinuingBatchJoinsThePreviousPointAndOneEventCarriesTheTick() throws {
    var model = try Paintbrush(config: [:], seed: 1)
    let first = try Self.step(&model, Self.stroke("ann", 1, [10, 10, 20, 20]))
    #expect(first.count == 1 && first[0].name == "paint")
    #expect(first[0].fields["from"] == 0 && first[0].fields["version"] == 1)
    let events = try Self.step(
      &model, Self.stroke("ann", 1, [30, 30]), Self.stroke("bob", 1, [5, 5], color: "#FF0000"))
    #expect(events.count == 1)
    #expect(events[0].fields["from"] == 1 && events[0].fields["version"] == 3)
    #expect(model.state.strokes.map(\.id) == [1, 2])
    #expect(model.state.marks.map(\.points) == [[10, 10, 20, 20], [20, 20, 30, 30], [5, 5]])
    #expect(model.state.marks[2].color == "#ff0000")
    #expect(model.state.pointCount == 5)
    // A new number from the same author starts a new stroke.
    _ = try Self.step(&model, Self.stroke("ann", 2, [1, 1]))
    #expect(model.state.strokes.map(\.id) == [1, 2, 3])
  }

  @Test func pointsAreRoundedAndClampedToTheCanvas() throws {
    var model = try Paintbrush(config: ["width": 100, "height": 80], seed: 1)
    _ = try Self.step(&model, Self.stroke("ann", 1, [12.345, 0.04, 4000, 4096]))
    #expect(model.state.marks[0].points == [12.3, 0, 100, 80])
  }

  @Test func undoRemovesOnlyTheAuthorsLastStroke() throws {
    var model = try Paintbrush(config: [:], seed: 1)
    _ = try Self.step(&model, Self.stroke("ann", 1, [1, 1, 2, 2]))
    _ = try Self.step(&model, Self.stroke("bob", 1, [3, 3]))
    _ = try Self.step(&model, Self.stroke("ann", 2, [4, 4]))
    _ = try Self.step(&model, Self.stroke("ann", 2, [5, 5]))
    let events = try Self.step(&model, ["type": "undo", "author": "ann"])
    #expect(events[0].fields["ops"] == [["op": "undo", "stroke": 3]])
    #expect(model.state.strokes.map(\.id) == [1, 2])
    #expect(model.state.marks.map(\.stroke) == [1, 2])
    #expect(model.state.pointCount == 3)
    _ = try Self.step(&model, ["type": "undo", "author": "ann"])
    #expect(model.state.strokes.map(\.author) == ["bob"])
    let nothing = try Self.step(&model, ["type": "undo", "author": "ann"])
    #expect(nothing.map(\.name) == ["input-rejected"])
    #expect(model.state.version == 6)
  }

  @Test func clearEmptiesTheCanvasAndIdsGoOn() throws {
    var model = try Paintbrush(config: [:], seed: 1)
    _ = try Self.step(&model, Self.stroke("ann", 1, [1, 1]), Self.stroke("bob", 1, [2, 2]))
    let events = try Self.step(&model, ["type": "clear"])
    #expect(events[0].fields["ops"] == [["op": "clear"]])
    #expect(model.state.strokes.isEmpty && model.state.marks.isEmpty && model.state.pointCount == 0)
    _ = try Self.step(&model, Self.stroke("ann", 1, [1, 1]))
    #expect(model.state.strokes.map(\.id) == [3])
    _ = try Self.step(&model, ["type": "reset"])
    #expect(model.state.marks.isEmpty && model.state.version == 5)
  }

  @Test func strokeAndPointBoundsRefuseMoreUntilCleared() throws {
    var model = try Paintbrush(config: ["maxStrokes": 2, "maxPoints": 100], seed: 1)
    _ = try Self.step(&model, Self.stroke("ann", 1, [1, 1]), Self.stroke("ann", 2, [2, 2]))
    let refused = try Self.step(&model, Self.stroke("ann", 3, [3, 3]))
    #expect(refused.map(\.name) == ["input-rejected"])
    #expect(refused[0].fields["reason"]?.stringValue?.contains("canvas is full") == true)
    // The open stroke may still grow until the point bound.
    let points = [Double](repeating: 7, count: 2 * 97)
    #expect(try Self.step(&model, Self.stroke("ann", 2, points)).map(\.name) == ["paint"])
    #expect(model.state.pointCount == 100)
    #expect(try Self.step(&model, Self.stroke("ann", 2, [8, 8])).map(\.name) == ["input-rejected"])
    _ = try Self.step(&model, ["type": "clear"])
    #expect(try Self.step(&model, Self.stroke("ann", 4, [3, 3])).map(\.name) == ["paint"])
  }

  @Test func badInputsNameTheField() {
    let cases: [(JSONValue, String)] = [
      (Self.stroke("ann", 1, [1]), "points"),
      (Self.stroke("ann", 1, []), "points"),
      (Self.stroke("ann", 1, [1, -1]), "points"),
      (Self.stroke("ann", 1, [1, 5000]), "points"),
      (Self.stroke("ann", 1, [Double](repeating: 1, count: 2 * 257)), "points"),
      (Self.stroke("ann", 1, [1, 1], color: "red"), "color"),
      (Self.stroke("ann", 1, [1, 1], color: "#12345g"), "color"),
      (Self.stroke("ann", 1, [1, 1], radius: 0), "radius"),
      (Self.stroke("ann", 1, [1, 1], radius: 51), "radius"),
      (Self.stroke("a b", 1, [1, 1]), "author"),
      (Self.stroke(String(repeating: "a", count: 33), 1, [1, 1]), "author"),
      (Self.stroke("ann", -1, [1, 1]), "stroke"),
      (
        ["type": "stroke", "author": "ann", "stroke": 1, "color": "#ffffff", "radius": 3], "points"
      ),
      (
        [
          "type": "stroke", "author": "ann", "stroke": 1, "color": "#ffffff", "radius": 3,
          "points": [1, "2"],
        ], "points"
      ),
      (["type": "undo"], "author"),
      (["type": "clear", "all": true], "all"),
    ]
    for (message, field) in cases {
      #expect(throws: SimulationError.self) { try Paintbrush.normalized(message) }
      do {
        _ = try Paintbrush.normalized(message)
      } catch {
        #expect(error.field == field, "\(message.serialized())")
      }
    }
    #expect((try? Paintbrush.normalized(["type": "tilt", "x": 0, "y": 0])) == .some(nil))
  }

  @Test func configBoundsAreChecked() {
    #expect(throws: SimulationError.self) { try Paintbrush(config: ["width": 10], seed: 1) }
    #expect(throws: SimulationError.self) { try Paintbrush(config: ["width": 5000], seed: 1) }
    #expect(throws: SimulationError.self) { try Paintbrush(config: ["maxStrokes": 0], seed: 1) }
    #expect(throws: SimulationError.self) { try Paintbrush(config: ["brushRadius": 60], seed: 1) }
    #expect(throws: SimulationError.self) { try Paintbrush(config: ["colour": 1], seed: 1) }
  }

  @Test func helloCarriesTheWholePictureAndFramesOnlyCounts() throws {
    var model = try Paintbrush(config: [:], seed: 1)
    _ = try Self.step(&model, Self.stroke("ann", 1, [10, 10.5, 20, 20]))
    var hello = JSONWriter()
    hello.beginObject()
    model.writeHello(into: &hello)
    hello.endObject()
    let parsed = try JSONValue.parse(hello.bytes)
    #expect(
      parsed["marks"] == [
        ["stroke": 1, "color": "#ffffff", "radius": 10, "points": [10, 10.5, 20, 20]]
      ])
    #expect(parsed["brushRadius"] == 10 && parsed["version"] == 1)
    #expect(hello.bytes.count < 600)
    #expect(String(decoding: hello.bytes, as: UTF8.self).contains("ann") == false)
    var frame = JSONWriter()
    frame.beginObject()
    model.writeFrame(into: &frame)
    frame.endObject()
    #expect(
      String(decoding: frame.bytes, as: UTF8.self) == #"{"version":1,"strokes":1,"points":2}"#)
  }

  @Test func damagedSnapshotsAreRejected() throws {
    var model = try Paintbrush(config: [:], seed: 1)
    _ = Self.run(&model, from: 0, to: 40)
    let bytes = model.snapshot()
    for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 200)) {
      #expect(throws: SimulationError.self) { try Paintbrush(snapshot: Array(bytes[0..<length])) }
    }
    var damaged = model
    damaged.state.pointCount += 1
    #expect(throws: SimulationError.self) { try Paintbrush(snapshot: damaged.snapshot()) }
    damaged = model
    damaged.state.marks[0].color = "white"
    #expect(throws: SimulationError.self) { try Paintbrush(snapshot: damaged.snapshot()) }
  }
}
