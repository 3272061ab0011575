import Testing

@testable import Playfield

@Suite("The machine's own names, answered when bound to every address")
struct MachineNamesTests {
  @Test func aShortNameGainsItsMDNSForm() {
    #expect(MachineNames.names(host: "Box", canonical: nil) == ["box", "box.local"])
  }

  @Test func aQualifiedNameGivesItsShortFormAndTheResolversName() {
    #expect(
      MachineNames.names(host: "box.lan", canonical: "box.office.example")
        == ["box.lan", "box", "box.local", "box.office.example"])
    #expect(MachineNames.names(host: "box", canonical: "box") == ["box", "box.local"])
  }

  @Test func localhostAndNoNameAddNothing() {
    #expect(MachineNames.names(host: "", canonical: nil).isEmpty)
    #expect(MachineNames.names(host: "localhost", canonical: "localhost").isEmpty)
    #expect(MachineNames.names(host: "box", canonical: "localhost") == ["box", "box.local"])
  }

  @Test func theRunningMachinesNamesAreLowercaseAndDistinct() {
    let names = MachineNames.current()
    #expect(Set(names).count == names.count)
    #expect(names.allSatisfy { $0 == $0.lowercased() && !$0.isEmpty })
  }
}
