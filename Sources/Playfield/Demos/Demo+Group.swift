extension Demo {
  /// Gallery sections, in the order they are shown.
  enum Group: String, Sendable, CaseIterable {
    case simulations
    case explorers
    case sensorsAndDrawing = "sensors-and-drawing"
    case smallClassics = "small-classics"

    /// The section heading.
    var title: String {
      switch self {
      case .simulations: "Simulations"
      case .explorers: "Explorers"
      case .sensorsAndDrawing: "Sensors and drawing"
      case .smallClassics: "Small classics"
      }
    }
  }
}
