import Simulation

extension Demo {
  /// Bouncing balls; the gallery's preview has more, smaller and livelier balls than the
  /// model's defaults (the seed's two), and so has a new session from the page.
  static let bouncingBalls = Demo(
    session: BouncingBalls.self, seed: "SpaceBalls", group: .simulations, frame: Frame(360, 580),
    showcase: Showcase(
      config: [
        "balls": 24, "radiusMin": 6, "radiusMax": 16, "speedMin": 60, "speedMax": 220,
      ], pageStartsAlike: true))
}
