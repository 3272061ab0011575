import HTTP

/// Every route the app answers, in order: the first whose path and captures match and which
/// takes the method wins. Pure: it finds what to do, the app does it.
///
/// The rules every route shares live here, once: a path some route matches but not with this
/// method is 405 with `Allow`, the union of what the path's routes take (RFC 9110 §15.5.6);
/// HEAD is answered by the GET handler (the connection leaves the body out, §9.3.2); OPTIONS is
/// 204 with `Allow` (§9.3.7), and a CORS preflight for a cross-origin route.
struct RouteTable: Sendable {
  let routes: [Route]
  /// For a path's first segment, the routes that may match it, in table order: those whose
  /// pattern starts with that literal or with a capture (so a request tries only a few).
  // NB: a short list compared by length and first byte, not a dictionary: hashing the segment
  // cost more than a static file's whole route match (issue 31).
  private let byFirstSegment: [FirstSegment]
  /// The routes whose pattern starts with a capture: all a path may match when no pattern
  /// starts with its first segment.
  private let capturing: [Route]
  /// The routes of `/`.
  private let root: [Route]

  init(_ routes: [Route]) {
    self.routes = routes
    var literals = Set<String>()
    for route in routes {
      if case .literal(let text)? = route.pattern.parts.first { literals.insert(text) }
    }
    self.byFirstSegment = literals.sorted().map { literal in
      FirstSegment(
        literal,
        routes.filter { route in
          switch route.pattern.parts.first {
          case .literal(let text)?: text == literal
          case .capture?, .rest?: true
          case nil: false
          }
        })
    }
    self.capturing = routes.filter { $0.pattern.parts.first?.isCapture == true }
    self.root = routes.filter { $0.pattern.parts.isEmpty }
  }

  /// What the table says of one request.
  enum Resolution {
    /// Run the handler of this route (for HEAD, its GET handler).
    case handle(Route, Route.Handler)
    /// The route answered at once (`Route.answer`); the traits are its own.
    case answered(RouteTraits, Response)
    /// No route has this path.
    case notFound
    /// Routes have this path, but none takes the method; `traits` are theirs, together.
    case methodNotAllowed(allow: [HTTPMethod], style: ErrorStyle, traits: RouteTraits)
    /// OPTIONS: the methods the path takes, and whether other sites may read it.
    case options(allow: [HTTPMethod], crossOrigin: Bool)
  }

  /// Resolves `request`, whose decoded path is `segments`.
  func resolve(_ request: Request, segments: [String]) -> Resolution {
    let method = request.method == .head ? .get : request.method
    var allow: Set<HTTPMethod> = []
    var traits: RouteTraits = []
    let candidates = segments.first.map { routes(first: $0) } ?? root
    for route in candidates {
      guard let captured = route.pattern.match(segments) else { continue }
      if let answer = route.answer, route.methods.contains(method) {
        guard let response = answer(captured, request) else { continue }
        return .answered(route.traits, response)
      }
      guard let handler = route.match(captured, request) else { continue }
      if route.methods.contains(method) { return .handle(route, handler) }
      allow.formUnion(route.allowed)
      traits.formUnion(route.traits)
    }
    guard !allow.isEmpty else { return .notFound }
    let listed = HTTPMethod.allowOrder.filter(allow.contains)
    if request.method == .options {
      return .options(allow: listed, crossOrigin: traits.contains(.crossOrigin))
    }
    return .methodNotAllowed(allow: listed, style: traits.errorStyle, traits: traits)
  }

  /// The routes a path whose first segment is `segment` may match. NB: the literals are ASCII,
  /// so comparing lengths and first bytes first never misses one.
  private func routes(first segment: String) -> [Route] {
    let utf8 = segment.utf8
    let count = utf8.count
    let first = utf8.first.map(Int.init) ?? -1
    for index in byFirstSegment.indices
    where byFirstSegment[index].count == count && byFirstSegment[index].first == first
      && byFirstSegment[index].literal == segment
    {
      return byFirstSegment[index].routes
    }
    return capturing
  }

  /// Every method some route takes, for `OPTIONS *` (RFC 9110 §9.3.7).
  var allMethods: [HTTPMethod] {
    let all = Set(routes.flatMap(\.allowed))
    return HTTPMethod.allowOrder.filter(all.contains)
  }
}

extension [HTTPMethod] {
  /// The `Allow` field value, e.g. `GET, HEAD, OPTIONS`.
  var allowField: String { map(\.description).joined(separator: ", ") }
}
