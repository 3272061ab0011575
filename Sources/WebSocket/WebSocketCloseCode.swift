/// A close status code (RFC 6455 §7.4).
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: UInt16

  public init(rawValue: UInt16) {
    self.rawValue = rawValue
  }

  public init(_ rawValue: UInt16) {
    self.rawValue = rawValue
  }

  public static let normal = Self(1000)
  public static let goingAway = Self(1001)
  public static let protocolError = Self(1002)
  public static let unsupportedData = Self(1003)
  /// Never sent: stands for a close frame without a code (RFC 6455 §7.1.5).
  public static let noStatusReceived = Self(1005)
  /// Never sent: the TCP connection ended without a close frame (RFC 6455 §7.1.5).
  public static let abnormalClosure = Self(1006)
  public static let invalidPayload = Self(1007)
  public static let policyViolation = Self(1008)
  public static let messageTooBig = Self(1009)
  public static let mandatoryExtension = Self(1010)
  public static let internalError = Self(1011)
  public static let serviceRestart = Self(1012)
  public static let tryAgainLater = Self(1013)
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
