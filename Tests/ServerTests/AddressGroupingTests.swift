import Testing

@testable import Server

@Suite("Address groups: who a peer counts as")
struct AddressGroupingTests {
  let plain = AddressGrouping()

  @Test("an IPv4 address is its own group")
  func ipv4() {
    #expect(plain.group(of: "203.0.113.7") == "203.0.113.7")
    #expect(plain.group(of: "203.0.113.8") == "203.0.113.8")
  }

  @Test("IPv6 addresses group by their /64, however they are spelled")
  func ipv6() {
    let a = plain.group(of: "2001:db8:1:2::1")
    #expect(a == "2001:db8:1:2::/64")
    #expect(plain.group(of: "2001:0db8:0001:0002:ffff:eeee:dddd:cccc") == a)
    #expect(plain.group(of: "2001:db8:1:2:0:0:0:abcd") == a)
    #expect(plain.group(of: "2001:db8:1:3::1") != a, "the next /64 is another client")
    #expect(plain.group(of: "fe80::1%eth0") == "fe80::/64", "a zone is ignored")
  }

  @Test("an IPv4-mapped IPv6 address counts as the IPv4 address; ::1 as 127.0.0.1")
  func mapped() {
    #expect(plain.group(of: "::ffff:127.0.0.1") == "127.0.0.1")
    #expect(plain.group(of: "::ffff:203.0.113.7") == "203.0.113.7")
    #expect(plain.group(of: "::1") == "127.0.0.1")
  }

  @Test("loopback addresses are distinct by default, one group with loopbackAsOne")
  func loopback() {
    #expect(plain.group(of: "127.0.0.2") != plain.group(of: "127.0.0.3"))
    let one = AddressGrouping(loopbackAsOne: true)
    #expect(one.group(of: "127.0.0.2") == "loopback")
    #expect(one.group(of: "127.9.9.9") == "loopback")
    #expect(one.group(of: "::1") == "loopback")
    #expect(one.group(of: "::ffff:127.0.0.5") == "loopback")
    #expect(one.group(of: "10.0.0.1") == "10.0.0.1")
  }

  @Test("text that is no address is its own group, unchanged")
  func notAddresses() {
    #expect(plain.group(of: "unknown") == "unknown")
    #expect(plain.group(of: "") == "")
    #expect(plain.group(of: "1.2.3") == "1.2.3")
    #expect(!AddressGrouping.isAddress("nginx"))
    #expect(AddressGrouping.isAddress("::1") && AddressGrouping.isAddress("127.0.0.1"))
  }

  @Test("behind a trusted proxy the client is the first untrusted hop from the right")
  func trustedProxy() {
    let grouping = AddressGrouping(trustedProxies: ["127.0.0.1", "10.0.0.5"])
    #expect(grouping.isTrustedProxy("127.0.0.1"))
    #expect(grouping.isTrustedProxy("::ffff:127.0.0.1"), "the same proxy over IPv6")
    #expect(!grouping.isTrustedProxy("127.0.0.2"))
    #expect(
      grouping.clientGroup(peer: "127.0.0.1", forwardedFor: ["203.0.113.7"]) == "203.0.113.7")
    // A client may send any X-Forwarded-For; only what trusted proxies appended is believed.
    #expect(
      grouping.clientGroup(peer: "127.0.0.1", forwardedFor: ["6.6.6.6, 203.0.113.7, 10.0.0.5"])
        == "203.0.113.7")
    #expect(
      grouping.clientGroup(peer: "127.0.0.1", forwardedFor: ["6.6.6.6", "203.0.113.7"])
        == "203.0.113.7", "repeated fields are one list")
    #expect(
      grouping.clientGroup(peer: "127.0.0.1", forwardedFor: ["[2001:db8::9]:4711"])
        == "2001:db8::/64")
    #expect(
      grouping.clientGroup(peer: "127.0.0.1", forwardedFor: ["203.0.113.7:80, junk"])
        == "203.0.113.7", "entries that are no address are skipped")
    #expect(
      grouping.clientGroup(peer: "127.0.0.1", forwardedFor: []) == "127.0.0.1",
      "a proxy that names nobody is the client")
    #expect(
      grouping.clientGroup(peer: "127.0.0.9", forwardedFor: ["203.0.113.7"]) == "127.0.0.9",
      "an untrusted peer's X-Forwarded-For is ignored")
    #expect(
      plain.clientGroup(peer: "127.0.0.1", forwardedFor: ["203.0.113.7"]) == "127.0.0.1",
      "without --trusted-proxy nobody is believed")
  }
}
