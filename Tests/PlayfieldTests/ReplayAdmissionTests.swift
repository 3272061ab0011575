import JSON
import Testing

@testable import Playfield

@Suite("Replays take their place before loading; replay states are kept and bounded")
struct ReplayAdmissionTests {
  @Test("loading replays count against the limit; a failed load gives its place back")
  func reservations() {
    let replays = ReplayRegistry(limit: 2)
    #expect(replays.reserve())
    #expect(replays.reserve())
    #expect(!replays.reserve())
    replays.cancel()
    #expect(replays.reserve())
    #expect(replays.all.isEmpty)
  }

  @Test("two replay states at once, answers kept, the oldest dropped past capacity")
  func states() {
    let states = ReplayStates(capacity: 2, concurrency: 2)
    let keys = (1...3).map { ReplayStates.Key(session: "s", tick: UInt64($0), fromStart: false) }
    #expect(states.begin() && states.begin())
    #expect(!states.begin())
    states.end(keys[0], answer: ["tick": 1])
    #expect(states.begin())
    states.end(keys[1], answer: ["tick": 2])
    states.end(keys[2], answer: nil)
    #expect(states.cached(keys[0]) == ["tick": 1])
    #expect(states.cached(keys[2]) == nil)
    #expect(states.begin())
    states.end(keys[2], answer: ["tick": 3])
    #expect(states.cached(keys[0]) == nil)
    #expect(states.cached(keys[1]) == ["tick": 2] && states.cached(keys[2]) == ["tick": 3])
  }
}
