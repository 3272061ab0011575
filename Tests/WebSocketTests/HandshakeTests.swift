import HTTP
import Testing

@testable import WebSocket

@Suite struct HandshakeTests {
  static let key = "dGhlIHNhbXBsZSBub25jZQ=="

  func upgrade(_ extra: [(String, String)] = [], removing: [String] = []) -> Request {
    var headers = HTTPHeaders([
      ("Host", "127.0.0.1:8080"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
      ("Sec-WebSocket-Key", Self.key), ("Sec-WebSocket-Version", "13"),
    ])
    for name in removing { headers.remove(name) }
    for (name, value) in extra { headers.add(name, value) }
    return Request(method: .get, target: "/ws/echo", headers: headers)
  }

  func accepted(_ request: Request, _ options: WebSocketHandshake.Options = .init()) throws
    -> WebSocketHandshake.Accepted
  {
    guard case .accept(let accepted) = WebSocketHandshake.evaluate(request, options: options)
    else {
      Issue.record("expected the handshake to be accepted")
      throw CancellationError()
    }
    return accepted
  }

  func rejection(_ request: Request) -> Response? {
    guard case .reject(let response) = WebSocketHandshake.evaluate(request) else { return nil }
    return response
  }

  /// RFC 6455 §1.3 example.
  @Test func acceptValueOfTheRFCExample() {
    #expect(WebSocketHandshake.acceptValue(forKey: Self.key) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
  }

  @Test func validUpgradeGets101() throws {
    let accepted = try accepted(upgrade())
    #expect(accepted.response.status.code == 101)
    #expect(accepted.response.headers["Upgrade"] == "websocket")
    #expect(accepted.response.headers["Connection"] == "Upgrade")
    #expect(accepted.response.headers["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    #expect(accepted.response.headers["Sec-WebSocket-Extensions"] == nil)
    #expect(accepted.response.headers["Sec-WebSocket-Protocol"] == nil)
    #expect(accepted.deflate == nil)
  }

  @Test func tokensAreCaseInsensitiveAndListed() throws {
    var request = upgrade(removing: ["Upgrade", "Connection"])
    request.headers.add("Upgrade", "WebSocket")
    request.headers.add("Connection", "keep-alive, UPGRADE")
    _ = try accepted(request)
  }

  @Test(arguments: ["8", "12", "14", "13, 8", "abc"])
  func otherVersionsGet426(version: String) throws {
    var request = upgrade(removing: ["Sec-WebSocket-Version"])
    request.headers.add("Sec-WebSocket-Version", version)
    let response = try #require(rejection(request))
    #expect(response.status.code == 426)
    #expect(response.headers["Sec-WebSocket-Version"] == "13")
  }

  @Test func invalidUpgradesGet400() throws {
    var post = upgrade()
    post.method = .post
    var old = upgrade()
    old.version = .http1_0
    var shortKey = upgrade(removing: ["Sec-WebSocket-Key"])
    shortKey.headers.add("Sec-WebSocket-Key", "dG9vIHNob3J0")
    var badKey = upgrade(removing: ["Sec-WebSocket-Key"])
    badKey.headers.add("Sec-WebSocket-Key", "not base64 at all!!!!!!!")
    var twoKeys = upgrade()
    twoKeys.headers.add("Sec-WebSocket-Key", Self.key)
    var wrongUpgrade = upgrade(removing: ["Upgrade"])
    wrongUpgrade.headers.add("Upgrade", "h2c")
    let cases = [
      post, old, shortKey, badKey, twoKeys, wrongUpgrade,
      upgrade(removing: ["Host"]), upgrade(removing: ["Upgrade"]),
      upgrade(removing: ["Connection"]), upgrade(removing: ["Sec-WebSocket-Key"]),
      upgrade(removing: ["Sec-WebSocket-Version"]),
      upgrade([("Sec-WebSocket-Extensions", "permessage-deflate;;")]),
    ]
    for request in cases {
      let response = try #require(rejection(request))
      #expect(response.status.code == 400)
      #expect(response.headers["Content-Type"]?.hasPrefix("text/plain") == true)
      #expect(!response.body.isEmpty)
    }
  }

  @Test func subprotocolSelection() throws {
    let offer = upgrade([("Sec-WebSocket-Protocol", "chat, Echo"), ("Sec-WebSocket-Protocol", "x")])
    let first = try accepted(offer, .init(subprotocols: .firstOffered))
    #expect(first.subprotocol == "chat")
    #expect(first.response.headers["Sec-WebSocket-Protocol"] == "chat")
    let preferred = try accepted(offer, .init(subprotocols: .preferred(["echo", "x", "Echo"])))
    #expect(preferred.subprotocol == "x")
    let none = try accepted(offer, .init(subprotocols: .none))
    #expect(none.response.headers["Sec-WebSocket-Protocol"] == nil)
    let unmatched = try accepted(offer, .init(subprotocols: .preferred(["json"])))
    #expect(unmatched.subprotocol == nil)
    let notOffered = try accepted(upgrade(), .init(subprotocols: .firstOffered))
    #expect(notOffered.subprotocol == nil)
  }

  @Test func deflateIsNegotiatedAndCanBeTurnedOff() throws {
    let request = upgrade([
      (
        "Sec-WebSocket-Extensions",
        "x-webkit-deflate-frame, permessage-deflate; client_max_window_bits"
      )
    ])
    let on = try accepted(request)
    #expect(
      on.response.headers["Sec-WebSocket-Extensions"]
        == "permessage-deflate; server_no_context_takeover; server_max_window_bits=12; client_max_window_bits=12"
    )
    #expect(on.deflate?.serverNoContextTakeover == true)
    #expect(on.deflate?.serverMaxWindowBits == 12)
    #expect(on.deflate?.clientMaxWindowBits == 12)
    let uncapped = try accepted(request, .init(deflate: PerMessageDeflateOptions()))
    #expect(uncapped.response.headers["Sec-WebSocket-Extensions"] == "permessage-deflate")
    #expect(uncapped.deflate?.serverMaxWindowBits == 15)
    let off = try accepted(request, .init(deflate: nil))
    #expect(off.deflate == nil)
    #expect(off.response.headers["Sec-WebSocket-Extensions"] == nil)
  }

  @Test func machineGetsTheNegotiatedSettings() throws {
    let request = upgrade([
      ("Sec-WebSocket-Extensions", "permessage-deflate; server_max_window_bits=10")
    ])
    var configuration = WebSocketConfiguration()
    configuration.maxMessageSize = 1234
    let accepted = try accepted(request, .init(configuration: configuration))
    let machine = accepted.makeStateMachine(now: .zero)
    #expect(machine.deflate?.serverMaxWindowBits == 10)
    #expect(machine.configuration.maxMessageSize == 1234)
    #expect(machine.isOpen)
  }
}

@Suite struct OriginPolicyTests {
  func request(host: String? = "localhost:8080", origins: [String]) -> Request {
    var headers = HTTPHeaders()
    if let host { headers.add("Host", host) }
    for origin in origins { headers.add("Origin", origin) }
    return Request(method: .get, target: "/ws/sessions/1", headers: headers)
  }

  @Test func allowedOrigins() {
    let policy = OriginPolicy(allowedOrigins: ["https://Example.com", "http://embed.test:3000/"])
    #expect(policy.allows(request(origins: [])))
    #expect(policy.allows(request(origins: ["http://localhost:8080"])))
    #expect(policy.allows(request(host: "example.org", origins: ["http://example.org:80"])))
    #expect(policy.allows(request(origins: ["https://example.com:443"])))
    #expect(policy.allows(request(origins: ["http://embed.test:3000"])))
  }

  @Test func refusedOrigins() throws {
    let policy = OriginPolicy(allowedOrigins: ["https://example.com"])
    for origins in [
      ["http://evil.test"], ["http://localhost:8081"], ["null"], ["http://localhost"],
      ["http://localhost:8080", "http://localhost:8080"], ["https://example.com:8443"],
      ["http://localhost:8080/path"],
    ] {
      #expect(!policy.allows(request(origins: origins)), "\(origins)")
      let response = try #require(policy.check(request(origins: origins)))
      #expect(response.status.code == 403)
    }
    #expect(!policy.allows(request(host: nil, origins: ["http://localhost:8080"])))
    #expect(policy.check(request(origins: [])) == nil)
  }
}
