import Simulation

/// One demo of the gallery: its URL name, title, and one line about it.
struct Demo: Sendable, Equatable {
  /// The name in `/demos/NAME`.
  var name: String
  var title: String
  var summary: String
  /// Its seed app, for the gallery card.
  var seed: String
  /// Whether it is a server-side simulation with a session (else a page that only fetches).
  var simulation: Bool

  /// Every demo this build serves, in gallery order: the simulations, then the explorers.
  static let all: [Demo] =
    Simulations.all.map { type in
      Demo(
        name: type.kind, title: type.title, summary: type.summary,
        seed: seeds[type.kind] ?? type.title, simulation: true)
    } + [
      Demo(
        name: "mandelbrot", title: "Mandelbrot explorer",
        summary:
          "Tap a quadrant to zoom 2x, or drag, wheel and pinch through server-rendered tiles.",
        seed: "iOS – Mandelbrot", simulation: false),
      Demo(
        name: "accelerometer", title: "Accelerometer",
        summary: "x, y, z and magnitude in g with their extremes, a polar grid and a rolling plot.",
        seed: "Accelerometer", simulation: false),
      Demo(
        name: "color-picker", title: "Colour picker",
        summary: "A hue ring around a saturation and brightness box, as a reusable web component.",
        seed: "HSV colour picker", simulation: false),
    ]

  /// The iOS sample each demo re-creates.
  static let seeds = [
    "bouncing-balls": "SpaceBalls", "maze": "Maze", "holes": "Return to HOLES",
    "tag-cloud": "3D Tag Cloud",
  ]
}
