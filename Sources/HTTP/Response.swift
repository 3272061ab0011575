/// An HTTP response: status, headers and a complete body.
///
/// The server adds `Date`, `Content-Length` and `Connection` when it writes the response.
public struct Response: Sendable {
  public var status: HTTPStatus
  public var headers: HTTPHeaders {
    didSet { preparedFields = nil }
  }
  public var body: [UInt8]
  /// The header fields already serialized by `prepare()`, for a response sent many times (a
  /// cached file); cleared whenever `headers` changes, so it never goes stale.
  public private(set) var preparedFields: [UInt8]?

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

  /// Serializes the header fields now, so that every send of this value copies bytes instead.
  public mutating func prepare() {
    preparedFields = ResponseSerializer.fields(headers, status: status)
  }
}
