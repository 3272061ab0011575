import Testing

@testable import WebSocket

@Test func websocketBuilds() {}
