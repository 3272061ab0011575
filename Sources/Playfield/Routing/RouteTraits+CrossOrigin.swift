import HTTP

extension RouteTraits {
  /// Response headers other sites may read besides the CORS-safelisted ones: when to retry a
  /// refused request, and what an answer cost.
  static let exposedHeaders = "Retry-After, Server-Timing"

  /// `response` with what the route's traits promise on every answer, errors included: for a
  /// cross-origin route, `Access-Control-Allow-Origin: *` and the headers it exposes, so a
  /// page on another site can read a 400, a 404 or a 503 with `Retry-After`, not only a 200.
  func decorate(_ response: consuming Response) -> Response {
    guard contains(.crossOrigin) else { return response }
    var response = response
    response.headers.set("Access-Control-Allow-Origin", "*")
    response.headers.set("Access-Control-Expose-Headers", Self.exposedHeaders)
    return response
  }
}
