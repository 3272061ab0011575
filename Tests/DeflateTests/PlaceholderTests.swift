import Testing

@testable import Deflate

@Test func deflateBuilds() {}
