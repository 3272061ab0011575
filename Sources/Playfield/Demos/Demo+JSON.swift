import JSON

extension Demo {
  /// One entry of `GET /api/demos`.
  var json: JSONValue {
    .object([
      "name": .string(name), "title": .string(title), "summary": .string(summary),
      "seed": .string(seed), "group": .string(group.rawValue), "session": .bool(isSession),
      "page": .string("/demos/\(name)"), "embed": .string("/embed/\(name)"),
    ])
  }

  /// The body of `GET /api/demos`: every demo, in gallery order.
  static func listing(_ demos: [Demo]) -> JSONValue {
    .object([
      "demos": .array(demos.map(\.json)),
      "groups": .array(
        Group.allCases.map { .object(["name": .string($0.rawValue), "title": .string($0.title)]) }),
    ])
  }
}
