import Testing

@testable import Server

@Test func serverBuilds() {}
