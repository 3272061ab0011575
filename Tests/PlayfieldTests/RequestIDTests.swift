import HTTP
import JSON
import Simulation
import Storage
import Testing
import WebSocket

@testable import Playfield

/// A command that carries an `id` is answered with that id: `ack` once it is checked and
/// queued, or the `error` that refused it (docs/protocol.md section 3).
@Suite struct RequestIDTests {
  let journal = RecordingJournal()

  func handler(_ role: SessionRole, maxInputs: Int = 100) throws -> SessionSocketHandler {
    let live = LiveSession(
      id: "s1", model: try Counter(config: [:], seed: 1), seed: 1,
      tokenHash: TokenHash.hash(token: "t"), createdAt: 0, running: true, journal: journal,
      idlePause: 30, clock: { MonotonicTime.now() })
    return SessionSocketHandler(
      session: live, role: role, inputLog: InputLogCap(maxInputs: maxInputs))
  }

  /// The reply as the client reads it, or nil for none.
  func reply(_ handler: SessionSocketHandler, _ text: String) -> JSONValue? {
    let message: ServerMessage?
    switch handler.handle(.text(text)) {
    case .success(let reply): message = reply
    case .failure(let error): message = .error(error)
    }
    return message.map { try! JSONValue.parse($0.bytes) }
  }

  @Test func anAcceptedCommandIsAcknowledgedWithItsID() throws {
    let controller = try handler(.controller)
    #expect(
      reply(controller, #"{"type":"add","amount":2,"id":"host-1"}"#)
        == ["type": "ack", "id": "host-1"])
    #expect(reply(controller, #"{"type":"stop","id":7}"#) == ["type": "ack", "id": 7])
    #expect(
      reply(controller, #"{"type":"step","count":2,"id":8.5}"#) == ["type": "ack", "id": 8.5])
    #expect(reply(controller, #"{"type":"add","amount":1}"#) == nil, "no id, no answer, as before")
    controller.session.advance(now: 1, budget: SessionBudget())
    #expect(journal.inputs.allSatisfy { $0["id"] == nil }, "the id is the envelope's, never logged")
    #expect(journal.inputs.count == 2)
  }

  @Test func aRefusedCommandsErrorCarriesItsID() throws {
    let spectator = try handler(.spectator)
    let refused = try #require(reply(spectator, #"{"type":"add","amount":1,"id":"h2"}"#))
    #expect(refused["type"] == "error" && refused["error"] == "not-controller")
    #expect(refused["id"] == "h2")
    #expect(refused["message"]?.stringValue?.contains("spectators cannot send add") == true)

    let full = try handler(.controller, maxInputs: 1)
    #expect(reply(full, #"{"type":"add","amount":1,"id":1}"#) == ["type": "ack", "id": 1])
    let overflow = try #require(reply(full, #"{"type":"add","amount":1,"id":2}"#))
    #expect(overflow["error"] == "log-full" && overflow["id"] == 2)

    let controller = try handler(.controller)
    let bad = try #require(reply(controller, #"{"type":"add","amount":"x","id":"h3"}"#))
    #expect(bad["error"] == "bad-field" && bad["field"] == "amount" && bad["id"] == "h3")
    let untyped = try #require(reply(controller, #"{"id":"h4"}"#))
    #expect(untyped["error"] == "missing-type" && untyped["id"] == "h4")
    let unknown = try #require(reply(controller, #"{"type":"fly","id":"h5"}"#))
    #expect(unknown["error"] == "unknown-type" && unknown["id"] == "h5")
  }

  @Test(arguments: [
    #"{"a":1}"#, "[1]", "true", "null", #""""#, "\"\(String(repeating: "x", count: 65))\"",
  ])
  func anIDThatIsNoRequestIDIsRefusedWithoutIt(id: String) throws {
    let controller = try handler(.controller)
    let refused = try #require(reply(controller, #"{"type":"start","id":\#(id)}"#))
    #expect(refused["error"] == "bad-field" && refused["field"] == "id")
    #expect(refused["id"] == nil)
  }

  @Test func aPingsIDIsStillAnyJSONEchoedInItsPong() throws {
    let spectator = try handler(.spectator)
    #expect(
      reply(spectator, #"{"type":"ping","id":{"k":[1]},"t":5}"#)
        == ["type": "pong", "id": ["k": [1]], "t": 5])
  }
}
