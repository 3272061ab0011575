import JSON

/// Labels on a turning sphere (seed "3D Tag Cloud"): golden-section spiral placement, rotation
/// matrices driven by drags, inertia after release, depth shown by scale, opacity and order.
public struct TagCloud: SnapshotModel {
  public static let kind = "tag-cloud"
  public static let title = "Tag cloud"
  public static let summary = "Labels on a sphere you can spin: drag it and let go."

  let settings: Config
  let seed: UInt64
  public internal(set) var tick: UInt64 = 0
  var state: State

  public init(config: JSONValue, seed: UInt64) throws(SimulationError) {
    settings = try Config(json: config)
    self.seed = seed
    state = State(config: settings)
  }

  public var config: JSONValue { settings.json }

  public static func input(from message: JSONValue) throws(SimulationError) -> JSONValue? {
    try Input(message: message)?.json
  }

  func validateRestored() throws(SimulationError) {
    guard try Config(json: settings.json) == settings else {
      throw SimulationError(field: "snapshot", message: "holds an invalid config")
    }
    let numbers = state.rotation.entries + [state.spin.x, state.spin.y, state.drag.x, state.drag.y]
    let tags = try? Tag.list(json: .array(state.tags.map(\.json)), field: "tags")
    guard numbers.allSatisfy(\.isFinite), tags == state.tags else {
      throw SimulationError(field: "snapshot", message: "holds an invalid orientation or tag list")
    }
  }

  /// N points spread evenly over the unit sphere by the golden-section spiral:
  /// h = π(3 − √5), s = 2/N, y = k s − 1 + s/2, r = √(1 − y²), φ = k h → (r cos φ, y, r sin φ).
  static func spiral(_ count: Int) -> [(x: Double, y: Double, z: Double)] {
    let increment = Double.pi * (3 - 5.0.squareRoot())
    let step = 2 / Double(count)
    return (0..<count).map { k in
      let y = Double(k) * step - 1 + step / 2
      let r = (1 - y * y).squareRoot()
      let phi = Double(k) * increment
      return (r * DeterministicMath.cos(phi), y, r * DeterministicMath.sin(phi))
    }
  }
}
