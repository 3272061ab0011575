import HTTP

/// How a route writes its errors: APIs answer JSON (`APIError`), everything else plain text
/// (`HTTPError`). The route table, the cold-resource service and handlers all go through it.
enum ErrorStyle: Sendable {
  case text
  case json

  /// The error response: `status`, `message`, the field to blame (JSON only) and extra headers.
  func response(
    _ status: HTTPStatus, _ message: String, field: String? = nil,
    headers: HTTPHeaders = HTTPHeaders()
  ) -> Response {
    switch self {
    case .text:
      return HTTPError(status, message, headers: headers).response
    case .json:
      var error = APIError(status, message, field: field)
      error.headers = headers
      return error.response
    }
  }
}
