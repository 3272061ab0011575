import Testing

@testable import Playfield

@Test func playfieldBuilds() {}
