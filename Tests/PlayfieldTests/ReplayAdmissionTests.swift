import JSON
import Synchronization
import Testing

@testable import Playfield

@Suite("Replays take their place before loading; replay states are kept and bounded")
struct ReplayAdmissionTests {
  @Test("loading replays count against the limit and their address's share; a failed load frees")
  func reservations() {
    let replays = ReplayRegistry(limit: 3, perAddress: 2)
    #expect(replays.reserve(address: "10.0.0.2") == nil)
    #expect(replays.reserve(address: "10.0.0.2") == nil)
    #expect(replays.reserve(address: "10.0.0.2") == .address, "the address holds its share")
    #expect(replays.reserve(address: "10.0.0.3") == nil, "another address still gets one")
    #expect(replays.reserve(address: "10.0.0.4") == .full)
    replays.cancel(address: "10.0.0.2")
    #expect(replays.reserve(address: "10.0.0.4") == nil)
    #expect(replays.all.isEmpty)
  }

  @Test("replay states take places in turn by address; answers kept, the oldest dropped")
  func states() {
    let states = ReplayStates(
      capacity: 2,
      limits: FairQueue<ReplayStates.Job>.Limits(
        running: 2, waiting: 4, perClient: 3, perAddress: 3, deadline: 10),
      clock: { 0 })
    let keys = (1...3).map { ReplayStates.Key(session: "s", tick: UInt64($0), fromStart: false) }
    let (flooder, bystander) = (ClientKey(address: "10.0.0.2"), ClientKey(address: "10.0.0.3"))
    let started = Mutex<[String]>([])
    func admit(_ client: ClientKey, _ name: String) -> ReplayStates.Refusal? {
      states.admit(
        client: client, start: { started.withLock { $0.append(name) } }, expired: { _ in })
    }
    #expect(admit(flooder, "a1") == nil && admit(flooder, "a2") == nil)
    #expect(admit(flooder, "a3") == nil, "waits")
    let refused = admit(flooder, "a4")
    #expect(refused?.tooManyFromClient == true && (refused?.retryAfter ?? 0) >= 1)
    #expect(admit(bystander, "b1") == nil, "another address is not refused for the flood")
    #expect(started.withLock { $0 } == ["a1", "a2"])
    states.end(keys[0], client: flooder, answer: ["tick": 1])
    states.end(keys[1], client: flooder, answer: ["tick": 2])
    // The bystander has had nothing: its state goes before the flooder's third.
    #expect(started.withLock { $0 } == ["a1", "a2", "b1", "a3"])
    #expect(states.count == (running: 2, waiting: 0))
    states.end(keys[2], client: flooder, answer: nil)
    #expect(states.cached(keys[0]) == ["tick": 1])
    #expect(states.cached(keys[2]) == nil)
    #expect(admit(bystander, "b2") == nil)
    states.end(keys[2], client: bystander, answer: ["tick": 3])
    #expect(states.cached(keys[0]) == nil)
    #expect(states.cached(keys[1]) == ["tick": 2] && states.cached(keys[2]) == ["tick": 3])
  }
}
