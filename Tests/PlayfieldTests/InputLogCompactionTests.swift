import Testing

@testable import Playfield

/// `InputLogCap` bounds what an on-demand session stores: each snapshot gives back the inputs
/// the store drops behind the oldest kept snapshot, to the session and to its owner.
@Suite struct InputLogCompactionTests {
  let owner = ClientKey(address: "10.0.0.1")

  func cap() -> InputLogCap {
    let owner = owner
    return InputLogCap(
      maxInputs: 10, maxBytes: 1_000, maxBytesPerClient: 70, snapshotsKept: 3,
      owner: { _ in owner })
  }

  func admit(_ cap: InputLogCap, _ count: Int, to session: String = "s") -> [InputLogCap.Bound?] {
    (0..<count).map { _ in cap.admit(session, bytes: 5) }
  }

  @Test func eachSnapshotGivesBackTheInputsBeforeTheOldestKeptOne() {
    let cap = cap()
    #expect(admit(cap, 4).allSatisfy { $0 == nil })
    cap.snapshotted("s")
    #expect(cap.logged("s") == (4, 20), "one snapshot kept: nothing dropped yet")
    #expect(admit(cap, 4).allSatisfy { $0 == nil })
    cap.snapshotted("s")
    #expect(cap.logged("s") == (4, 20), "two kept: the 4 before the first are dropped")
    #expect(cap.bytes(of: owner) == 20)
    #expect(admit(cap, 2).allSatisfy { $0 == nil })
    cap.snapshotted("s")
    #expect(cap.logged("s") == (6, 30), "three kept, the oldest the same: nothing more")
    cap.snapshotted("s")
    #expect(cap.logged("s") == (2, 10), "the first dropped: the oldest kept is now the second")
    #expect(cap.bytes(of: owner) == 10)
  }

  @Test func aSessionStepsFarPastItsBoundsWhenItSnapshots() {
    let cap = cap()
    var admitted = 0
    #expect(cap.snapshotEvery == 2)
    for round in 0..<100 {
      // A snapshot every `snapshotEvery` inputs (as the session takes them): at most three
      // intervals are ever counted.
      for bound in admit(cap, cap.snapshotEvery) {
        #expect(bound == nil, "round \(round)")
        admitted += bound == nil ? 1 : 0
      }
      cap.snapshotted("s")
      #expect(cap.logged("s").count <= 10)
    }
    #expect(admitted == 200)
    #expect(cap.bytes(of: owner) == 20)
  }

  @Test func withoutSnapshotsTheBoundsAreOnEverythingLogged() {
    // A realtime session never gives back: its whole log is kept.
    let cap = cap()
    #expect(admit(cap, 10).allSatisfy { $0 == nil })
    #expect(cap.admit("s", bytes: 5) == .count)
    // The owner's byte total is shared by its sessions: "t" has 20 bytes left of 70.
    #expect(admit(cap, 4, to: "t") == [nil, nil, nil, nil])
    #expect(cap.admit("t", bytes: 5) == .clientBytes)
    // Compacting "t" gives its owner room again.
    cap.snapshotted("t")
    #expect(cap.admit("t", bytes: 5) == .clientBytes, "one snapshot kept: nothing dropped yet")
    cap.snapshotted("t")
    #expect(cap.bytes(of: owner) == 50)
    #expect(admit(cap, 4, to: "t") == [nil, nil, nil, nil])
    #expect(cap.admit("t", bytes: 5) == .clientBytes)
  }

  @Test func aSessionThatLoggedNothingHasNothingToGiveBack() {
    let cap = cap()
    cap.snapshotted("s")
    cap.snapshotted("s")
    #expect(cap.logged("s") == (0, 0))
    #expect(admit(cap, 10).allSatisfy { $0 == nil })
    #expect(cap.admit("s", bytes: 5) == .count)
  }

  @Test func snapshotsComeOftenEnoughToStayUnderTheCount() {
    #expect(InputLogCap(maxInputs: 100, snapshotsKept: 3).snapshotEvery == 25)
    #expect(InputLogCap(maxInputs: 200_000, snapshotsKept: 3).snapshotEvery == 50_000)
    #expect(InputLogCap(maxInputs: 1, snapshotsKept: 3).snapshotEvery == 1)
  }
}
