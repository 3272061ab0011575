/// A value a route's captures are parsed into at the edge, before its handler runs: the handler
/// gets the typed value, never the raw segments.
protocol PathParameter: Sendable {
  /// The value the captured segments name; nil when they name none (the path is then not this
  /// route's: another route, a file, or 404).
  init?(segments: ArraySlice<String>)

  /// Captured segments that parse, for tests that walk the table.
  static var example: [String] { get }
}

/// A session id from the path; unknown ids are the handler's 404.
struct SessionID: PathParameter, CustomStringConvertible {
  let description: String

  init?(segments: ArraySlice<String>) {
    guard segments.count == 1, let id = segments.first, !id.isEmpty else { return nil }
    description = id
  }

  static let example = ["no-such-session"]
}

/// A saved maze's name from the path; the store checks it (`NameValidator`).
struct MazeName: PathParameter, CustomStringConvertible {
  let description: String

  init?(segments: ArraySlice<String>) {
    guard segments.count == 1, let name = segments.first else { return nil }
    description = name
  }

  static let example = ["no-such-maze"]
}

/// One of `Demo.all`, by name; an unknown name is not a demo page (so, not found).
struct DemoName: PathParameter {
  let demo: Demo

  init?(segments: ArraySlice<String>) {
    guard segments.count == 1, let demo = Demo.named(segments[segments.startIndex]) else {
      return nil
    }
    self.demo = demo
  }

  static var example: [String] { [Demo.all[0].name] }
}

/// The segments as they are, for a handler that parses them itself in one place (a cold
/// resource's key).
struct PathSegments: PathParameter {
  let segments: ArraySlice<String>

  init?(segments: ArraySlice<String>) {
    self.segments = segments
  }

  static let example = ["x"]
}
