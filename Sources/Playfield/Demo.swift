import Simulation

/// One demo of the gallery: its URL name, title, one line about it, and what serves it.
struct Demo: Sendable {
  /// The name in `/demos/NAME`; for a session, the model's `kind`.
  var name: String
  var title: String
  var summary: String
  /// The iOS sample it re-creates, for the gallery card.
  var seed: String
  /// Where the gallery shows it.
  var group: Group
  /// A live session of a model, or a page that only fetches.
  var kind: Kind

  /// Every demo this build serves, in gallery order. Adding a demo adds one line here
  /// (see "Adding a demo" in docs/architecture.md).
  static let all: [Demo] = [
    Demo(session: BouncingBalls.self, seed: "SpaceBalls", group: .simulations),
    Demo(session: MazeBall.self, seed: "Maze", group: .simulations),
    Demo(session: Holes.self, seed: "Return to HOLES", group: .simulations),
    Demo(session: TagCloud.self, seed: "3D Tag Cloud", group: .simulations),
    Demo(
      page: "mandelbrot", title: "Mandelbrot explorer",
      summary: "Tap a quadrant to zoom 2x, or drag, wheel and pinch through server-rendered tiles.",
      seed: "iOS – Mandelbrot", group: .explorers),
    Demo(
      page: "apollonian", title: "Apollonian spheres",
      summary: "An Apollonian sphere packing computed on the server, drawn with WebGL2: "
        + "levels 0 to 10, drag to turn, wheel or pinch to zoom.",
      seed: "3D viewer for our Apollonian service", group: .explorers),
    Demo(
      page: "stick-man", title: "Stick Man",
      summary: "A figure drawn in stacked layers: read, smile, frown, hat on or off, fly, swing.",
      seed: "Stick Man", group: .smallClassics),
    Demo(
      page: "temperature", title: "Temperature",
      summary: "Fahrenheit and Celsius converted as you type, with a picture for each range.",
      seed: "Fahrenheit to Celcius", group: .smallClassics),
    Demo(
      page: "embedding", title: "Embedding",
      summary:
        "One demo framed twice, as it is and scaled to fit, plus a snippet builder and remote.",
      seed: "Embedding Web Pages", group: .explorers),
    Demo(
      page: "accelerometer", title: "Accelerometer",
      summary: "x, y, z and magnitude in g with their extremes, a polar grid and a rolling plot.",
      seed: "Accelerometer", group: .sensorsAndDrawing),
    Demo(
      page: "color-picker", title: "Colour picker",
      summary: "A hue ring around a saturation and brightness box, as a reusable web component.",
      seed: "HSV colour picker", group: .sensorsAndDrawing),
    Demo(session: Paintbrush.self, seed: "Paintbrush", group: .sensorsAndDrawing),
  ]
}
