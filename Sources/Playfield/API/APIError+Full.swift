import HTTP

extension APIError {
  /// 503 with `Retry-After: 60`: the server (or its store) has no place now.
  static func full(_ message: String) -> APIError {
    var error = APIError(.serviceUnavailable, message)
    error.headers.set("Retry-After", "60")
    return error
  }
}
