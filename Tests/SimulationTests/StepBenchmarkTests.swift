import Foundation
import JSON
import Testing

@testable import Simulation

/// Step-time benchmarks, skipped unless `PLAYFIELD_BENCH=1`; run them in release mode:
/// `PLAYFIELD_BENCH=1 swift test -c release --filter StepBenchmark` (see Benchmarks/simulation).
@Suite(
  "Step benchmark", .enabled(if: ProcessInfo.processInfo.environment["PLAYFIELD_BENCH"] == "1"))
struct StepBenchmarkTests {
  private static let clock = ContinuousClock()

  /// CPU time of this thread in seconds: on a shared machine, wall time also counts waiting.
  static func threadTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
  }

  private static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
  }

  /// Mean, median, p99 and max of `samples` in milliseconds.
  static func summary(_ samples: [Double]) -> String {
    let sorted = samples.sorted()
    let mean = samples.reduce(0, +) / Double(samples.count)
    let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
    return String(
      format: "mean %.3f ms, p50 %.3f ms, p99 %.3f ms, max %.3f ms", mean * 1e3,
      sorted[sorted.count / 2] * 1e3, p99 * 1e3, sorted.last! * 1e3)
  }

  @Test(
    "bouncing balls step time",
    arguments: [
      (
        1_000,
        [
          "balls": 1_000, "width": 800, "height": 600, "radiusMin": 3, "radiusMax": 6,
          "speedMin": 30, "speedMax": 150,
        ] as JSONValue
      ),
      (
        10_000,
        [
          "balls": 10_000, "width": 1_600, "height": 1_000, "radiusMin": 2, "radiusMax": 4,
          "speedMin": 30, "speedMax": 150,
        ] as JSONValue
      ),
    ])
  func bouncingBalls(_ count: Int, _ config: JSONValue) throws {
    var model = try BouncingBalls(config: config, seed: 1)
    for _ in 0..<60 { _ = model.step(parsing: []) }
    var steps: [Double] = []
    var stepsCPU: [Double] = []
    var frames: [Double] = []
    var bytes = 0
    var collisions = 0
    var substeps = 0
    var writer = JSONWriter(capacity: 1 << 18)
    for _ in 0..<1_200 {
      let cpu = Self.threadTime()
      let start = Self.clock.now
      _ = model.step(parsing: [])
      let stepped = Self.clock.now
      stepsCPU.append(Self.threadTime() - cpu)
      substeps += model.substeps
      writer.reset()
      writer.beginObject()
      writer.field("type", "frame")
      writer.field("tick", Int(model.tick))
      model.writeFrame(into: &writer)
      writer.endObject()
      steps.append(Self.seconds(stepped - start))
      frames.append(Self.seconds(Self.clock.now - stepped))
      bytes = writer.bytes.count
      collisions += model.state.collisions
    }
    let snapshotStart = Self.clock.now
    let snapshot = model.snapshot()
    let snapshotTime = Self.seconds(Self.clock.now - snapshotStart)
    let restoreStart = Self.clock.now
    _ = try BouncingBalls(snapshot: snapshot)
    let restoreTime = Self.seconds(Self.clock.now - restoreStart)
    print("BENCH bouncing-balls \(count) balls, 1200 ticks:")
    print("BENCH   step (wall): \(Self.summary(steps))")
    print("BENCH   step (CPU):  \(Self.summary(stepsCPU))")
    print(
      "BENCH   \(collisions / 1_200) collisions and "
        + "\(String(format: "%.1f", Double(substeps) / 1_200)) substeps per tick")
    print("BENCH   frame: \(Self.summary(frames)); \(bytes) bytes")
    print(
      "BENCH   snapshot \(snapshot.count) bytes in \(String(format: "%.2f", snapshotTime * 1e3)) ms, "
        + "restore \(String(format: "%.2f", restoreTime * 1e3)) ms")
    #expect(model.state.balls.count == count)
  }

  @Test("other models' step time", arguments: Scenario.all)
  func otherModels(_ scenario: Scenario) throws {
    var model = try scenario.start()
    var steps: [Double] = []
    for tick in 0..<scenario.steps {
      let messages = scenario.inputs(tick).compactMap { try? scenario.type.normalized($0) }
      let start = Self.clock.now
      _ = model.step(parsing: messages)
      steps.append(Self.seconds(Self.clock.now - start))
    }
    print("BENCH \(scenario.type.kind) scenario, \(scenario.steps) ticks: \(Self.summary(steps))")
  }
}
