extension Limits {
  /// One limit, whatever its type: what `--help` shows and how to set it from text.
  public struct Option: Sendable {
    public let name: String
    public let help: String
    /// `256`, `10 seconds`.
    public let shownDefault: String
    /// `a whole number from 1 to 100000`.
    public let allowed: String
    let set: @Sendable (inout Limits, String) throws(LimitError) -> Void

    init<Value>(_ limit: Limit<Value>) {
      name = limit.name
      help = limit.help
      shownDefault = limit.defaultValue.shown + (limit.unit.map { " " + $0 } ?? "")
      allowed = limit.allowed
      set = { (limits, text) throws(LimitError) in limits[limit] = try limit.parse(text) }
    }
  }

  /// Every limit, in the order `--help` lists them.
  public static let all: [Option] = [
    Option(.maxSessions), Option(.sessionsPerClient), Option(.sessionShare),
    Option(.storedSessions), Option(.storedSessionsPerClient), Option(.parkedMaxAge),
    Option(.inputsPerSession), Option(.inputLogBytes), Option(.inputPagesPerClient),
    Option(.inputPageBytes), Option(.inputLogBytesPerClient),
    Option(.inputPageQueue), Option(.inputPageWait),
    Option(.queriesPerClient), Option(.bigHellosPerClient), Option(.bigHelloQueue),
    Option(.bigHelloWait), Option(.bigHelloBytes),
    Option(.onDemandSessionsPerClient), Option(.stepTicks),
    Option(.batchSessionsPerConnection), Option(.batchSessionsPerMessage),
    Option(.comparesPerClient), Option(.maxCompares), Option(.sessionMessageBytes),
    Option(.batchMessageBytes), Option(.batchJobBytes), Option(.batchInputsPerMessage),
    Option(.batchInputsPerSession),
    Option(.mazesPerClient), Option(.recipesPerBook), Option(.recipeBytesPerClient),
    Option(.recipeImportBytes),
    Option(.recipeImportsPerMinute), Option(.recipeFetches), Option(.recipeFetchesPerClient),
    Option(.recipeFetchQueue), Option(.recipeFetchBytes), Option(.recipeFetchTimeout),
    Option(.recipeExports),
    Option(.shoppingChangesPerMinute), Option(.shoppingMessageBytes),
    Option(.familiesPerAddress), Option(.idlePause),
    Option(.sessionMaxAge), Option(.replayChunkInputs), Option(.tileRendersPerClient),
    Option(.tileQueue), Option(.tileWait), Option(.tileCacheBytes),
    Option(.sphereComputationsPerClient), Option(.sphereQueue), Option(.sphereWait),
    Option(.sphereCacheBytes), Option(.maxConnections), Option(.connectionsPerAddress),
    Option(.connectionsPerFamily), Option(.queuedBytesPerAddress),
    Option(.readBytesPerTurn), Option(.readMessagesPerTurn), Option(.storeCallQueue),
    Option(.storeCallsPerClient), Option(.storeCallWait),
    Option(.replaysPerAddress), Option(.replayStates), Option(.replayStateQueue),
    Option(.replayStatesPerClient),
    Option(.replayStateWait),
    Option(.pendingBytes), Option(.writerBatchBytes),
    Option(.headerTimeout),
    Option(.bodyTimeout), Option(.idleTimeout),
  ]

  /// Reads `--NAME VALUE` and `--NAME=VALUE` pairs of limits; anything else is an error that
  /// says what it was.
  public static func parse(_ arguments: [String]) throws(LimitError) -> Limits {
    var limits = Limits()
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      guard argument.hasPrefix("--") else {
        throw LimitError("unexpected argument \(argument)")
      }
      var name = String(argument.dropFirst(2))
      var value: String?
      if let equals = name.firstIndex(of: "=") {
        value = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      guard let option = all.first(where: { $0.name == name }) else {
        throw LimitError("unknown option --\(name)")
      }
      if value == nil { value = rest.popFirst() }
      guard let value else { throw LimitError("--\(name) needs a value: \(option.allowed)") }
      try option.set(&limits, value)
    }
    return limits
  }

  /// The limits as `--help` lists them: each name, its default and allowed values, and what it
  /// bounds, wrapped to fit 80 columns.
  public static var helpText: String {
    var lines = ["LIMITS (each --NAME VALUE; the README's \"Limits\" says what happens past them):"]
    for option in all {
      lines.append("  --\(option.name) (default \(option.shownDefault))")
      lines += wrap("\(option.help) Allowed: \(option.allowed).", width: 72).map { "      " + $0 }
    }
    return lines.joined(separator: "\n")
  }

  /// `text` in lines of at most `width` characters, broken between words.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty && line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }
}
