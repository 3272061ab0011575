/// An error that knows how to become a response: a status and a plain message.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
  public var status: HTTPStatus
  public var message: String
  /// Extra headers for the error response, e.g. `Allow` for 405.
  public var headers: HTTPHeaders

  public init(_ status: HTTPStatus, _ message: String, headers: HTTPHeaders = HTTPHeaders()) {
    self.status = status
    self.message = message
    self.headers = headers
  }

  public var description: String { "\(status.code) \(message)" }

  /// A plain-text response stating the status and the message, never sniffed as anything else
  /// (the message may quote the request).
  public var response: Response {
    var response = Response(
      status: status,
      headers: ["Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff"],
      body: Array("\(status.code) \(status.reason): \(message)\n".utf8))
    for field in headers { response.headers.set(field.name, field.value) }
    return response
  }
}
