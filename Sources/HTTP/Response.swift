/// An HTTP response: status, headers and a complete body.
///
/// The server adds `Date`, `Content-Length` and `Connection` when it writes the response.
public struct Response: Sendable {
  public var status: HTTPStatus
  public var headers: HTTPHeaders {
    didSet { preparedFields = nil }
  }
  public var body: [UInt8]
  /// Held while the body waits to be written, and let go once it is written or the connection
  /// closes: a handler that bounds how many big answers wait at once (a book export) hands
  /// its place here, and the place comes back when its object is freed.
  public var heldUntilWritten: (any AnyObject & Sendable)?
  /// The header fields already serialized by `prepare()`, for a response sent many times (a
  /// cached file); cleared whenever `headers` changes, so it never goes stale.
  public private(set) var preparedFields: [UInt8]?
  /// Whether the fields asked to close the connection when `prepare()` ran; read only while
  /// `preparedFields` is set.
  private var preparedClose = false

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
    preparedClose = headers.hasToken("Connection", "close")
  }

  /// Whether its `Connection` field asks to close the connection (RFC 9112 §9.6).
  // NB: a prepared response (a cached file) answers from `prepare()`: walking a file's seven
  // fields for every send cost about 370 instructions (issue 31).
  public var asksToClose: Bool {
    preparedFields != nil ? preparedClose : headers.hasToken("Connection", "close")
  }
}
