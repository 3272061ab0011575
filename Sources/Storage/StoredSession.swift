/// A session as stored: everything needed to rebuild it is its kind, config, seed and inputs.
public struct StoredSession: Sendable, Equatable {
  /// The session's unguessable id.
  public var id: String
  /// The simulation's name, e.g. "bouncing-balls".
  public var kind: String
  /// The simulation's config as JSON text.
  public var config: String
  /// The random seed (stored as the same 64 bits in a signed INTEGER column).
  public var seed: UInt64
  /// Running, paused or ended.
  public var status: SessionStatus
  /// When it was created (unix seconds).
  public var createdAt: Double
  /// When its status or tick last changed (unix seconds).
  public var updatedAt: Double
  /// The last tick written for it.
  public var tick: Int64
  /// `TokenHash.hash(token:)` of its control token; the token itself is never stored.
  public var tokenHash: String
  /// How many times its owner replaced the seat (drawing) links; only links of this generation
  /// are valid.
  public var seatGeneration: Int64
  /// What advances it: `realtime` (the game loop's ticks) or `on-demand` (its controller's
  /// steps); the app names the values, the store keeps the text.
  public var clock: String
  /// The first tick its log rebuilds from: 0 while the whole log is kept; for an on-demand
  /// session whose log was compacted, the tick of its earliest kept snapshot (the inputs at or
  /// before it are gone, so no state before it can be rebuilt).
  public var logStart: Int64
  /// The client that made it (`ADDRESS` or `ADDRESS FAMILY`), whose stored places it takes;
  /// nil for sessions stored before owners were, or made by nobody in particular.
  public var owner: String?
  /// The quota of live sessions across processes the new session must fit (`createSession`
  /// only: its address is stored beside the owner, never read back).
  public var claim: ClientClaim?

  /// Makes a stored session.
  public init(
    id: String, kind: String, config: String, seed: UInt64, status: SessionStatus,
    createdAt: Double, updatedAt: Double, tick: Int64, tokenHash: String,
    seatGeneration: Int64 = 0, clock: String = "realtime", logStart: Int64 = 0,
    owner: String? = nil
  ) {
    self.owner = owner
    self.seatGeneration = seatGeneration
    self.clock = clock
    self.logStart = logStart
    self.id = id
    self.kind = kind
    self.config = config
    self.seed = seed
    self.status = status
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.tick = tick
    self.tokenHash = tokenHash
  }

  /// A new session at tick 0, storing the hash of `token`: running, or paused when `running`
  /// is false (an on-demand session never runs on the tick).
  public init(
    id: String, kind: String, config: String, seed: UInt64, token: String, now: Double,
    running: Bool = true, clock: String = "realtime", owner: String? = nil
  ) {
    self.init(
      id: id, kind: kind, config: config, seed: seed, status: running ? .running : .paused,
      createdAt: now, updatedAt: now, tick: 0, tokenHash: TokenHash.hash(token: token),
      clock: clock, owner: owner)
  }
}
