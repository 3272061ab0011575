import JSON

/// Labels on a turning sphere (seed "3D Tag Cloud"): golden-section spiral placement, rotation
/// matrices driven by drags, inertia after release, depth shown by scale, opacity and order.
public struct TagCloud: ConfiguredModel {
  public static let kind = "tag-cloud"
  public static let title = "Tag cloud"
  public static let summary = "Labels on a sphere you can spin: drag it and let go."

  let settings: Config
  let seed: UInt64
  public internal(set) var tick: UInt64 = 0
  var state: State

  init(settings: Config, seed: UInt64) {
    self.settings = settings
    self.seed = seed
    state = State(config: settings)
  }

  func validateRestoredState() throws(SimulationError) {
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
