import Simulation

/// One demo of the gallery, and every fact about it the app needs: its URL name, title, one
/// line about it, what serves it, its embed frame, how its gallery preview starts, and its own
/// routes. Code that belongs to one demo lives in its folder, `Demos/NAME/`; nothing else in
/// the app names a demo or its model.
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
  /// Its natural embed frame (oEmbed, the embed page's `ready.aspect`).
  var frame = Frame.standard
  /// How the gallery's live preview of a session demo starts.
  var showcase = Showcase()
  /// The demo's own routes (an API its page fetches), made once when the app starts from
  /// what they need.
  var routes: @Sendable (DemoContext) -> [Route] = { _ in [] }

  /// Every demo this build serves, in gallery order. Adding a demo adds one line here
  /// (see "Adding a demo" in docs/architecture.md).
  static let all: [Demo] = [
    .bouncingBalls,
    .maze,
    .holes,
    Demo(session: TagCloud.self, seed: "3D Tag Cloud", group: .simulations, frame: .init(480, 520)),
    .mandelbrot,
    .apollonian,
    .compare,
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
      seed: "Accelerometer", group: .sensorsAndDrawing, frame: .init(640, 380)),
    Demo(
      page: "color-picker", title: "Colour picker",
      summary: "A hue ring around a saturation and brightness box, as a reusable web component.",
      seed: "HSV colour picker", group: .sensorsAndDrawing, frame: .init(640, 320)),
    .paintbrush,
    .streetSoccer,
    .recipes,
  ]
}
