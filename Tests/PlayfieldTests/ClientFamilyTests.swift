import HTTP
import Testing

@testable import Playfield

/// A family id of the shape the server makes: 22 URL-safe base64 characters.
private func familyID(_ index: Int) -> String {
  let digits = String(index)
  return String(repeating: "f", count: 22 - digits.count) + digits
}

private func request(cookie: String?) -> Request {
  Request(
    method: .get, target: "/api/sessions",
    headers: HTTPHeaders(cookie.map { [("Cookie", $0)] } ?? []))
}

@Suite("Browser client families: the cookie, the table and the nested quotas")
struct ClientFamilyTests {
  @Test("an issued id is its own client; unknown ids and other addresses' ids are the address")
  func keying() {
    var families = ClientFamilies(perAddress: 4)
    families.issue(familyID(1), to: "10.0.0.1")
    #expect(
      families.key(address: "10.0.0.1", presenting: familyID(1))
        == ClientKey(address: "10.0.0.1", family: familyID(1)))
    #expect(families.key(address: "10.0.0.1", presenting: nil) == ClientKey(address: "10.0.0.1"))
    #expect(
      families.key(address: "10.0.0.1", presenting: familyID(2)) == ClientKey(address: "10.0.0.1"),
      "an id this server never issued counts as the address")
    #expect(
      families.key(address: "10.0.0.2", presenting: familyID(1)) == ClientKey(address: "10.0.0.2"),
      "an id issued to another address counts as the presenting address")
  }

  @Test("an address keeps its newest families; minting more forgets the oldest")
  func mintingForgets() {
    var families = ClientFamilies(perAddress: 3)
    var forgotten: [String] = []
    for index in 0..<10 { forgotten += families.issue(familyID(index), to: "10.0.0.1") }
    #expect(forgotten == (0..<7).map(familyID))
    #expect(families.count(for: "10.0.0.1") == 3)
    #expect(families.key(address: "10.0.0.1", presenting: familyID(0)).family == nil)
    #expect(families.key(address: "10.0.0.1", presenting: familyID(9)).family == familyID(9))
  }

  @Test("the table keeps its newest addresses")
  func addressesBounded() {
    var families = ClientFamilies(perAddress: 2, addresses: 2)
    families.issue(familyID(1), to: "a")
    families.issue(familyID(2), to: "b")
    families.issue(familyID(3), to: "a")
    #expect(families.issue(familyID(4), to: "c") == [familyID(2)])
    #expect(families.count(for: "b") == 0 && families.count(for: "a") == 2)
  }

  @Test("the cookie is read from the Cookie field; anything not shaped like an id is none")
  func cookie() {
    let id = familyID(7)
    #expect(ClientCookie.id(in: request(cookie: "playfield_client=\(id)")) == id)
    #expect(ClientCookie.id(in: request(cookie: "theme=dark; playfield_client=\(id); x=1")) == id)
    #expect(ClientCookie.id(in: request(cookie: "theme=dark")) == nil)
    #expect(ClientCookie.id(in: request(cookie: nil)) == nil)
    #expect(ClientCookie.id(in: request(cookie: "playfield_client=short")) == nil)
    #expect(ClientCookie.id(in: request(cookie: "playfield_client=\(id)\u{e9}")) == nil)
    #expect(ClientCookie.id(in: request(cookie: "playfield_client=" + id.dropLast() + "%")) == nil)
    #expect(ClientCookie.id(in: request(cookie: "playfield_client")) == nil)
    let set = ClientCookie.setCookie(id)
    #expect(set.hasPrefix("playfield_client=\(id); Path=/;"))
    #expect(set.contains("; HttpOnly") && set.contains("; SameSite=Strict"))
  }

  @Test("each family has its own session quota; all of an address's together the address cap")
  func sessionQuota() {
    let quota = SessionQuota(perClient: 2, perAddress: 5)
    let tabA = ClientKey(address: "10.0.0.1", family: familyID(1))
    let tabB = ClientKey(address: "10.0.0.1", family: familyID(2))
    let script = ClientKey(address: "10.0.0.1")
    #expect(quota.admit("a1", client: tabA) == nil)
    #expect(quota.admit("a2", client: tabA) == nil)
    #expect(quota.admit("a3", client: tabA) == .client)
    #expect(quota.admit("b1", client: tabB) == nil, "another family is not held back by the first")
    #expect(quota.admit("s1", client: script) == nil)
    #expect(quota.admit("s2", client: script) == nil)
    #expect(quota.count(forAddress: "10.0.0.1") == 5)
    #expect(quota.admit("b2", client: tabB) == .address)
    #expect(quota.admit("o1", client: ClientKey(address: "10.0.0.2")) == nil)
    quota.release("a1")
    #expect(quota.admit("b2", client: tabB) == nil)
    #expect(quota.message(.address).contains("5 live sessions"))
  }

  @Test("minting families never gets an address more than its cap")
  func mintAttack() {
    let quota = SessionQuota(perClient: 2, perAddress: 6)
    var families = ClientFamilies(perAddress: 3)
    var admitted = 0
    for index in 0..<50 {
      let id = familyID(index)
      families.issue(id, to: "10.0.0.9")
      let key = families.key(address: "10.0.0.9", presenting: id)
      for session in 0..<2 where quota.admit("s\(index)-\(session)", client: key) == nil {
        admitted += 1
      }
    }
    #expect(admitted == 6)
    #expect(quota.admit("other", client: ClientKey(address: "10.0.0.1")) == nil)
  }

  @Test("tile renders: each family its share, the address its cap")
  func renderQueue() {
    typealias Queue = FairQueue<String>
    var queue = Queue(limits: .init(running: 1, waiting: 100, perClient: 2, perAddress: 3))
    let tabA = ClientKey(address: "10.0.0.1", family: familyID(1))
    let tabB = ClientKey(address: "10.0.0.1", family: familyID(2))
    let refused: (Queue.Admission) -> Bool = {
      if case .refuse(_, let refusal) = $0 { return refusal.tooManyFromClient }
      return false
    }
    #expect(!refused(queue.submit("a1", client: tabA, now: 0)))
    #expect(!refused(queue.submit("a2", client: tabA, now: 0)))
    #expect(refused(queue.submit("a3", client: tabA, now: 0)))
    #expect(!refused(queue.submit("b1", client: tabB, now: 0)))
    #expect(refused(queue.submit("b2", client: tabB, now: 0)), "the address holds 3")
    #expect(!refused(queue.submit("c1", client: "10.0.0.2", now: 0)))
    let (started, _) = queue.finish(client: tabA, now: 1)
    #expect(started == ["c1"], "the other address has had nothing: its render goes first")
    #expect(!refused(queue.submit("b2", client: tabB, now: 1)), "a finished render frees a place")
  }

  @Test("turns go by address first: five families of one address get one address's turns")
  func turnsByAddress() {
    typealias Queue = FairQueue<String>
    var queue = Queue(limits: .init(running: 1, waiting: 100, perClient: 10, perAddress: 50))
    _ = queue.submit("busy", client: "10.0.0.3", now: 0)
    for family in 0..<5 {
      let key = ClientKey(address: "10.0.0.1", family: familyID(family))
      for job in 0..<2 { _ = queue.submit("m\(family)-\(job)", client: key, now: 0) }
    }
    for job in 0..<3 { _ = queue.submit("o\(job)", client: "10.0.0.2", now: 0) }
    var order: [String] = []
    var client: ClientKey = "10.0.0.3"
    for _ in 0..<8 {
      let next = queue.finish(client: client, now: 1).start
      order += next
      client =
        next.first!.hasPrefix("o")
        ? "10.0.0.2"
        : ClientKey(
          address: "10.0.0.1", family: familyID(Int(String(next.first!.dropFirst().prefix(1)))!))
    }
    // The minting address and the other take turns; within the minting address its families
    // take turns.
    #expect(order == ["m0-0", "o0", "m1-0", "o1", "m2-0", "o2", "m3-0", "m4-0"])
  }
}
