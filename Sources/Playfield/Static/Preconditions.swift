import HTTP

/// Conditional requests (RFC 9110 §13): the checks of If-Match, If-Unmodified-Since,
/// If-None-Match and If-Modified-Since, in the order of §13.2.2.
enum Preconditions {
  /// What the preconditions say about a GET or HEAD of a representation.
  enum Outcome: Equatable {
    /// Serve it.
    case proceed
    /// 304: the client's copy is current.
    case notModified
    /// 412: the named condition does not hold.
    case failed(String)
  }

  /// Evaluates the preconditions of `request` against a representation with this strong
  /// `etag` and, when known, `lastModified` (seconds since 1970); `now` is the wall clock.
  static func evaluate(_ request: Request, etag: String, lastModified: Int64?, now: Int64)
    -> Outcome
  {
    let headers = request.headers
    if let tags = headers.combined("If-Match") {
      guard matches(tags, current: etag, weak: false) else { return .failed("If-Match") }
    } else if let lastModified,
      let since = headers["If-Unmodified-Since"].flatMap(HTTPDate.parse), lastModified > since
    {
      return .failed("If-Unmodified-Since")
    }
    if let tags = headers.combined("If-None-Match") {
      return matches(tags, current: etag, weak: true) ? .notModified : .proceed
    }
    // RFC 9110 §13.1.3: a date later than the server's clock is not believed.
    if let lastModified, let since = headers["If-Modified-Since"].flatMap(HTTPDate.parse),
      since <= now, lastModified <= since
    {
      return .notModified
    }
    return .proceed
  }

  /// Whether an `If-Match` or `If-None-Match` list holds the current (strong) tag: `*` always
  /// does; a weak `W/` tag matches only in the weak comparison (RFC 9110 §8.8.3.2).
  static func matches(_ list: String, current: String, weak: Bool) -> Bool {
    let trimmed = list.trimmingSpaces()
    if trimmed == "*" { return true }
    return trimmed.split(separator: ",").contains { element in
      let tag = element.trimmingSpaces()
      if tag.hasPrefix("W/") { return weak && tag.dropFirst(2) == current }
      return tag == current
    }
  }

  /// A generated 200 (a rendered page) given a strong ETag from its bytes, then answered as
  /// the preconditions of `request` say.
  static func validate(_ response: Response, for request: Request) -> Response {
    guard response.status == .ok, request.method == .get || request.method == .head else {
      return response
    }
    var response = response
    let etag = response.headers["ETag"] ?? "\"\(StaticFile.fnv1a(response.body))\""
    response.headers.set("ETag", etag)
    return answer(evaluate(request, etag: etag, lastModified: nil, now: 0), for: response)
      ?? response
  }

  /// The 304 (the representation's headers, no body; RFC 9110 §15.4.5) or 412 an outcome
  /// calls for, or nil to proceed with `response`.
  static func answer(_ outcome: Outcome, for response: Response) -> Response? {
    switch outcome {
    case .proceed:
      return nil
    case .notModified:
      var response = response
      response.status = .notModified
      response.body = []
      return response
    case .failed(let field):
      return HTTPError(.preconditionFailed, "the \(field) condition does not hold").response
    }
  }

  /// For a generated GET or HEAD answer with a strong `etag` and `headers` (ETag included):
  /// the 304 or 412 its preconditions call for, or nil to go on and make the body.
  static func answer(_ request: Request, etag: String, headers: HTTPHeaders) -> Response? {
    answer(
      evaluate(request, etag: etag, lastModified: nil, now: 0),
      for: Response(status: .ok, headers: headers))
  }
}
