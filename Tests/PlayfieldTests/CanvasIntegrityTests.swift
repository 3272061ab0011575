import JSON
import Simulation
import Testing

@testable import Playfield

/// One painter's connection.
final class Painter: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

/// Issue 22, finding 7: on a live canvas a painter is who the server says sent the input, an
/// undo reaches only the sender's own strokes, and inputs that would change nothing are refused
/// to their sender and never logged.
@Suite struct CanvasIntegrityTests {
  typealias Machine = SessionMachine<Painter>

  static func stroke(_ key: String, _ number: Int) -> JSONValue {
    [
      "type": "stroke", "author": .string(key), "stroke": .number(number), "color": "#ffffff",
      "radius": 5, "points": [10, 10, 20, 20],
    ]
  }

  static func input(_ message: JSONValue, _ sender: Sender) throws -> CheckedInput {
    try #require(try Paintbrush.checkedInput(from: message, sentBy: sender))
  }

  /// Runs one tick; returns what it did, in short words.
  static func tick(_ machine: inout Machine, _ commands: Machine.Command...) -> [String] {
    var words: [String] = []
    machine.tick(
      commands, now: 1_000, mayStepAgain: { false },
      perform: { action in
        switch action {
        case .refused(let reason, let painter, _):
          words.append("refused to \(painter?.name ?? "nobody"): \(reason)")
        case .journalInputs(let inputs, _):
          words.append(
            "logged " + inputs.map { $0.json["type"]?.stringValue ?? "?" }.joined(separator: ","))
        case .broadcast(.event(let event, _), _, _):
          words.append("event \(event.name)")
        default: break
        }
      })
    return words
  }

  @Test func aGuestCannotUndoTheOwnersStrokeEvenWithTheOwnersKey() throws {
    var machine = Machine(
      id: "c", model: try Paintbrush(config: [:], seed: 1), running: true,
      configuration: .init())
    let owner = Painter("owner")
    let guest = Painter("guest")
    _ = Self.tick(&machine, .join(owner, .controller), .join(guest, .spectator))
    #expect(
      Self.tick(&machine, .input(try Self.input(Self.stroke("k", 1), .controller), from: owner))
        == ["logged stroke", "event paint"])
    // The guest knows the owner's key: the server stamps the guest's own sender all the same.
    #expect(
      Self.tick(
        &machine,
        .input(try Self.input(["type": "undo", "author": "k"], .guest("draw")), from: guest))
        == ["refused to guest: nothing of yours to undo"])
    #expect(
      Self.tick(&machine, .input(try Self.input(Self.stroke("g", 1), .guest("draw")), from: guest))
        == ["logged stroke", "event paint"])
    // The guest's undo takes the guest's stroke, and only that one.
    #expect(
      Self.tick(
        &machine,
        .input(try Self.input(["type": "undo", "author": "g"], .guest("draw")), from: guest))
        == ["logged undo", "event paint"])
    #expect(
      Self.tick(
        &machine,
        .input(try Self.input(["type": "undo", "author": "g"], .guest("draw")), from: guest))
        == ["refused to guest: nothing of yours to undo"])
    #expect(
      Self.tick(
        &machine, .input(try Self.input(["type": "undo", "author": "k"], .controller), from: owner))
        == ["logged undo", "event paint"])
  }

  @Test func noOpsAreRefusedAndNeverLoggedEvenWithinOneTick() throws {
    var machine = Machine(
      id: "c", model: try Paintbrush(config: [:], seed: 1), running: true,
      configuration: .init())
    let owner = Painter("owner")
    _ = Self.tick(&machine, .join(owner, .controller))
    #expect(
      Self.tick(&machine, .input(try Self.input(["type": "clear"], .controller), from: owner))
        == ["refused to owner: the canvas is already empty"])
    // One stroke, then two undos and two clears in the same tick: one of each takes effect.
    let undo = try Self.input(["type": "undo", "author": "k"], .controller)
    let clear = try Self.input(["type": "clear"], .controller)
    #expect(
      Self.tick(
        &machine, .input(try Self.input(Self.stroke("k", 1), .controller), from: owner),
        .input(undo, from: owner), .input(undo, from: owner),
        .input(try Self.input(Self.stroke("k", 2), .controller), from: owner),
        .input(clear, from: owner), .input(clear, from: owner))
        == [
          "refused to owner: nothing of yours to undo",
          "refused to owner: the canvas is already empty", "logged stroke,undo,stroke,clear",
          "event paint",
        ])
  }

  @Test func theStampIsTheSendersAndReadsBackFromTheLogAsItself() throws {
    let owner = try Self.input(Self.stroke("k", 1), .controller).json
    let guest = try Self.input(Self.stroke("k", 1), .guest("draw")).json
    let ownerAuthor = try #require(owner["author"]?.stringValue)
    let guestAuthor = try #require(guest["author"]?.stringValue)
    #expect(ownerAuthor.hasPrefix("controller-") && guestAuthor.hasPrefix("draw-"))
    #expect(ownerAuthor != "k" && ownerAuthor.count <= 32)
    // A guest who sends the owner's stamp as a key gets a stamp of its own.
    let forged = try Self.input(Self.stroke(ownerAuthor, 1), .guest("draw")).json
    #expect(forged["author"]?.stringValue != ownerAuthor)
    // Read back from the log (no sender), the stamp stays as it was written.
    #expect(try Paintbrush.checkedInput(from: owner)?.json == owner)
  }
}
