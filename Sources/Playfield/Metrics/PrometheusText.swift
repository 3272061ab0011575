/// Prometheus' text exposition format (version 0.0.4), written by hand: one `# HELP` and
/// `# TYPE` line per family, then its samples, `name{label="value"} number`. Label values are
/// escaped (backslash, double quote, newline); numbers are integers when whole, `NaN` and
/// `+Inf`/`-Inf` as the format spells them.
struct PrometheusText {
  enum Kind: String {
    case counter, gauge, summary
  }

  private(set) var text = ""

  /// Starts the family `name` (prefixed `playfield_`); its samples follow.
  mutating func family(_ name: String, _ kind: Kind, _ help: String) {
    let escapedHelp = help.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "\n", with: "\\n")
    text += "# HELP playfield_\(name) \(escapedHelp)\n# TYPE playfield_\(name) \(kind.rawValue)\n"
  }

  /// One sample of `name` (prefixed `playfield_`; a summary's `_sum`/`_count` name theirs).
  mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: Double) {
    text += "playfield_\(name)"
    if !labels.isEmpty {
      text +=
        "{"
        + labels.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",") + "}"
    }
    text += " \(Self.number(value))\n"
  }

  /// A family of one sample with no labels.
  mutating func single(_ name: String, _ kind: Kind, _ help: String, _ value: Double) {
    family(name, kind, help)
    sample(name, [], value)
  }

  /// A family with one sample per label value, in the order of the keys' names.
  mutating func labelled(
    _ name: String, _ kind: Kind, _ help: String, label: String, _ values: [String: Double]
  ) {
    family(name, kind, help)
    for key in values.keys.sorted() { sample(name, [(label, key)], values[key] ?? 0) }
  }

  static func escape(_ value: String) -> String {
    var escaped = ""
    for character in value {
      switch character {
      case "\\": escaped += "\\\\"
      case "\"": escaped += "\\\""
      case "\n": escaped += "\\n"
      default: escaped.append(character)
      }
    }
    return escaped
  }

  static func number(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }
}
