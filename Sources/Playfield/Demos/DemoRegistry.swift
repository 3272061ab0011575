import JSON
import Simulation

/// What code outside the app (the model tests, the fuzzers, `playfield demos`) reads of
/// `Demo.all`, the one registry of demos: every list of demos or models is derived from it.
public enum DemoRegistry {
  /// Every session demo's model, in gallery order.
  public static let models: [any Simulation.Type] = Demo.all.compactMap(\.model)

  /// The model type for a kind such as `"maze"`, or nil (a page demo has none).
  public static func model(named kind: String) -> (any Simulation.Type)? {
    Demo.model(ofKind: kind)
  }

  /// The body of `GET /api/demos`: every demo, in gallery order (`playfield demos` prints it,
  /// for scripts and tests that need the list before a server runs).
  public static var listing: JSONValue { Demo.listing(Demo.all) }
}
