import HTTP
import JSON
import Logging
import Testing

@testable import Playfield

/// `POST /api/sessions` with an optional `seed`: kept exactly when given, refused by name when
/// it is not an integer from 0 to 2^53 - 1.
@Suite struct SessionAPISeedTests {
  private let api = SessionAPI(
    registry: SessionRegistry(
      journal: nil, limits: SessionLimits(), random: { Array(repeating: 7, count: $0) },
      wallClock: { 1_000 }, monotonicClock: { .zero }, logger: Logger(label: "test")))

  private func post(_ body: String) -> Response {
    let request = Request(
      method: .post, target: "/api/sessions",
      headers: [
        "Host": "test", "Content-Type": "application/json", "Content-Length": "\(body.utf8.count)",
      ],
      body: Array(body.utf8))
    return api.create(request, client: "127.0.0.1")
  }

  private func created(_ response: Response) throws -> LiveSession? {
    let json = try JSONValue.parse(response.body)
    return api.registry.session(try #require(json["id"]?.stringValue))
  }

  @Test func aGivenSeedIsTheSessionsSeed() throws {
    for seed in [0, 42, 9_007_199_254_740_991] {
      let response = post(#"{"kind": "holes", "seed": \#(seed)}"#)
      #expect(response.status.code == 201)
      #expect(try created(response)?.seed == UInt64(seed))
    }
  }

  @Test func withoutASeedTheRandomSourceChooses() throws {
    let response = post(#"{"kind": "maze"}"#)
    #expect(response.status.code == 201)
    #expect(try created(response)?.seed == 0x0707_0707_0707_0707)
  }

  @Test func aBadSeedIsRefusedByName() throws {
    for seed in ["-1", "1.5", "9007199254740992", "1e300", #""42""#, "null", "[1]"] {
      let response = post(#"{"kind": "holes", "seed": \#(seed)}"#)
      #expect(response.status.code == 400, "seed \(seed)")
      let json = try JSONValue.parse(response.body)
      #expect(json["field"]?.stringValue == "seed")
      #expect(json["error"]?.stringValue == "seed must be an integer from 0 to 9007199254740991")
    }
    #expect(api.registry.count == 0)
  }
}
