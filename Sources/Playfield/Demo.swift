/// One demo of the gallery: its URL name, title, and one line about it.
struct Demo: Sendable, Equatable {
  /// The name in `/demos/NAME`.
  var name: String
  var title: String
  var summary: String
  /// Its seed app, for the gallery card.
  var seed: String
}
