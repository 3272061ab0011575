import Testing

@testable import WebSocket

@Suite struct NegotiationTests {
  func negotiate(_ header: String, _ options: PerMessageDeflateOptions = .init())
    -> PerMessageDeflateParameters?
  {
    guard let offers = WebSocketExtensionOffer.parse([header]) else {
      Issue.record("unparsable: \(header)")
      return nil
    }
    return PerMessageDeflateParameters.negotiate(offers: offers, options: options)
  }

  @Test func parsesOffersParametersAndQuotedValues() {
    let offers = WebSocketExtensionOffer.parse([
      "foo; a=1; b, permessage-deflate ; server_max_window_bits=\"10\"\t;client_max_window_bits",
      "bar",
    ])
    #expect(
      offers == [
        .init(name: "foo", parameters: [.init(name: "a", value: "1"), .init(name: "b")]),
        .init(
          name: "permessage-deflate",
          parameters: [
            .init(name: "server_max_window_bits", value: "10"),
            .init(name: "client_max_window_bits"),
          ]),
        .init(name: "bar"),
      ])
  }

  @Test(arguments: [
    "permessage-deflate;", "permessage-deflate; a=", "; a", "permessage-deflate; a=\"1 2\"",
    "permessage-deflate; a=\"unterminated", "permessage-deflate x", "permessage-deflate; =1", "",
  ])
  func malformedHeadersDoNotParse(header: String) {
    #expect(WebSocketExtensionOffer.parse([header]) == nil)
  }

  /// (offer, expected response header or nil when declined), with the default options.
  @Test(arguments: [
    ("permessage-deflate", "permessage-deflate"),
    ("permessage-deflate; client_max_window_bits", "permessage-deflate"),
    (
      "permessage-deflate; server_no_context_takeover",
      "permessage-deflate; server_no_context_takeover"
    ),
    (
      "permessage-deflate; client_no_context_takeover",
      "permessage-deflate; client_no_context_takeover"
    ),
    (
      "permessage-deflate; server_max_window_bits=8", "permessage-deflate; server_max_window_bits=8"
    ),
    (
      "permessage-deflate; server_max_window_bits=\"12\"",
      "permessage-deflate; server_max_window_bits=12"
    ),
    (
      "permessage-deflate; client_max_window_bits=9", "permessage-deflate; client_max_window_bits=9"
    ),
    (
      "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=15; client_max_window_bits=15",
      "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=15; client_max_window_bits=15"
    ),
    (
      "PerMessage-Deflate; Server_No_Context_Takeover",
      "permessage-deflate; server_no_context_takeover"
    ),
  ])
  func acceptedOffers(offer: String, response: String) throws {
    let parameters = try #require(negotiate(offer))
    #expect(parameters.responseHeader == response)
  }

  @Test(arguments: [
    "permessage-deflate; server_max_window_bits=7", "permessage-deflate; server_max_window_bits=16",
    "permessage-deflate; server_max_window_bits=010", "permessage-deflate; server_max_window_bits",
    "permessage-deflate; client_max_window_bits=0", "permessage-deflate; client_max_window_bits=x",
    "permessage-deflate; server_no_context_takeover=1",
    "permessage-deflate; client_no_context_takeover=true",
    "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
    "permessage-deflate; client_max_window_bits; client_max_window_bits=10",
    "permessage-deflate; unknown", "permessage-deflate; mux=1", "deflate-frame",
    "x-webkit-deflate-frame",
  ])
  func declinedOffers(offer: String) {
    #expect(negotiate(offer) == nil)
  }

  @Test func firstAcceptableOfferWins() throws {
    let parameters = try #require(
      negotiate(
        "permessage-deflate; server_max_window_bits=99, permessage-deflate; server_max_window_bits=10, permessage-deflate"
      ))
    #expect(parameters.serverMaxWindowBits == 10)
    #expect(parameters.clientMaxWindowBits == 15)
  }

  /// Autobahn 13.7's offers: (no-context + window 8), (no-context), (plain).
  @Test func autobahnThirteenSevenOffers() throws {
    let parameters = try #require(
      negotiate(
        "permessage-deflate; server_no_context_takeover; server_max_window_bits=8; client_no_context_takeover; client_max_window_bits, permessage-deflate; server_no_context_takeover; client_no_context_takeover; client_max_window_bits, permessage-deflate; client_no_context_takeover; client_max_window_bits"
      ))
    #expect(parameters.serverNoContextTakeover)
    #expect(parameters.clientNoContextTakeover)
    #expect(parameters.serverMaxWindowBits == 8)
    #expect(parameters.clientMaxWindowBits == 15)
  }

  /// The policy the server uses: whatever a client offers (Chromium, Firefox and `websockets`
  /// offer context takeover), each server message is compressed on its own, and says so.
  @Test(arguments: [
    "permessage-deflate; client_max_window_bits", "permessage-deflate",
    "permessage-deflate; server_max_window_bits=10; client_max_window_bits",
  ])
  func recommendedPolicyCompressesEachServerMessageAlone(offer: String) throws {
    let parameters = try #require(negotiate(offer, .recommended))
    #expect(parameters.serverNoContextTakeover)
    #expect(parameters.responseHeader.contains("; server_no_context_takeover"))
  }

  @Test func serverPolicyCapsAndAdds() throws {
    let options = PerMessageDeflateOptions(
      serverNoContextTakeover: true, clientNoContextTakeover: true, serverMaxWindowBits: 12,
      clientMaxWindowBits: 11)
    let plain = try #require(negotiate("permessage-deflate", options))
    #expect(
      plain.responseHeader
        == "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=12"
    )
    #expect(plain.clientMaxWindowBits == 15)
    let open = try #require(negotiate("permessage-deflate; client_max_window_bits", options))
    #expect(open.clientMaxWindowBits == 11)
    #expect(open.responseHeader.hasSuffix("; client_max_window_bits=11"))
    let small = try #require(
      negotiate("permessage-deflate; client_max_window_bits=9; server_max_window_bits=10", options))
    #expect(small.clientMaxWindowBits == 9)
    #expect(small.serverMaxWindowBits == 10)
    let large = try #require(negotiate("permessage-deflate; server_max_window_bits=15", options))
    #expect(large.serverMaxWindowBits == 12)
  }
}
