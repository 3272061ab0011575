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
    // NB: the name's bytes as one number, compared at once (this runs for every request).
    guard bytes.count <= 7 else { return nil }
    switch (bytes.count, Self.packed(bytes)) {
    case (3, Self.packedGET): self = .get
    case (3, Self.packedPUT): self = .put
    case (4, Self.packedHEAD): self = .head
    case (4, Self.packedPOST): self = .post
    case (5, Self.packedPATCH): self = .patch
    case (6, Self.packedDELETE): self = .delete
    case (7, Self.packedOPTIONS): self = .options
    default: return nil
    }
  }

  private static let packedGET = packed("GET".utf8)
  private static let packedPUT = packed("PUT".utf8)
  private static let packedHEAD = packed("HEAD".utf8)
  private static let packedPOST = packed("POST".utf8)
  private static let packedPATCH = packed("PATCH".utf8)
  private static let packedDELETE = packed("DELETE".utf8)
  private static let packedOPTIONS = packed("OPTIONS".utf8)

  /// Up to eight bytes as one big-endian number, e.g. `GET` as 0x474554.
  private static func packed(_ bytes: some Collection<UInt8>) -> UInt64 {
    bytes.reduce(0) { $0 << 8 | UInt64($1) }
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
