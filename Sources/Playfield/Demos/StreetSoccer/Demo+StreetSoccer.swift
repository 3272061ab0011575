import Simulation

extension Demo {
  /// Street soccer: two people (the creator's page hands out the other side's link) or one
  /// against a computer; the gallery's preview is two computers playing each other.
  static let streetSoccer = Demo(
    session: StreetSoccer.self, seed: "Streetsoccer", group: .simulations,
    frame: Frame(640, 620),
    showcase: Showcase(config: [
      "home": "novice", "away": "defensive", "turnsPerSide": 10, "computerDelay": 60,
    ]))
}
