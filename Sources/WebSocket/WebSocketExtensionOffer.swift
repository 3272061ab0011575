/// One element of a `Sec-WebSocket-Extensions` list (RFC 6455 §9.1): a name and parameters.
public struct WebSocketExtensionOffer: Sendable, Equatable {
  /// One `name[=value]` parameter; quoted values are unquoted.
  public struct Parameter: Sendable, Equatable {
    /// The parameter name as sent.
    public var name: String
    /// The value, unquoted, or nil for a parameter without one.
    public var value: String?

    /// Describes one parameter.
    public init(name: String, value: String? = nil) {
      self.name = name
      self.value = value
    }
  }

  /// The extension name, such as `permessage-deflate`.
  public var name: String
  /// The parameters in the order sent.
  public var parameters: [Parameter]

  /// Describes one offer.
  public init(name: String, parameters: [Parameter] = []) {
    self.name = name
    self.parameters = parameters
  }

  /// Parses the values of every `Sec-WebSocket-Extensions` field, in order; nil when the
  /// syntax is broken (RFC 6455 §9.1):
  ///
  ///     extension-list = 1#extension
  ///     extension = extension-token *( ";" extension-param )
  ///     extension-param = token [ "=" (token | quoted-string) ]
  ///
  /// A quoted value must itself be a token once unquoted.
  public static func parse(_ values: [String]) -> [WebSocketExtensionOffer]? {
    var offers: [WebSocketExtensionOffer] = []
    for value in values {
      var scanner = TokenScanner(value)
      guard let parsed = scanner.extensionList() else { return nil }
      offers += parsed
    }
    return offers
  }
}
