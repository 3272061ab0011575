import Testing

@testable import Playfield

/// Questions (street soccer's `plan`) are bounded per client, across its connections.
@Suite struct QueryLimiterTests {
  final class Socket {}

  @Test("a client's questions waiting are bounded across its sockets; answers give them back")
  func perClient() {
    let limiter = QueryLimiter(perClient: 3)
    let asker = ClientKey(address: "10.0.0.1")
    let (one, two, other) = (Socket(), Socket(), Socket())
    #expect(limiter.begin(asker, socket: ObjectIdentifier(one)))
    #expect(limiter.begin(asker, socket: ObjectIdentifier(one)))
    #expect(limiter.begin(asker, socket: ObjectIdentifier(two)))
    #expect(!limiter.begin(asker, socket: ObjectIdentifier(two)), "a second socket adds nothing")
    #expect(limiter.begin(ClientKey(address: "10.0.0.2"), socket: ObjectIdentifier(other)))
    limiter.end(socket: ObjectIdentifier(one), count: 2)
    #expect(limiter.count(of: asker) == 1)
    #expect(limiter.begin(asker, socket: ObjectIdentifier(one)))
    #expect(limiter.message.contains("3 questions"))
  }
}
