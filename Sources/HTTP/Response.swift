/// An HTTP response: status, headers and a complete body.
///
/// The server adds `Date`, `Content-Length` and `Connection` when it writes the response.
public struct Response: Sendable {
  public var status: HTTPStatus
  public var headers: HTTPHeaders
  public var body: [UInt8]

  public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  public init(status: HTTPStatus = .ok, contentType: String, body: [UInt8]) {
    self.init(status: status, headers: ["Content-Type": contentType], body: body)
  }

  public init(status: HTTPStatus = .ok, contentType: String, body: String) {
    self.init(status: status, contentType: contentType, body: Array(body.utf8))
  }
}
