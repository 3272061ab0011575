import JSON
import Testing

@testable import Playfield

@Suite struct SessionSeedTests {
  @Test func aMissingSeedIsRandomAndAWholeNumberIsKept() throws {
    #expect(try SessionAPI.seed(nil) == nil)
    #expect(try SessionAPI.seed(.number(0)) == 0)
    #expect(try SessionAPI.seed(.number(7)) == 7)
    #expect(try SessionAPI.seed(.number(9_007_199_254_740_991)) == 9_007_199_254_740_991)
  }

  @Test(arguments: [
    JSONValue.number(-1), .number(1.5), .number(9_007_199_254_740_992), .string("7"), .bool(true),
    .null, .array([.number(1)]),
  ])
  func anythingElseIsA400NamingTheSeed(value: JSONValue) {
    #expect {
      try SessionAPI.seed(value)
    } throws: { error in
      guard let error = error as? APIError else { return false }
      return error.status == .badRequest && error.field == "seed"
    }
  }
}
