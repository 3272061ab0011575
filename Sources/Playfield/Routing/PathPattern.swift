/// A route's path: literal segments and named captures, written as in the docs, e.g.
/// `/api/sessions/{session}/state` or `/tiles/mandelbrot/{tile...}` (the rest of the path, one
/// segment or more). Captures stand together, so what they match is one slice of the path.
struct PathPattern: Sendable, Equatable, CustomStringConvertible {
  /// One segment of the pattern.
  enum Part: Sendable, Equatable {
    case literal(String)
    /// Exactly one segment.
    case capture(String)
    /// One segment or more, to the end.
    case rest(String)
  }

  let parts: [Part]
  let description: String

  /// Parses a pattern; a malformed one is a programming error, caught when the table is built.
  init(_ text: String) {
    precondition(text.hasPrefix("/"), "a route pattern starts with /: \(text)")
    var parts: [Part] = []
    for piece in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
    where !(piece.isEmpty && text == "/") {
      precondition(!piece.isEmpty, "a route pattern has no empty segment: \(text)")
      if piece.hasPrefix("{") && piece.hasSuffix("...}") {
        parts.append(.rest(String(piece.dropFirst().dropLast(4))))
      } else if piece.hasPrefix("{") && piece.hasSuffix("}") {
        parts.append(.capture(String(piece.dropFirst().dropLast())))
      } else {
        parts.append(.literal(String(piece)))
      }
    }
    let captured = parts.indices.filter { parts[$0].isCapture }
    precondition(
      captured.isEmpty || captured.last! - captured.first! + 1 == captured.count,
      "a route pattern's captures stand together: \(text)")
    if let rest = parts.firstIndex(where: { if case .rest = $0 { true } else { false } }) {
      precondition(rest == parts.count - 1, "{name...} ends a route pattern: \(text)")
    }
    self.parts = parts
    self.description = text
  }

  /// The segments the captures matched, or nil when `segments` do not fit the pattern.
  func match(_ segments: [String]) -> ArraySlice<String>? {
    var first = segments.endIndex
    var end = segments.endIndex
    for (index, part) in parts.enumerated() {
      switch part {
      case .literal(let text):
        guard index < segments.count, segments[index] == text else { return nil }
      case .capture:
        guard index < segments.count else { return nil }
        first = min(first, index)
        end = index + 1
      case .rest:
        guard index < segments.count else { return nil }
        return segments[min(first, index)...]
      }
    }
    guard segments.count == parts.count else { return nil }
    return first < end ? segments[first..<end] : segments[segments.endIndex...]
  }

  /// The path with `values` in the captures' places (for tests that walk the table).
  func path(with values: [String]) -> String {
    var values = values[...]
    var out: [String] = []
    for part in parts {
      switch part {
      case .literal(let text): out.append(text)
      case .capture: out.append(values.popFirst() ?? "x")
      case .rest: out += values
      }
    }
    return "/" + out.joined(separator: "/")
  }
}

extension PathPattern.Part {
  var isCapture: Bool {
    switch self {
    case .literal: false
    case .capture, .rest: true
    }
  }
}
