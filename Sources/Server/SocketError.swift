#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed system call: which call, and errno's message.
public struct SocketError: Error, Sendable, CustomStringConvertible {
  public var call: String
  public var code: Int32

  public init(_ call: String, code: Int32 = errno) {
    self.call = call
    self.code = code
  }

  public var description: String { "\(call) failed: \(String(cString: strerror(code))) (\(code))" }
}
