@testable import Playfield

/// In tests, `"a"` is the client whose address is `a`, with no family.
extension ClientKey: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) {
    self.init(address: value)
  }
}
