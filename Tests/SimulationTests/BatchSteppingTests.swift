import JSON
import Testing

@testable import Simulation

/// Batch stepping's numbers are the frame's: the same rounding, bit for bit, and the same
/// action checks as the model's own input.
@Suite("Batch stepping")
struct BatchSteppingTests {
  /// The frame of `model` as parsed JSON.
  static func frame(of model: some Simulation) throws -> JSONValue {
    var writer = JSONWriter()
    writer.beginObject()
    model.writeFrame(into: &writer)
    writer.endObject()
    return try JSONValue.parse(String(decoding: writer.bytes, as: UTF8.self), maxDepth: 16)
  }

  @Test("a value rounded for a batch is the double a client parses from the frame's text")
  func roundingMatchesTheWriter() throws {
    var generator = SeededGenerator(seed: 7)
    var samples: [Double] = [0, 0.005, -0.005, 0.015, 2.675, -2.675, 1e15, 123.455, 319.995]
    for _ in 0..<2000 {
      samples.append(Double(generator.next() % 1_000_000) / 997 - 500)
    }
    for value in samples {
      for decimals in [2, 3] {
        var writer = JSONWriter()
        writer.number(value, decimals: decimals)
        let parsed = try #require(Double(String(decoding: writer.bytes, as: UTF8.self)))
        var values = BatchValues()
        values.append(value, decimals: decimals)
        #expect(values.values[0].bitPattern == parsed.bitPattern, "\(value) to \(decimals)")
      }
    }
  }

  @Test("holes: the batch numbers equal the frame's, tick after tick, ball lost or not")
  func holesNumbersAreTheFrames() throws {
    var model = try Holes(config: ["holes": [[0.5, 0.97], [0.2, 0.3]]], seed: 3)
    #expect(model.batchFields.count == 9 + 4)
    var phases: Set<String> = []
    for tick in 0..<900 {
      let tilt = try Holes.batchInput([tick % 200 < 100 ? -1 : 0.3, tick % 70 < 35 ? 1 : -0.5])
      _ = model.step(checked: [tilt])
      let frame = try Self.frame(of: model)
      var values = BatchValues()
      model.writeBatchValues(into: &values)
      let row = Dictionary(uniqueKeysWithValues: zip(model.batchFields, values.values))
      let ball = frame["ball"]?.arrayValue
      #expect(row["ballPresent"] == (ball == nil ? 0 : 1))
      #expect(row["ballX"] == (ball?[0].doubleValue ?? 0))
      #expect(row["ballY"] == (ball?[1].doubleValue ?? 0))
      #expect(row["holeRadius"] == frame["holeRadius"]?.doubleValue)
      #expect(row["score"] == frame["score"]?.doubleValue)
      #expect(row["ballsLeft"] == frame["ballsLeft"]?.doubleValue)
      #expect(row["level"] == frame["level"]?.doubleValue)
      #expect(row["gameOver"] == (frame["gameOver"]?.boolValue == true ? 1 : 0))
      let names = ["playing", "lost", "scored", "over"]
      #expect(row["phase"].map { names[Int($0)] } == frame["phase"]?.stringValue)
      phases.insert(frame["phase"]?.stringValue ?? "")
      let holes = try #require(frame["holes"]?.arrayValue).map(\.doubleValue)
      #expect(Array(values.values[9...]) == holes.compactMap { $0 })
    }
    #expect(phases.isSuperset(of: ["playing", "lost"]), "the run lost a ball: \(phases)")
  }

  @Test("maze: the batch numbers equal the frame's")
  func mazeNumbersAreTheFrames() throws {
    var model = try MazeBall(config: [:], seed: 1)
    for tick in 0..<300 {
      _ = model.step(checked: [try MazeBall.batchInput([tick < 150 ? -0.7 : 0.4, 0.25])])
      let frame = try Self.frame(of: model)
      var values = BatchValues()
      model.writeBatchValues(into: &values)
      let expected = [
        frame["ball"]?[0], frame["ball"]?[1], frame["tilt"]?[0], frame["tilt"]?[1],
        frame["revision"],
      ].map { $0?.doubleValue }
      #expect(values.values == expected.compactMap { $0 })
    }
  }

  @Test("an action is checked as the model's tilt is: range, NaN, infinity")
  func actionsAreChecked() throws {
    let good = try Holes.batchInput([0.5, -2])
    #expect(good.json == ["type": "tilt", "x": 0.5, "y": -2])
    #expect(try Holes.normalized(good.json) == good.json)
    for bad in [[2.5, 0], [0, -2.01], [.nan, 0], [0, .infinity]] {
      #expect(throws: SimulationError.self) { try Holes.batchInput(bad) }
      #expect(throws: SimulationError.self) { try MazeBall.batchInput(bad) }
    }
    #expect(throws: SimulationError(field: "x", message: "must be a number from -2 to 2")) {
      try Holes.batchInput([3, 0])
    }
  }

  @Test("a batch action's logged text is exactly its message's serialization")
  func actionTextIsTheSerializedMessage() throws {
    var generator = SeededGenerator(seed: 11)
    var samples: [Double] = [0, -0.0, 2, -2, 0.1, 1e-7, -1.9999999999999998, 0.30000000000000004]
    for _ in 0..<500 {
      samples.append(Double(generator.next() % 4_000_001) / 1_000_000 - 2)
    }
    for (x, y) in zip(samples, samples.reversed()) {
      let message: JSONValue = ["type": "tilt", "x": .number(x), "y": .number(y)]
      for input in [try Holes.batchInput([x, y]), try MazeBall.batchInput([x, y])] {
        #expect(input.loggedText == message.jsonString)
        #expect(input.loggedSize == message.serialized().count)
        #expect(input.json == message)
      }
    }
  }

  @Test("a model held as any Simulation gives its batch values only if it takes batch steps")
  func batchValuesThroughTheSimulationRequirement() throws {
    let holes = try Holes(config: ["holes": [[0.5, 0.97], [0.2, 0.3]]], seed: 3)
    var direct = BatchValues()
    holes.writeBatchValues(into: &direct)
    let models: [any Simulation] = [holes, try BouncingBalls(config: ["balls": 2], seed: 7)]
    var values = BatchValues()
    #expect(models[0].appendBatchValues(into: &values))
    #expect(values.values.map(\.bitPattern) == direct.values.map(\.bitPattern))
    #expect(values.values.count == holes.batchFields.count)
    #expect(!models[1].appendBatchValues(into: &values))
    #expect(values.values.count == holes.batchFields.count)
  }
}
