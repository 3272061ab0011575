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
  /// The gallery shelf it sits on.
  var group: DemoGroup

  /// Every demo this build serves, in gallery order (the gallery shelves them by `group`).
  static let all: [Demo] =
    Simulations.all.map { type in
      Demo(
        name: type.kind, title: type.title, summary: type.summary,
        seed: seeds[type.kind] ?? type.title, simulation: true, group: .simulations)
    } + [
      Demo(
        name: "mandelbrot", title: "Mandelbrot explorer",
        summary:
          "Tap a quadrant to zoom 2x, or drag, wheel and pinch through server-rendered tiles.",
        seed: "iOS – Mandelbrot", simulation: false, group: .explorers),
      Demo(
        name: "stick-man", title: "Stick Man",
        summary: "A figure drawn in stacked layers: read, smile, frown, hat on or off, fly, swing.",
        seed: "Stick Man", simulation: false, group: .smallClassics),
      Demo(
        name: "temperature", title: "Temperature",
        summary: "Fahrenheit and Celsius converted as you type, with a picture for each range.",
        seed: "Fahrenheit to Celcius", simulation: false, group: .smallClassics),
    ]

  /// The iOS sample each demo re-creates.
  static let seeds = [
    "bouncing-balls": "SpaceBalls", "maze": "Maze", "holes": "Return to HOLES",
    "tag-cloud": "3D Tag Cloud",
  ]
}
