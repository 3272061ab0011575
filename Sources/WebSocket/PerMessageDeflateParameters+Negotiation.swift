extension PerMessageDeflateParameters {
  /// Accepts the first acceptable `permessage-deflate` offer (RFC 7692 §5.1, §7.1); nil when
  /// there is none. Offers with unknown or repeated parameters or bad values are declined
  /// (RFC 7692 §7.1: "the server MUST decline an extension negotiation offer").
  public static func negotiate(
    offers: [WebSocketExtensionOffer], options: PerMessageDeflateOptions
  ) -> PerMessageDeflateParameters? {
    for offer in offers where offer.name.lowercased() == "permessage-deflate" {
      if let accepted = accept(offer, options: options) { return accepted }
    }
    return nil
  }

  /// The parameters of one offer, before the server's policy is applied.
  private struct Request {
    var serverNoContextTakeover = false
    var clientNoContextTakeover = false
    var serverMaxWindowBits: Int?
    /// nil: not offered; 0: offered without a value; else the client's own cap.
    var clientMaxWindowBits: Int?
  }

  private static func accept(
    _ offer: WebSocketExtensionOffer, options: PerMessageDeflateOptions
  ) -> PerMessageDeflateParameters? {
    guard let request = read(offer) else { return nil }

    // RFC 7692 §7.1.1.1: the server may always add server_no_context_takeover.
    let serverNoContextTakeover = request.serverNoContextTakeover || options.serverNoContextTakeover
    // RFC 7692 §7.1.1.2: client_no_context_takeover may be sent whether offered or not.
    let clientNoContextTakeover = request.clientNoContextTakeover || options.clientNoContextTakeover

    // RFC 7692 §7.1.2.1: answer with a value no larger than the client's, if it sent one.
    // NB: a client may ask for 8 bits, which zlib cannot deflate with; `Deflater` then uses
    // 9 bits, whose matches reach back at most 250 bytes and so fit the client's window.
    var serverBits = request.serverMaxWindowBits
    if let cap = options.serverMaxWindowBits { serverBits = min(serverBits ?? cap, cap) }

    // RFC 7692 §7.1.2.2: client_max_window_bits may be answered only if it was offered.
    var clientBits: Int?
    if let offered = request.clientMaxWindowBits {
      if let cap = options.clientMaxWindowBits {
        clientBits = offered == 0 ? cap : min(offered, cap)
      } else if offered != 0 {
        clientBits = offered
      }
    }

    var response = "permessage-deflate"
    if serverNoContextTakeover { response += "; server_no_context_takeover" }
    if clientNoContextTakeover { response += "; client_no_context_takeover" }
    if let serverBits { response += "; server_max_window_bits=\(serverBits)" }
    if let clientBits { response += "; client_max_window_bits=\(clientBits)" }
    return PerMessageDeflateParameters(
      serverNoContextTakeover: serverNoContextTakeover,
      clientNoContextTakeover: clientNoContextTakeover,
      serverMaxWindowBits: serverBits ?? 15, clientMaxWindowBits: clientBits ?? 15,
      responseHeader: response)
  }

  /// Checks every parameter of one offer; nil declines it.
  private static func read(_ offer: WebSocketExtensionOffer) -> Request? {
    var request = Request()
    var seen: Set<String> = []
    for parameter in offer.parameters {
      let name = parameter.name.lowercased()
      // RFC 7692 §7.1: each parameter at most once.
      guard seen.insert(name).inserted else { return nil }
      switch name {
      case "server_no_context_takeover":
        guard parameter.value == nil else { return nil }
        request.serverNoContextTakeover = true
      case "client_no_context_takeover":
        guard parameter.value == nil else { return nil }
        request.clientNoContextTakeover = true
      case "server_max_window_bits":
        guard let bits = windowBits(parameter.value) else { return nil }
        request.serverMaxWindowBits = bits
      case "client_max_window_bits":
        if parameter.value == nil {
          request.clientMaxWindowBits = 0
        } else {
          guard let bits = windowBits(parameter.value) else { return nil }
          request.clientMaxWindowBits = bits
        }
      default:
        return nil
      }
    }
    return request
  }

  /// RFC 7692 §7.1.2: a decimal integer 8...15 with no leading zeros.
  private static func windowBits(_ value: String?) -> Int? {
    guard let value, ["8", "9", "10", "11", "12", "13", "14", "15"].contains(value) else {
      return nil
    }
    return Int(value)
  }
}
