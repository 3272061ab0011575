import HTTP
import JSON
import Simulation
import Storage
import Testing
import WebSocket

@testable import Playfield

@Suite struct SeatTokenTests {
  let tokenHash = TokenHash.hash(token: "the-control-token")

  func session(_ model: any Simulation, journal: SessionJournal? = nil) -> LiveSession {
    LiveSession(
      id: "s1", model: model, seed: 1, tokenHash: tokenHash, createdAt: 0, running: true,
      journal: journal, idlePause: 30, clock: { MonotonicTime.now() })
  }

  func errorCode(_ result: Result<ServerMessage?, ClientError>) -> String? {
    guard case .failure(let error) = result else { return nil }
    return error.code
  }

  func handler(_ live: LiveSession, _ role: SessionRole) -> SessionSocketHandler {
    SessionSocketHandler(session: live, role: role, inputLog: InputLogCap(maxInputs: 100))
  }

  let stroke =
    ##"{"type":"stroke","author":"ann","stroke":1,"color":"#ffffff","radius":5,"points":[1,2]}"##

  let drawing = Paintbrush.seats[0]

  @Test func theDrawingTokenIsDerivedFromTheStoredHashAsBefore() {
    let draw = SeatToken.token(for: drawing, tokenHash: tokenHash)
    #expect(draw.count == 64 && draw != tokenHash)
    // NB: the same bytes as before seats were general, so existing drawing links still work.
    #expect(draw == TokenHash.hash(token: "playfield-draw:" + tokenHash))
    #expect(
      SeatToken.seat(presenting: draw, type: Paintbrush.self, tokenHash: tokenHash) == drawing)
    #expect(SeatToken.seat(presenting: draw, type: MazeBall.self, tokenHash: tokenHash) == nil)
    #expect(
      SeatToken.seat(presenting: "the-control-token", type: Paintbrush.self, tokenHash: tokenHash)
        == nil)
    #expect(
      SeatToken.seat(presenting: tokenHash, type: Paintbrush.self, tokenHash: tokenHash) == nil)
    let other = TokenHash.hash(token: "another-token")
    #expect(SeatToken.seat(presenting: draw, type: Paintbrush.self, tokenHash: other) == nil)
    #expect(drawing.inputs == ["stroke", "undo"] && drawing.role == "drawer")
    #expect(Holes.seats.isEmpty)
  }

  @Test func eachSeatHasItsOwnToken() {
    let helper = Counter.seats[0]
    let token = SeatToken.token(for: helper, tokenHash: tokenHash)
    #expect(token == TokenHash.hash(token: "playfield-helper:" + tokenHash))
    #expect(token != SeatToken.token(for: drawing, tokenHash: tokenHash))
    #expect(SeatToken.seat(presenting: token, type: Counter.self, tokenHash: tokenHash) == helper)
  }

  @Test func theServerStampsTheSenderWhateverTheMessageClaims() throws {
    let journal = RecordingJournal()
    let live = session(try Counter(config: [:], seed: 1), journal: journal)
    let claim = #"{"type":"add","amount":1,"by":"controller"}"#
    #expect(errorCode(handler(live, .guest(Counter.seats[0])).handle(.text(claim))) == nil)
    #expect(errorCode(handler(live, .controller).handle(.text(claim))) == nil)
    #expect(
      errorCode(handler(live, .guest(Counter.seats[0])).handle(.text(#"{"type":"reset"}"#)))
        == "not-controller")
    live.advance(now: 1, budget: SessionBudget())
    #expect(journal.inputs.map { $0["by"] } == ["helper", "controller"])
  }

  @Test func aDrawerMaySendOnlyGuestInputs() throws {
    let live = session(try Paintbrush(config: [:], seed: 1))
    let drawer = handler(live, .guest(drawing))
    #expect(errorCode(drawer.handle(.text(stroke))) == nil)
    #expect(errorCode(drawer.handle(.text(#"{"type":"undo","author":"ann"}"#))) == nil)
    for type in ["clear", "reset", "start", "stop", "step"] {
      #expect(errorCode(drawer.handle(.text(#"{"type":"\#(type)"}"#))) == "not-controller")
    }
    #expect(errorCode(drawer.handle(.text(#"{"type":"stroke"}"#))) == "bad-field")
    let spectator = handler(live, .spectator)
    #expect(errorCode(spectator.handle(.text(stroke))) == "not-controller")
    let controller = handler(live, .controller)
    #expect(errorCode(controller.handle(.text(#"{"type":"clear"}"#))) == nil)
    #expect(errorCode(controller.handle(.text(stroke))) == nil)
  }

  @Test func aDrawerOfAnotherKindMaySendNothing() throws {
    let live = session(try MazeBall(config: [:], seed: 1))
    let drawer = handler(live, .guest(drawing))
    let tilt = #"{"type":"tilt","x":0.5,"y":0}"#
    #expect(errorCode(drawer.handle(.text(tilt))) == "not-controller")
  }
}
