import Testing

@testable import Simulation

@Test func simulationBuilds() {}
