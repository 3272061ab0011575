import HTTP
import Server

/// One entry of the route table: the methods it takes, its path pattern, what the pipeline
/// does around it (`RouteTraits`), and its handler, which gets the captures already parsed.
///
/// HEAD, 405 with `Allow`, and OPTIONS are not a route's business: `RouteTable` answers them for
/// every route alike.
// NB: a class, so that trying a route costs one reference, not a copy of its five fields.
final class Route: Sendable {
  /// What a matched path gives: the handler, with the parsed captures inside.
  typealias Handler = @Sendable (RouteCall) -> Reply

  /// The methods declared; HEAD comes with GET, OPTIONS with every route.
  let methods: [HTTPMethod]
  let pattern: PathPattern
  let traits: RouteTraits
  /// Captured segments that parse, for tests that walk the table.
  let example: [String]
  /// The estimated seconds of a call to a `store` route, from its request, where its body does
  /// not tell: a book's export, a list of as many recipes as `limit` asks (`StoreCalls`); nil:
  /// by the body's size.
  let storeCost: (@Sendable (Request) -> Double)?
  /// Parses the captured segments; nil when the path is not this route's after all.
  let match: @Sendable (ArraySlice<String>, Request) -> Handler?
  /// For a route that answers from the request and its parsed captures alone (the static
  /// files): the answer to a method it takes, without a handler closure, a `RouteCall` or a GET
  /// copy of a HEAD (issue 31); nil when the path is not this route's after all.
  let answer: (@Sendable (ArraySlice<String>, Request) -> Response?)?

  /// A route whose captures (if any) are parsed by `parse`, e.g. the static files, which match
  /// only paths of files that exist.
  init<Value: Sendable>(
    _ methods: [HTTPMethod], _ pattern: String, _ traits: RouteTraits = [],
    example: [String] = [],
    parse: @escaping @Sendable (ArraySlice<String>, Request) -> Value?,
    handle: @escaping @Sendable (RouteCall, Value) -> Reply
  ) {
    self.methods = methods
    self.pattern = PathPattern(pattern)
    self.traits = traits
    self.example = example
    self.storeCost = nil
    self.match = { segments, request in
      guard let value = parse(segments, request) else { return nil }
      return { handle($0, value) }
    }
    self.answer = nil
  }

  /// A route answered straight from the request and the parsed `Value` by `respond`, which
  /// must not depend on the method beyond what the table checks (a HEAD gets GET's answer; the
  /// connection leaves the body out). Only `crossOrigin` may be among its traits: the pipeline
  /// applies nothing else to such an answer.
  init<Value: Sendable>(
    answering methods: [HTTPMethod], _ pattern: String, _ traits: RouteTraits = [],
    example: [String] = [],
    parse: @escaping @Sendable (ArraySlice<String>, Request) -> Value?,
    respond: @escaping @Sendable (Value, Request) -> Response
  ) {
    precondition(traits.isSubset(of: [.crossOrigin]), "an answering route takes no other traits")
    self.methods = methods
    self.pattern = PathPattern(pattern)
    self.traits = traits
    self.example = example
    self.storeCost = nil
    self.match = { segments, request in
      guard let value = parse(segments, request) else { return nil }
      return { .response(respond(value, $0.request)) }
    }
    self.answer = { segments, request in
      parse(segments, request).map { respond($0, request) }
    }
  }

  /// A route whose captures make a `Value` (`SessionID`, `DemoName`...).
  convenience init<Value: PathParameter>(
    _ methods: [HTTPMethod], _ pattern: String, _ traits: RouteTraits = [],
    example: [String] = Value.example, handle: @escaping @Sendable (RouteCall, Value) -> Reply
  ) {
    self.init(
      methods, pattern, traits, example: example,
      parse: { segments, _ in Value(segments: segments) },
      handle: handle)
  }

  /// A route without captures; `storeCost` estimates a call to it, as the property says.
  init(
    _ methods: [HTTPMethod], _ pattern: String, _ traits: RouteTraits = [],
    storeCost: (@Sendable (Request) -> Double)? = nil,
    handle: @escaping @Sendable (RouteCall) -> Reply
  ) {
    self.methods = methods
    self.pattern = PathPattern(pattern)
    self.traits = traits
    self.example = []
    self.storeCost = storeCost
    self.match = { _, _ in handle }
    self.answer = nil
  }

  /// Every method the route answers: the declared ones, HEAD with GET, and OPTIONS.
  var allowed: [HTTPMethod] {
    var methods = self.methods
    if methods.contains(.get) { methods.append(.head) }
    methods.append(.options)
    return HTTPMethod.allowOrder.filter(methods.contains)
  }

  /// A GET route's path as a sample (for tests), with the example captures.
  var examplePath: String { pattern.path(with: example) }
}

extension HTTPMethod {
  /// The order in which `Allow` lists methods.
  static let allowOrder: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options]
}
