#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Names for lease owners: one per process life, so that a restarted process is a new owner
/// and must wait for (or be handed) its predecessor's leases like anyone else.
public enum LeaseOwner {
  /// `SHARD@HOST/PID/RANDOM` (`HOST/PID/RANDOM` without a shard), then ` ADDRESS` when
  /// given: e.g. `a@web1/4242/9f1c03aa http://10.0.0.5:9001`. The host, pid and address are for
  /// operators (the store's lease rows, logs); clients are told the shard only (`shard(of:)`).
  public static func unique(shard: String = "", serving address: String = "") -> String {
    var generator = SystemRandomNumberGenerator()
    let nonce = String(UInt32.random(in: .min ... .max, using: &generator), radix: 16)
    let owner = (shard.isEmpty ? "" : shard + "@") + "\(host)/\(getpid())/\(nonce)"
    return address.isEmpty ? owner : "\(owner) \(address)"
  }

  /// The shard that `owner` (a name from `unique`) names, or nil when it names none (a
  /// process without `--shard`, or an owner named before shards were written into names).
  public static func shard(of owner: String) -> String? {
    let process = owner.prefix { $0 != "/" && $0 != " " }
    guard let at = process.firstIndex(of: "@") else { return nil }
    let shard = process[..<at]
    return shard.isEmpty ? nil : String(shard)
  }

  /// This machine's host name.
  static var host: String {
    var name = [CChar](repeating: 0, count: 256)
    guard gethostname(&name, name.count) == 0 else { return "unknown-host" }
    return String(decoding: name.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
  }
}
