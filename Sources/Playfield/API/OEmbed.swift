import HTTP
import JSON

/// `GET /oembed?url=...`: oEmbed 1.0 (https://oembed.com) for demo pages, so a site can turn
/// a Playfield link into an embedded demo, as JSON or XML.
struct OEmbed: Sendable {
  let demos: [Demo]

  /// The largest `maxwidth` and `maxheight` accepted, in CSS pixels.
  static let maxSize = 4096

  func handle(_ request: Request) -> Response {
    let query: QueryParameters
    do {
      query = try QueryParameters(request.query)
      try query.requireDistinctNames()
    } catch {
      return error.response
    }
    // oEmbed §2.3.4: a format the provider does not serve is 501.
    let format = query["format"] ?? "json"
    guard format == "json" || format == "xml" else {
      return HTTPError(.notImplemented, "format must be json or xml").response
    }
    // oEmbed §2.3.4: a URL the provider does not serve is 404; we vouch only for our own
    // pages, at the host the consumer asked us by.
    guard let url = query["url"], let (origin, demo, search) = parse(url),
      let host = request.headers["Host"], Self.authority(of: origin) == host.lowercased()
    else {
      return HTTPError(
        .notFound,
        "url must be a demo page of this server, such as http://\(request.headers["Host"] ?? "host")/demos/maze"
      )
      .response
    }
    var bounds = (width: Self.maxSize, height: Self.maxSize)
    for (name, value) in [("maxwidth", query["maxwidth"]), ("maxheight", query["maxheight"])] {
      guard let value else { continue }
      guard let limit = Int(value), (1...Self.maxSize).contains(limit) else {
        return HTTPError(.badRequest, "\(name) must be a whole number from 1 to \(Self.maxSize)")
          .response
      }
      if name == "maxwidth" { bounds.width = limit } else { bounds.height = limit }
    }
    let size = demo.frame.fitted(within: Demo.Frame(bounds.width, bounds.height))
    let source = "\(origin)/embed/\(demo.name)\(search)"
    // NB: `allow="fullscreen"` alone: with `allowfullscreen` beside it Chromium warns on the
    // console ("Allow attribute will take precedence over 'allowfullscreen'").
    let html =
      "<iframe src=\"\(Self.escape(source))\" width=\"\(size.width)\" height=\"\(size.height)\" "
      + "title=\"\(Self.escape(demo.title))\" style=\"border:0;max-width:100%\" "
      + "allow=\"fullscreen; accelerometer; gyroscope\" loading=\"lazy\"></iframe>"
    let fields: [(String, JSONValue)] = [
      ("version", "1.0"), ("type", "rich"), ("provider_name", "Playfield"),
      ("provider_url", .string(origin + "/")), ("title", .string(demo.title)),
      ("html", .string(html)), ("width", .number(Double(size.width))),
      ("height", .number(Double(size.height))), ("cache_age", .number(Double(Self.cacheAge))),
    ]
    var response =
      format == "xml"
      ? Self.xml(fields) : .json(.object(Dictionary(uniqueKeysWithValues: fields)))
    // NB: the answer depends on nothing but its URL (the host included) and this server's
    // demos, so consumers and proxies may keep it; `cache_age` says the same in oEmbed's terms.
    response.headers.set("Cache-Control", "public, max-age=\(Self.cacheAge)")
    return response
  }

  /// Seconds a consumer may keep an answer (`cache_age`, `Cache-Control`): a day.
  static let cacheAge = 86_400

  /// The origin, demo and query of a demo page URL (`http://host:port/demos/NAME?...`).
  func parse(_ url: String) -> (origin: String, demo: Demo, search: String)? {
    guard url.hasPrefix("http://") || url.hasPrefix("https://") else { return nil }
    let afterScheme = url.index(url.firstIndex(of: ":")!, offsetBy: 3)
    let pathStart = url[afterScheme...].firstIndex(of: "/") ?? url.endIndex
    let origin = String(url[..<pathStart])
    // NB: `http://ours@evil.example/` is evil.example; a URL with user info is never ours.
    guard !origin.contains("@"), !origin.contains("\\") else { return nil }
    // The fragment never reaches the server, and may hold a token (`#token=`).
    let rest = url[pathStart...].prefix { $0 != "#" }
    let queryStart = rest.firstIndex(of: "?") ?? rest.endIndex
    let path = rest[..<queryStart]
    let parts = path.split(separator: "/")
    guard parts.count == 2, parts[0] == "demos" || parts[0] == "embed",
      let demo = demos.first(where: { $0.name == parts[1] })
    else { return nil }
    return (origin, demo, Self.withoutTokens(rest[queryStart...]))
  }

  /// `host[:port]` of `scheme://host[:port]`, lowercased.
  static func authority(of origin: String) -> String {
    guard let separator = origin.range(of: "://") else { return "" }
    return origin[separator.upperBound...].lowercased()
  }

  /// `?a=1&token=T&b=2` without any pair whose name ends in `token` (a control or drawing
  /// token): an embed is for anyone who sees the page it sits on.
  static func withoutTokens(_ search: Substring) -> String {
    guard search.first == "?" else { return "" }
    let kept = search.dropFirst().split(separator: "&").filter { pair in
      let rawName = pair.prefix { $0 != "=" }
      let name = (try? QueryParameters(rawName))?.names.first ?? String(rawName)
      return !name.lowercased().hasSuffix("token")
    }
    return kept.isEmpty ? "" : "?" + kept.joined(separator: "&")
  }

  /// Escapes text for an HTML attribute or XML text.
  static func escape(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "\"": out += "&quot;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "'": out += "&#39;"
      default: out.append(character)
      }
    }
    return out
  }
}
