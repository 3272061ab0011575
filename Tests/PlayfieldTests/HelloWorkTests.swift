import Synchronization
import Testing

@testable import Playfield

/// Big hellos are charged to the joining client: a bounded number at once per client, in turn
/// across clients, the rest refused.
@Suite struct HelloWorkTests {
  /// Jobs admitted but not yet run, run when the test says.
  final class Runner: Sendable {
    let held = Mutex<[@Sendable () -> Void]>([])
    func run(_ work: @escaping @Sendable () -> Void) { held.withLock { $0.append(work) } }
    /// Runs the oldest held job; false when none is held.
    func runOne() -> Bool {
      guard let work = held.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return false }
      work()
      return true
    }
  }

  @Test("a client gets at most its share of big hellos at once; others are not held up")
  func perClientBound() {
    let runner = Runner()
    let work = HelloWork(
      limits: .init(running: 1, waiting: 8, perClient: 3, perAddress: 6, deadline: 10),
      clock: { 0 }, run: { runner.run($0) })
    let log = Mutex<[String]>([])
    func job(_ client: ClientKey, _ name: String) -> HelloWork.Job {
      HelloWork.Job(
        client: client, encode: { log.withLock { $0.append(name) } },
        refuse: { reason in log.withLock { $0.append("refused \(name): \(reason)") } })
    }
    let greedy = ClientKey(address: "10.0.0.1")
    let other = ClientKey(address: "10.0.0.2")
    work.submit(job(greedy, "a1"))
    work.submit(job(greedy, "a2"))
    work.submit(job(greedy, "a3"))
    work.submit(job(greedy, "a4"))
    work.submit(job(other, "b1"))
    #expect(
      log.withLock { $0 } == [
        "refused a4: too many of your joins are being prepared (--big-hellos-per-client); try again shortly"
      ])
    while runner.runOne() {}
    #expect(
      log.withLock { Array($0.dropFirst()) } == ["a1", "b1", "a2", "a3"],
      "the other client, which has had none, goes before the greedy one's second")
    #expect(work.statistics == HelloWork.Statistics(encoded: 4, refused: 1))
  }

  @Test("every hello is charged its bytes: a client's hellos just under the bound add up to big")
  func smallHellosAddUp() {
    let now = Mutex(0.0)
    let work = HelloWork(bigBytes: 1000, clock: { now.withLock { $0 } }, run: { _ in })
    let joiner = ClientKey(address: "10.0.0.1")
    let other = ClientKey(address: "10.0.0.2")
    // Up to 4 times the bound (`HelloWork.burst`) together, a client's hellos are small.
    for _ in 0..<4 { #expect(!work.charge(joiner, estimate: 900, lastBytes: 0).isBig) }
    #expect(work.charge(joiner, estimate: 900, lastBytes: 0).isBig, "the fifth at once is big")
    #expect(
      work.charge(joiner, estimate: 0, lastBytes: 900).isBig, "the session's last size counts")
    #expect(!work.charge(other, estimate: 900, lastBytes: 0).isBig, "another client is not charged")
    #expect(work.charge(other, estimate: 1000, lastBytes: 0).isBig, "big by itself")
    // The charge drains at the bound a second, and counts at most the burst: half a second
    // later, one more fits, then no more.
    now.withLock { $0 = 0.5 }
    #expect(!work.charge(joiner, estimate: 450, lastBytes: 0).isBig)
    #expect(work.charge(joiner, estimate: 100, lastBytes: 0).isBig)
    // Four seconds after the burst, the joiner's hellos are small again.
    now.withLock { $0 = 4.5 }
    for _ in 0..<4 { #expect(!work.charge(joiner, estimate: 900, lastBytes: 0).isBig) }
  }

  @Test("an address's families together are charged too: minting families does not multiply it")
  func familiesShareTheirAddresssCharge() {
    let now = Mutex(0.0)
    // Each client's hellos add up to big at 4 times the bound; an address's (its families
    // together) at 2 clients' worth (perAddress / perClient), 8 times the bound.
    let work = HelloWork(
      limits: .init(running: 1, waiting: 8, perClient: 2, perAddress: 4, deadline: 10),
      bigBytes: 1000, clock: { now.withLock { $0 } }, run: { _ in })
    let families = (0..<9).map { ClientKey(address: "10.0.0.1", family: "f\($0)") }
    // Eight families' first hellos of 900 bytes: 7,200 bytes for the address, all small.
    for family in families.prefix(8) {
      #expect(!work.charge(family, estimate: 900, lastBytes: 0).isBig)
    }
    // A ninth family's first hello is small for it, but its address reaches 8,100: big.
    #expect(work.charge(families[8], estimate: 900, lastBytes: 0).isBig)
    #expect(!work.charge(ClientKey(address: "10.0.0.2"), estimate: 900, lastBytes: 0).isBig)
    // The address's charge drains at 2 bounds a second: a second later, two more fit.
    now.withLock { $0 = 1 }
    #expect(!work.charge(families[0], estimate: 900, lastBytes: 0).isBig)
    #expect(!work.charge(families[1], estimate: 900, lastBytes: 0).isBig)
    #expect(work.charge(families[2], estimate: 900, lastBytes: 0).isBig)
  }

  @Test("a hello's charge is settled at its real size: estimates over it do not add up to big")
  func chargesSettleAtRealSize() {
    let work = HelloWork(bigBytes: 1000, clock: { 0 }, run: { _ in })
    let joiner = ClientKey(address: "10.0.0.1")
    // Estimated at 900 bytes, encoded to 500: seven of them are 3,500 bytes, under the burst
    // of 4,000 (counted at their estimates, the fifth would be big).
    for _ in 0..<7 {
      let charge = work.charge(joiner, estimate: 900, lastBytes: 0)
      #expect(!charge.isBig)
      work.settle(charge, realBytes: 500)
    }
    #expect(work.charge(joiner, estimate: 900, lastBytes: 0).isBig, "3,500 + 900 reach 4,000")
    // A hello bigger than counted adds the rest: 100 counted, 2,900 more once encoded.
    let other = ClientKey(address: "10.0.0.2")
    let charge = work.charge(other, estimate: 0, lastBytes: 100)
    work.settle(charge, realBytes: 3000)
    #expect(!work.charge(other, estimate: 900, lastBytes: 0).isBig, "3,000 + 900")
    #expect(work.charge(other, estimate: 100, lastBytes: 0).isBig, "3,900 + 100")
  }

  @Test("a client at its limit keeps its charge when a hello settles under its estimate")
  func settlingAtTheLimitRefundsOnlyWhatWasCounted() {
    let work = HelloWork(bigBytes: 1000, clock: { 0 }, run: { _ in })
    let joiner = ClientKey(address: "10.0.0.1")
    for _ in 0..<4 { work.settle(work.charge(joiner, estimate: 900, lastBytes: 0), realBytes: 900) }
    // 3,600 counted: 400 of the next 900 fit; encoded to 500, it keeps 400 (all it added).
    let last = work.charge(joiner, estimate: 900, lastBytes: 0)
    #expect(last.isBig && last.clientAdded == 400)
    work.settle(last, realBytes: 500)
    #expect(work.charge(joiner, estimate: 1, lastBytes: 0).isBig, "still at the burst")
  }
}
