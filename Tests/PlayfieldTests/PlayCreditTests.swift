import Testing

@testable import Playfield

@Suite struct PlayCreditTests {
  /// At a quarter speed a whole tick comes due every fourth game-loop tick, and what is stepped
  /// is not due again.
  @Test func slowPlayComesDueInWholeTicks() {
    var credit = PlayCredit()
    var due: [UInt64] = []
    for _ in 0..<8 {
      due.append(credit.earn(at: 0.25, cap: 4))
      credit.leave(0)
    }
    #expect(due == [0, 0, 0, 1, 0, 0, 0, 1])
  }

  /// What a tick left unstepped is due on the next tick beside the new credit, up to the cap;
  /// past it a tick's whole credit is skipped, so what is due stays a whole number of speeds.
  @Test func unsteppedTicksAreOwedUpToTheCap() {
    var credit = PlayCredit()
    #expect(credit.earn(at: 4, cap: 16) == 4)
    credit.leave(3)
    #expect(credit.earn(at: 4, cap: 16) == 7)
    credit.leave(7)
    #expect(credit.earn(at: 4, cap: 16) == 11)
    credit.leave(11)
    #expect(credit.earn(at: 4, cap: 16) == 15)
    credit.leave(15)
    #expect(credit.earn(at: 4, cap: 16) == 15)
    credit.leave(0)
    #expect(credit.earn(at: 4, cap: 16) == 4)
  }

  /// A command forgets what is owed but not the part of a tick; a reset forgets both.
  @Test func forgetOwedKeepsThePartOfATickAndResetDoesNot() {
    var credit = PlayCredit()
    #expect(credit.earn(at: 1.5, cap: 8) == 1)
    credit.leave(1)
    credit.forgetOwed()
    #expect(credit.earn(at: 1.5, cap: 8) == 2)
    credit.leave(0)
    #expect(credit.earn(at: 1.5, cap: 8) == 1)
    credit.leave(1)
    credit.reset()
    #expect(credit.earn(at: 1.5, cap: 8) == 1)
  }
}
