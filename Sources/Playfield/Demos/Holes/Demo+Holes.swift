import Simulation

extension Demo {
  /// Holes, with its high-score table (`/api/highscores`).
  static let holes = Demo(
    session: Holes.self, seed: "Return to HOLES", group: .simulations, frame: Frame(360, 580),
    routes: { context in
      HighScoreAPI(model: Holes.self, registry: context.registry, store: context.store).routes
    })
}
