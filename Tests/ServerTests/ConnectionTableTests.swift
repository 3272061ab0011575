import Testing

@testable import Server

@Suite("Connection table: a cap per address group, and who gives way when full")
struct ConnectionTableTests {
  private func id(_ admission: ConnectionTable.Admission) -> Int? {
    if case .admit(let id, _) = admission { return id }
    return nil
  }

  @Test("one group holds at most perGroup; other groups still get in")
  func perGroupCap() {
    var table = ConnectionTable(maxConnections: 100, perGroup: 3)
    for time in 0..<3 { #expect(id(table.open(group: "a", now: UInt64(time))) != nil) }
    #expect(table.open(group: "a", now: 3) == .refuseGroupFull)
    #expect(id(table.open(group: "b", now: 4)) != nil)
    #expect(table.count(of: "a") == 3 && table.count == 4)
    #expect(id(table.open(group: "proxy", capped: false, now: 5)) != nil)
  }

  @Test("a family of a group holds at most perFamily, once named; others and the unnamed do not")
  func perFamilyShare() {
    var table = ConnectionTable(maxConnections: 100, perGroup: 6, perFamily: 2)
    let ids = (0..<6).map { id(table.open(group: "a", now: UInt64($0)))! }
    let first = table.claim(ids[0], family: "x")
    let second = table.claim(ids[1], family: "x")
    // Claiming again for a connection already counted changes nothing.
    let again = table.claim(ids[1], family: "x")
    #expect(first && second && again && table.count(of: "x", in: "a") == 2)
    let third = table.claim(ids[2], family: "x")
    #expect(!third && table.count(of: "x", in: "a") == 2)
    // Another family of the same group, and the same family name in another group, still fit.
    let other = table.claim(ids[2], family: "y")
    let b = id(table.open(group: "b", now: 9))!
    let elsewhere = table.claim(b, family: "x")
    #expect(other && elsewhere)
    // A closed connection frees its family's place; an unknown one is let be.
    table.close(ids[0])
    #expect(table.count(of: "x", in: "a") == 1)
    let freed = table.claim(ids[3], family: "x")
    let unknown = table.claim(12345, family: "x")
    #expect(freed && unknown)
    #expect(table.count(of: "a") == 5)
  }

  @Test("a closed connection frees its group's place")
  func closing() {
    var table = ConnectionTable(maxConnections: 100, perGroup: 1)
    let first = id(table.open(group: "a", now: 0))!
    #expect(table.open(group: "a", now: 1) == .refuseGroupFull)
    table.close(first)
    table.close(first)
    #expect(table.count(of: "a") == 0)
    #expect(id(table.open(group: "a", now: 2)) != nil)
  }

  @Test("when full, the heaviest group's idlest connection gives way, oldest first of equals")
  func evictionOrder() {
    var table = ConnectionTable(maxConnections: 5, perGroup: 10)
    let a0 = id(table.open(group: "a", now: 0))!
    let a1 = id(table.open(group: "a", now: 1))!
    let a2 = id(table.open(group: "a", now: 2))!
    let a3 = id(table.open(group: "a", now: 3))!
    let b0 = id(table.open(group: "b", now: 4))!
    table.touch(a0, now: 10)
    table.touch(a2, now: 11)
    // a1 and a3 are idle since they opened; a1 is older.
    #expect(table.open(group: "c", now: 20) == .admit(id: 5, evicting: a1))
    #expect(table.open(group: "d", now: 21) == .admit(id: 6, evicting: a3))
    #expect(table.count(of: "a") == 2 && table.count == 5)
    // Now a, with 2, is still the heaviest; of a0 (active at 10) and a2 (at 11), a0 goes.
    #expect(table.open(group: "e", now: 22) == .admit(id: 7, evicting: a0))
    #expect(table.count(of: "a") == 1)
    _ = b0
    _ = a2
  }

  @Test("a group as heavy as the heaviest is refused, not given someone else's place")
  func heavyNewcomerRefused() {
    var table = ConnectionTable(maxConnections: 4, perGroup: 10)
    for time in 0..<2 { _ = table.open(group: "a", now: UInt64(time)) }
    for time in 2..<4 { _ = table.open(group: "b", now: UInt64(time)) }
    #expect(table.open(group: "a", now: 5) == .refuseFull)
    #expect(
      table.open(group: "c", now: 6) == .admit(id: 4, evicting: 0),
      "of two equally heavy groups, the idlest connection of either")
    #expect(table.open(group: "c", now: 7) == .refuseFull, "b has 2, c would have 2")
    var lopsided = ConnectionTable(maxConnections: 4, perGroup: 10)
    for time in 0..<4 { _ = lopsided.open(group: "a", now: UInt64(time)) }
    #expect(lopsided.open(group: "a", now: 5) == .refuseFull, "the heaviest never evicts itself")
    #expect(lopsided.open(group: "b", now: 6) == .admit(id: 4, evicting: 0))
  }
}
