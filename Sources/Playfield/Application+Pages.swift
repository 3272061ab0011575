import HTTP

extension Application {
  /// `/`: one shelf of cards per `Demo.Group`.
  func gallery() -> Response {
    let shelves: [[String: Any]] = Demo.Group.allCases.compactMap { group in
      let members = demos.filter { $0.group == group }
      guard !members.isEmpty else { return nil }
      return ["group": group.rawValue, "title": group.title, "demos": members.map(card)]
    }
    return pages.render(
      "gallery", ["title": "Playfield", "groups": shelves, "hasDemos": !demos.isEmpty])
  }

  /// One gallery card: a live preview for a simulation, else the demo's icon
  /// (`Templates/icons/NAME.mustache`, or a lettered tile when it has none).
  private func card(_ demo: Demo) -> [String: Any] {
    var card: [String: Any] = [
      "name": demo.name, "title": demo.title, "summary": demo.summary, "seed": demo.seed,
      "group": demo.group.rawValue,
    ]
    if demo.isSession {
      card["preview"] = preview(demo)
    } else if let icon = pages.fragment("icons/\(demo.name)", [:]) {
      card["icon"] = icon
    } else {
      card["initial"] = String(demo.title.prefix(1))
    }
    return card
  }

  /// The embed page a gallery card shows live: a simulation's showcase session, watched.
  private func preview(_ demo: Demo) -> String {
    guard let session = registry.showcase(demo) else { return "/embed/\(demo.name)?preview" }
    return "/embed/\(demo.name)?session=\(session.id)&watch&preview"
  }

  /// A demo's body (`Templates/demos/NAME.mustache`) inside the site layout or, embedded, the
  /// bare layout that any site may frame.
  func demoPage(_ demo: Demo, embedded: Bool, request: Request) -> Response {
    let host = request.headers["Host"] ?? "127.0.0.1"
    let pageURL = "http://\(host)\(request.target)"
    var context: [String: Any] = [
      "oembed": "/oembed?url=" + Self.percentEncode(pageURL),
      "title": demo.title, "name": demo.name, "summary": demo.summary, "embedded": embedded,
      "simulation": demo.isSession,
      "startConfig": demo.showcase.pageStartsAlike ? demo.showcase.config.jsonString : "",
      "frameWidth": demo.frame.width, "frameHeight": demo.frame.height,
      "otherDemos": demos.filter { $0.name != demo.name }.map {
        ["name": $0.name, "title": $0.title]
      },
      "preview": embedded
        && (try? QueryParameters(request.query))?.names.contains("preview") == true,
    ]
    guard let body = pages.fragment("demos/\(demo.name)", context) else {
      return HTTPError(.internalServerError, "the template demos/\(demo.name) is missing").response
    }
    context["content"] = body
    return pages.render(
      embedded ? "embed" : "demo", context, framing: embedded ? .anyone : .sameOrigin)
  }

  /// `/sessions`: every listed session.
  func sessionsPage() -> Response {
    let now = environment.wallClock()
    let rows: [[String: Any]] = registry.listed.map { session in
      let summary = session.summary
      return [
        "id": summary.id, "kind": summary.kind,
        "title": Demo.title(of: summary.kind),
        "age": Self.age(now - summary.createdAt), "tick": summary.tick,
        "watching": summary.spectators + summary.controllers,
        "status": summary.running ? "running" : "stopped",
      ]
    }
    return pages.render("sessions", ["sessions": rows, "hasSessions": !rows.isEmpty])
  }

  /// `/sessions/ID/replay`.
  func replayPage(_ id: SessionID, request: Request) -> Response {
    guard let session = registry.session(id.description) else { return notFound(request) }
    return pages.render(
      "replay",
      [
        "id": id.description, "kind": session.kind, "title": Demo.title(of: session.kind),
        "hasDatabase": journal != nil,
      ])
  }

  /// Percent-encodes everything but unreserved characters (RFC 3986 §2.3).
  static func percentEncode(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        out.append(Character(UnicodeScalar(byte)))
      default:
        let hex = String(byte, radix: 16, uppercase: true)
        out += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return out
  }

  /// `42 s`, `5 min`, `3 h` or `2 d`.
  static func age(_ seconds: Double) -> String {
    let s = max(0, Int(seconds))
    if s < 60 { return "\(s) s" }
    if s < 3600 { return "\(s / 60) min" }
    if s < 86_400 { return "\(s / 3600) h" }
    return "\(s / 86_400) d"
  }

  /// 404: a page listing the demos for a browser, else text.
  func notFound(_ request: Request) -> Response {
    let wantsHTML = request.headers["Accept"].map { $0.contains("text/html") } ?? false
    guard wantsHTML, request.method == .get || request.method == .head else {
      return HTTPError(.notFound, "nothing at \(request.path)").response
    }
    return pages.render(
      "not-found",
      [
        "title": "Not found",
        "path": String(request.path),
        "demos": demos.map { ["name": $0.name, "title": $0.title] },
      ], status: .notFound)
  }
}
