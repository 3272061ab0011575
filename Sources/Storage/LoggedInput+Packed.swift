extension LoggedInput {
  /// The `seq` of a packed row: the inputs of several ticks of one on-demand session in one
  /// row (`packed(_:)`), keyed by its LAST tick, so that the rows of a log still sort, and are
  /// cut by compaction (`tick <= log_start`), by the ticks they hold. A logged input's own seq
  /// (its order within its tick) is always far below it.
  public static let packedSeq = Int64.max - 1

  /// Whether this row packs several inputs (`packedSeq`).
  public var isPacked: Bool { seq == Self.packedSeq }

  /// A packed row of `sessionID` holding `inputs` (one or more whole ticks, in order): its
  /// text is one line per input, `TICK INPUT-JSON` (compact JSON has no raw newline).
  public static func packed(sessionID: String, inputs: [LoggedInput]) -> LoggedInput {
    var row = LoggedInput(sessionID: sessionID, tick: 0, seq: packedSeq, input: "")
    row.pack(inputs)
    return row
  }

  /// Appends the inputs of later ticks to a packed row.
  mutating func pack(_ inputs: [LoggedInput]) {
    for input in inputs {
      if !self.input.isEmpty { self.input += "\n" }
      self.input += String(input.tick)
      self.input += " "
      self.input += input.input
      tick = input.tick
    }
  }

  /// How many inputs the row holds (1 unless packed).
  public var inputCount: Int {
    guard isPacked else { return 1 }
    return input.utf8.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
  }

  /// The inputs the row holds, each with its tick and its seq within that tick: itself unless
  /// packed. A packed row whose text is damaged yields the lines that can be read.
  public var unpacked: [LoggedInput] {
    guard isPacked else { return [self] }
    var inputs: [LoggedInput] = []
    var seq: Int64 = 0
    // NB: by bytes, not Characters: splitting a megabyte of text by grapheme took most of an
    // `/inputs` page's time. Both bytes are ASCII, so every cut is on a scalar boundary.
    let (newline, space) = (UInt8(ascii: "\n"), UInt8(ascii: " "))
    for line in input.utf8.split(separator: newline, omittingEmptySubsequences: true) {
      guard let cut = line.firstIndex(of: space), let tick = Int64(Substring(line[..<cut]))
      else { continue }
      seq = inputs.last?.tick == tick ? seq + 1 : 0
      inputs.append(
        LoggedInput(
          sessionID: sessionID, tick: tick, seq: seq,
          input: String(Substring(line[line.index(after: cut)...]))))
    }
    return inputs
  }

  /// Bytes the row takes while it waits to be written (its text and key, roughly).
  var queuedBytes: Int {
    input.utf8.count + sessionID.utf8.count + 32
  }
}
