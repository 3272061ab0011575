import HTTP
import Testing
import WebSocket

@Suite("Same origin means http:// exactly")
struct OriginSchemeTests {
  func request(host: String, origin: String) -> Request {
    Request(method: .get, target: "/ws/sessions/1", headers: ["Host": host, "Origin": origin])
  }

  @Test(
    "an https, upper-case or other scheme is not this plain-http server's origin",
    arguments: [
      ("localhost:8080", "https://localhost:8080"), ("localhost:8080", "HTTP://localhost:8080"),
      ("localhost:8080", "Http://localhost:8080"), ("example.org:443", "https://example.org"),
      ("localhost:8080", "ws://localhost:8080"), ("localhost:8080", "ftp://localhost:8080"),
    ])
  func refused(host: String, origin: String) {
    #expect(!OriginPolicy().allows(request(host: host, origin: origin)))
  }

  @Test(
    "a lower-case http origin naming the Host is allowed",
    arguments: [
      ("localhost:8080", "http://localhost:8080"), ("Example.org", "http://example.org:80"),
      ("127.0.0.1:9", "http://127.0.0.1:9/"),
    ])
  func allowed(host: String, origin: String) {
    #expect(OriginPolicy().allows(request(host: host, origin: origin)))
  }

  @Test("an https origin passes when it is listed with --allow-origin")
  func listed() {
    let policy = OriginPolicy(allowedOrigins: ["https://example.com"])
    #expect(policy.allows(request(host: "localhost:8080", origin: "https://example.com")))
  }
}
