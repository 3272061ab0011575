/// The registry of every simulation kind the app serves.
public enum Simulations {
  /// Every model type, in gallery order.
  public static let all: [any Simulation.Type] = [
    BouncingBalls.self, MazeBall.self, Holes.self, TagCloud.self, Paintbrush.self,
    StreetSoccer.self,
  ]

  /// The model type for a kind such as `"maze"`, or nil.
  public static func named(_ kind: String) -> (any Simulation.Type)? {
    all.first { $0.kind == kind }
  }
}
