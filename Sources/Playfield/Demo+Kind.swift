import Simulation

extension Demo {
  /// What serves a demo: a session of a model stepped by the game loop, or a page.
  enum Kind: Sendable {
    case session(any Simulation.Type)
    case page
  }

  /// A session demo named, titled and summed up by its model.
  init(session model: any Simulation.Type, seed: String, group: Group) {
    self.init(
      name: model.kind, title: model.title, summary: model.summary, seed: seed, group: group,
      kind: .session(model))
  }

  /// A page demo: no session, its script fetches what it needs.
  init(page name: String, title: String, summary: String, seed: String, group: Group) {
    self.init(name: name, title: title, summary: summary, seed: seed, group: group, kind: .page)
  }

  /// Whether the page joins a session (the templates' `simulation` flag).
  var isSession: Bool {
    if case .session = kind { return true }
    return false
  }

  /// The demo named `name`, or nil.
  static func named(_ name: String) -> Demo? { all.first { $0.name == name } }

  /// The title of a demo, or its name if there is none such.
  static func title(of name: String) -> String { named(name)?.title ?? name }
}
