import HTTP
import JSON
import Simulation
import Storage
import Testing
import WebSocket

@testable import Playfield

@Suite struct DrawTokenTests {
  let tokenHash = TokenHash.hash(token: "the-control-token")

  func session(_ model: any Simulation) -> LiveSession {
    LiveSession(
      id: "s1", model: model, seed: 1, tokenHash: tokenHash, createdAt: 0, running: true,
      journal: nil, idlePause: 30, clock: { MonotonicTime.now() })
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

  @Test func theDrawingTokenIsDerivedFromTheStoredHashAndOnlyForPaintbrush() {
    let draw = DrawToken.token(tokenHash: tokenHash)
    #expect(draw.count == 64 && draw != tokenHash)
    #expect(draw == TokenHash.hash(token: "playfield-draw:" + tokenHash))
    #expect(DrawToken.matches(draw, type: Paintbrush.self, tokenHash: tokenHash))
    #expect(!DrawToken.matches(draw, type: MazeBall.self, tokenHash: tokenHash))
    #expect(!DrawToken.matches("the-control-token", type: Paintbrush.self, tokenHash: tokenHash))
    #expect(!DrawToken.matches(tokenHash, type: Paintbrush.self, tokenHash: tokenHash))
    let other = TokenHash.hash(token: "another-token")
    #expect(!DrawToken.matches(draw, type: Paintbrush.self, tokenHash: other))
    #expect(DrawToken.guestInputs(for: Paintbrush.self) == ["stroke", "undo"])
    #expect(DrawToken.guestInputs(for: Holes.self).isEmpty)
  }

  @Test func aDrawerMaySendOnlyGuestInputs() throws {
    let live = session(try Paintbrush(config: [:], seed: 1))
    let drawer = handler(live, .drawer)
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
    let drawer = handler(live, .drawer)
    let tilt = #"{"type":"tilt","x":0.5,"y":0}"#
    #expect(errorCode(drawer.handle(.text(tilt))) == "not-controller")
  }
}
