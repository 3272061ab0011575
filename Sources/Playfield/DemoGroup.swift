/// A shelf of the gallery: the demos that belong together, in the order the gallery shows them.
enum DemoGroup: String, Sendable, CaseIterable {
  case simulations
  case explorers
  case sensorsAndDrawing = "sensors-and-drawing"
  case smallClassics = "small-classics"

  /// The shelf's heading in the gallery.
  var title: String {
    switch self {
    case .simulations: "Simulations"
    case .explorers: "Explorers"
    case .sensorsAndDrawing: "Sensors and drawing"
    case .smallClassics: "Small classics"
    }
  }
}
