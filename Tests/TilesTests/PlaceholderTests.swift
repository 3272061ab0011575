import Testing

@testable import Tiles

@Test func tilesBuilds() {}
