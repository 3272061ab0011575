import Testing

@testable import Playfield

/// A batch step's inputs are counted against their logs all or none, each as a single input
/// after those before it would be.
@Suite struct InputLogBatchTests {
  let owner = ClientKey(address: "10.0.0.1")

  func cap(storage: @escaping @Sendable () -> String? = { nil }) -> InputLogCap {
    let owner = owner
    return InputLogCap(
      maxInputs: 3, maxBytes: 1_000, maxBytesPerClient: 50, owner: { _ in owner },
      storage: storage)
  }

  @Test func aBatchThatFitsIsCountedAsSingleInputsWouldBe() {
    let cap = cap()
    #expect(cap.admit([("a", 5), ("b", 7), ("a", 5)]) == nil)
    #expect(cap.logged("a") == (2, 10))
    #expect(cap.logged("b") == (1, 7))
    #expect(cap.bytes(of: owner) == 17)
  }

  @Test func aBatchPastABoundCountsNothingAndNamesTheFirstInputPastIt() {
    let cap = cap()
    #expect(cap.admit("a", bytes: 5) == nil)
    // The third input of `a` in this batch is its fourth: past --inputs-per-session (3).
    let refused = cap.admit([("b", 5), ("a", 5), ("a", 5), ("b", 5), ("a", 5)])
    #expect(refused?.sessionID == "a" && refused?.bound == .count)
    #expect(cap.logged("a") == (1, 5))
    #expect(cap.logged("b") == (0, 0))
    #expect(cap.bytes(of: owner) == 5)
    // The owner's bytes: 5 + 40 = 45 fit, the next 10 do not.
    let client = cap.admit([("c", 20), ("d", 20), ("c", 10)])
    #expect(client?.sessionID == "c" && client?.bound == .clientBytes)
    #expect(cap.bytes(of: owner) == 5)
    #expect(cap.admit([("c", 20), ("d", 20)]) == nil)
    #expect(cap.bytes(of: owner) == 45)
  }

  @Test func aDatabaseThatCannotBeWrittenRefusesTheBatchAtItsFirstInput() {
    let cap = cap(storage: { "the database is read-only" })
    let refused = cap.admit([("b", 5), ("a", 5)])
    #expect(refused?.sessionID == "b" && refused?.bound == .storageBacklog)
    #expect(cap.message(.storageBacklog).hasPrefix("the database is read-only; "))
    #expect(cap.logged("b") == (0, 0))
  }
}
