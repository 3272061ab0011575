/// A request method (RFC 9110 §9). Known methods are cases; any other token is `.other`.
public enum HTTPMethod: Sendable, Hashable, CustomStringConvertible {
  case get, head, post, put, delete, options, patch, trace, connect
  case other(String)

  /// Parses a method token; the token's case matters (RFC 9110 §9.1).
  public init(_ token: String) {
    switch token {
    case "GET": self = .get
    case "HEAD": self = .head
    case "POST": self = .post
    case "PUT": self = .put
    case "DELETE": self = .delete
    case "OPTIONS": self = .options
    case "PATCH": self = .patch
    case "TRACE": self = .trace
    case "CONNECT": self = .connect
    default: self = .other(token)
    }
  }

  public var description: String {
    switch self {
    case .get: "GET"
    case .head: "HEAD"
    case .post: "POST"
    case .put: "PUT"
    case .delete: "DELETE"
    case .options: "OPTIONS"
    case .patch: "PATCH"
    case .trace: "TRACE"
    case .connect: "CONNECT"
    case .other(let token): token
    }
  }
}
