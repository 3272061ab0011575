/// A close status code (RFC 6455 §7.4).
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The code as sent on the wire.
  public var rawValue: UInt16

  /// Wraps any code; `isValidOnWire` says whether it may be sent.
  public init(rawValue: UInt16) {
    self.rawValue = rawValue
  }

  /// Wraps any code; `isValidOnWire` says whether it may be sent.
  public init(_ rawValue: UInt16) {
    self.rawValue = rawValue
  }

  /// 1000: the purpose of the connection was fulfilled.
  public static let normal = Self(1000)
  /// 1001: the server is shutting down or the page is left.
  public static let goingAway = Self(1001)
  /// 1002: the peer broke the protocol.
  public static let protocolError = Self(1002)
  /// 1003: a message type the endpoint cannot take.
  public static let unsupportedData = Self(1003)
  /// Never sent: stands for a close frame without a code (RFC 6455 §7.1.5).
  public static let noStatusReceived = Self(1005)
  /// Never sent: the TCP connection ended without a close frame (RFC 6455 §7.1.5).
  public static let abnormalClosure = Self(1006)
  /// 1007: data inconsistent with its type, such as invalid UTF-8 text.
  public static let invalidPayload = Self(1007)
  /// 1008: a message that breaks the endpoint's policy.
  public static let policyViolation = Self(1008)
  /// 1009: a message or frame over the size limit.
  public static let messageTooBig = Self(1009)
  /// 1010: (client) the server did not agree to a needed extension.
  public static let mandatoryExtension = Self(1010)
  /// 1011: an unexpected condition, or a peer that stopped answering pings.
  public static let internalError = Self(1011)
  /// 1012: the service is restarting.
  public static let serviceRestart = Self(1012)
  /// 1013: temporary overload; try again later.
  public static let tryAgainLater = Self(1013)
  /// 1014: a gateway got an invalid response upstream.
  public static let badGateway = Self(1014)

  /// Whether the code may appear in a close frame (RFC 6455 §7.4.1, §7.4.2 and the IANA
  /// registry): 1000-1003, 1007-1014 and the 3000-4999 range for libraries and applications.
  public var isValidOnWire: Bool {
    switch rawValue {
    case 1000...1003, 1007...1014, 3000...4999: true
    default: false
    }
  }

  public var description: String { String(rawValue) }
}
