// The limits of compare groups (`POST /api/compare`), declared beside the others' in
// `Limits.all`; a group nobody watches ends after `--idle-pause`.

extension Limit where Value == Int {
  public static let comparesPerClient = Limit(
    "compares-per-client", 4, from: 1, to: 10_000,
    help: "Compare groups one client (an address, or a browser's cookie family) may hold; past "
      + "it, 429. A group ends once nobody has watched it for --idle-pause seconds.")
  public static let maxCompares = Limit(
    "max-compares", 64, from: 1, to: 100_000,
    help: "Most compare groups at once; when full, creating one gets 503 with Retry-After.")
}
