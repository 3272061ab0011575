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

  /// The method named by `bytes` if this server implements it: GET, HEAD, POST, PUT, DELETE,
  /// OPTIONS or PATCH. Any other token is answered with 501 (RFC 9110 §9.1).
  init?(implemented bytes: some Collection<UInt8>) {
    switch bytes.count {
    case 3 where bytes.elementsEqual("GET".utf8): self = .get
    case 3 where bytes.elementsEqual("PUT".utf8): self = .put
    case 4 where bytes.elementsEqual("HEAD".utf8): self = .head
    case 4 where bytes.elementsEqual("POST".utf8): self = .post
    case 5 where bytes.elementsEqual("PATCH".utf8): self = .patch
    case 6 where bytes.elementsEqual("DELETE".utf8): self = .delete
    case 7 where bytes.elementsEqual("OPTIONS".utf8): self = .options
    default: return nil
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
