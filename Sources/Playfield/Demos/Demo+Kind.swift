import Simulation

extension Demo {
  /// What serves a demo: a session of a model stepped by the game loop, or a page.
  enum Kind: Sendable {
    case session(any Simulation.Type)
    case page
  }

  /// A session demo named, titled and summed up by its model.
  init(
    session model: any Simulation.Type, seed: String, group: Group, frame: Frame = .standard,
    showcase: Showcase = Showcase(),
    routes: @escaping @Sendable (DemoContext) -> [Route] = { _ in [] }
  ) {
    self.init(
      name: model.kind, title: model.title, summary: model.summary, seed: seed, group: group,
      kind: .session(model), frame: frame, showcase: showcase, routes: routes)
  }

  /// A page demo: no session, its script fetches what it needs.
  init(
    page name: String, title: String, summary: String, seed: String, group: Group,
    frame: Frame = .standard, routes: @escaping @Sendable (DemoContext) -> [Route] = { _ in [] }
  ) {
    self.init(
      name: name, title: title, summary: summary, seed: seed, group: group, kind: .page,
      frame: frame, routes: routes)
  }

  /// Whether the page joins a session (the templates' `simulation` flag).
  var isSession: Bool { model != nil }

  /// The model of a session demo, nil for a page.
  var model: (any Simulation.Type)? {
    if case .session(let model) = kind { return model }
    return nil
  }

  /// The demo named `name`, or nil.
  static func named(_ name: String) -> Demo? { all.first { $0.name == name } }

  /// The title of a demo, or its name if there is none such.
  static func title(of name: String) -> String { named(name)?.title ?? name }

  /// The model of the session demo whose kind is `kind`, or nil.
  static func model(ofKind kind: String) -> (any Simulation.Type)? {
    named(kind)?.model
  }

  /// Every session demo's kind, in gallery order (for messages that list them).
  static var sessionKinds: [String] { all.filter(\.isSession).map(\.name) }
}
