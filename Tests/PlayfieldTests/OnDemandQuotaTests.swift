import Testing

@testable import Playfield

@Suite struct OnDemandQuotaTests {
  @Test("on-demand sessions count among a client's sessions, and at most perClientOnDemand")
  func onDemandBound() {
    let quota = SessionQuota(perClient: 4, perAddress: 8, perClientOnDemand: 2)
    let me = ClientKey(address: "10.0.0.1")
    let other = ClientKey(address: "10.0.0.2")
    #expect(quota.admit("d1", client: me, onDemand: true) == nil)
    #expect(quota.admit("d2", client: me, onDemand: true) == nil)
    #expect(quota.onDemandBound(for: me) == .onDemand)
    #expect(quota.admit("d3", client: me, onDemand: true) == .onDemand)
    #expect(quota.onDemandBound(for: other) == nil, "another client is not held back")
    #expect(quota.admit("o1", client: other, onDemand: true) == nil)
    #expect(quota.admit("r1", client: me) == nil, "realtime sessions are still the client's")
    #expect(quota.admit("r2", client: me) == nil)
    #expect(quota.admit("r3", client: me) == .client, "on-demand ones count among perClient")
    #expect(quota.isOnDemand("d1") && !quota.isOnDemand("r1"))
    quota.release("d1")
    #expect(!quota.isOnDemand("d1"))
    #expect(quota.onDemandBound(for: me) == nil)
    #expect(quota.message(.onDemand).contains("2 on-demand sessions"))
  }
}
