import Testing

@testable import Server

@Suite("Read accounts: one group's reading on one loop, by turn, looked up once a connection")
struct ReadAccountTests {
  @Test("counts belong to their turn; a new turn starts from nothing")
  func countsByTurn() {
    let account = ReadAccount()
    #expect(account.spent(in: 1) == ReadBudget(bytes: 0, messages: 0))
    account.charge(bytes: 100, messages: 0, in: 1)
    account.charge(bytes: 20, messages: 1, in: 1)
    #expect(account.spent(in: 1) == ReadBudget(bytes: 120, messages: 1))
    #expect(account.spent(in: 2) == ReadBudget(bytes: 0, messages: 0))
    account.charge(bytes: 5, messages: 1, in: 2)
    #expect(account.spent(in: 2) == ReadBudget(bytes: 5, messages: 1))
    #expect(account.spent(in: 1) == ReadBudget(bytes: 0, messages: 0))
  }

  @Test("a group's connections share one account; the loop's budget bounds it")
  func sharedAndBounded() throws {
    let loop = try EventLoop(index: 0, readBudget: ReadBudget(bytes: 1000, messages: 2))
    let first = loop.readAccount("10.0.0.1")
    let second = loop.readAccount("10.0.0.1")
    let other = loop.readAccount("10.0.0.2")
    #expect(first === second && first !== other)
    #expect(loop.readAllowance(first) == 1000)
    loop.chargeRead(first, bytes: 600)
    #expect(loop.readAllowance(second) == 400)
    loop.chargeRead(second, bytes: 600)
    #expect(loop.readAllowance(first) == 0)
    #expect(loop.readAllowance(other) == 1000)
    #expect(loop.chargeMessage(other) && loop.chargeMessage(other))
    #expect(!loop.chargeMessage(other))
    // Its messages spent, a group reads no more bytes in this turn either.
    #expect(loop.readAllowance(other) == 0)
  }

  @Test("accounts no connection holds are forgotten; held ones are kept")
  func prune() throws {
    let loop = try EventLoop(index: 0)
    let held = loop.readAccount("10.0.0.1")
    _ = loop.readAccount("10.0.0.2")
    _ = loop.readAccount("10.0.0.3")
    #expect(loop.accountCount == 3)
    loop.pruneAccounts()
    #expect(loop.accountCount == 1)
    #expect(loop.readAccount("10.0.0.1") === held)
    #expect(loop.accountCount == 1)
  }
}
