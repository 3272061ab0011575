#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Names for lease owners: one per process life, so that a restarted process is a new owner
/// and must wait for (or be handed) its predecessor's leases like anyone else.
public enum LeaseOwner {
  /// `HOST/PID/RANDOM`, then ` ADDRESS` when given: e.g. `web1/4242/9f1c03aa http://10.0.0.5:9001`.
  public static func unique(serving address: String = "") -> String {
    var generator = SystemRandomNumberGenerator()
    let nonce = String(UInt32.random(in: .min ... .max, using: &generator), radix: 16)
    let owner = "\(host)/\(getpid())/\(nonce)"
    return address.isEmpty ? owner : "\(owner) \(address)"
  }

  /// This machine's host name.
  static var host: String {
    var name = [CChar](repeating: 0, count: 256)
    guard gethostname(&name, name.count) == 0 else { return "unknown-host" }
    return String(decoding: name.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
  }
}
