import HTTP
import Testing

@Suite("Host allow-list against DNS rebinding")
struct HostPolicyTests {
  let policy = HostPolicy(names: ["playfield.example"])

  @Test(
    "localhost, IP literals and listed names pass",
    arguments: [
      "localhost", "localhost:8080", "LOCALHOST:1", "localhost.", "127.0.0.1", "127.0.0.1:8080",
      "10.1.2.3:80", "[::1]:8080", "[::1]", "playfield.example", "Playfield.Example:443",
      "app.localhost:8080", "a.b.localhost",
    ])
  func allowed(host: String) {
    #expect(policy.allows(host: host))
    #expect(policy.check(Request(method: .get, target: "/", headers: ["Host": host])) == nil)
  }

  @Test(
    "any other name gets 421",
    arguments: [
      "rebind.example:8080", "rebind.example", "localhost.rebind.example", "127.0.0.1.nip.io",
      "evil-localhost", "1.2.3", "1.2.3.4.5", "256.1.1.1", "playfield.example.evil",
    ])
  func refused(host: String) throws {
    #expect(!policy.allows(host: host))
    let response = try #require(
      policy.check(Request(method: .get, target: "/", headers: ["Host": host])))
    #expect(response.status == .misdirectedRequest)
    #expect(response.status.code == 421)
  }

  @Test("the refusal names the host asked for and the option that answers it")
  func refusalSaysWhatToDo() throws {
    let request = Request(method: .get, target: "/", headers: ["Host": "Box.Example.:8080"])
    let reason = try #require(policy.refusal(request))
    #expect(reason.contains("--allow-host box.example"))
    #expect(reason.contains("ALLOW_HOST=box.example"))
    #expect(reason.contains("DNS rebinding"))
    let response = try #require(policy.check(request))
    #expect(String(decoding: response.body, as: UTF8.self).contains("--allow-host box.example"))
    let local = Request(method: .get, target: "/", headers: ["Host": "localhost"])
    #expect(policy.refusal(local) == nil)
  }

  @Test(
    "every address, and only that, is a wildcard",
    arguments: [
      ("0.0.0.0", true), ("::", true), ("[::]", true), ("127.0.0.1", false), ("::1", false),
      ("192.168.1.2", false), ("box.example", false),
    ])
  func wildcard(address: String, expected: Bool) {
    #expect(HostPolicy.isWildcard(address) == expected)
  }

  @Test("an HTTP/1.0 request without Host passes; the parser guards HTTP/1.1")
  func missing() {
    #expect(policy.allows(Request(method: .get, target: "/", version: .http1_0)))
  }
}
