/// One bound an operator may set, declared once (`Limit.maxSessions`...): its command-line name,
/// default, allowed values, unit and help. `playfield serve --NAME VALUE` sets it, `--help`
/// lists it, and the app reads it from `Environment.limits`.
public struct Limit<Value: LimitValue>: Sendable {
  /// The option's name: `--NAME VALUE` on the command line.
  public let name: String
  public let defaultValue: Value
  /// The smallest value allowed, or the bound values must be above (`minimumIsExclusive`).
  public let minimum: Value
  public let minimumIsExclusive: Bool
  /// The largest value allowed, if any.
  public let maximum: Value?
  /// What the value counts, e.g. `seconds` (nil for a plain count).
  public let unit: String?
  /// One sentence for `--help`: what it bounds and what happens past it.
  public let help: String

  /// A count from `minimum` to `maximum`.
  init(_ name: String, _ defaultValue: Value, from minimum: Value, to maximum: Value, help: String)
  {
    self.init(
      name: name, defaultValue: defaultValue, minimum: minimum, minimumIsExclusive: false,
      maximum: maximum, unit: nil, help: help)
  }

  /// An amount above 0 (and at most `maximum`) of `unit`.
  init(_ name: String, _ defaultValue: Value, unit: String, upTo maximum: Value?, help: String) {
    self.init(
      name: name, defaultValue: defaultValue, minimum: .zero, minimumIsExclusive: true,
      maximum: maximum, unit: unit, help: help)
  }

  private init(
    name: String, defaultValue: Value, minimum: Value, minimumIsExclusive: Bool, maximum: Value?,
    unit: String?, help: String
  ) {
    self.name = name
    self.defaultValue = defaultValue
    self.minimum = minimum
    self.minimumIsExclusive = minimumIsExclusive
    self.maximum = maximum
    self.unit = unit
    self.help = help
  }

  /// Whether `value` is allowed.
  func allows(_ value: Value) -> Bool {
    (minimumIsExclusive ? value > minimum : value >= minimum) && value <= (maximum ?? value)
  }

  /// What values are allowed, e.g. `a whole number from 1 to 100000` or `more than 0 and at
  /// most 3600 seconds`.
  var allowed: String {
    let unit = self.unit.map { " " + $0 } ?? ""
    if minimumIsExclusive {
      guard let maximum else { return "a number of\(unit) more than \(minimum.shown)" }
      return "more than \(minimum.shown) and at most \(maximum.shown)\(unit)"
    }
    return "\(Value.noun) from \(minimum.shown) to \(maximum?.shown ?? "any")\(unit)"
  }

  /// Reads and checks a command-line value; the error says what is allowed.
  func parse(_ text: String) throws(LimitError) -> Value {
    guard let value = Value(text), allows(value) else {
      throw LimitError("--\(name) must be \(allowed), not \(text.isEmpty ? "nothing" : text)")
    }
    return value
  }
}

/// What a limit may hold: a whole number or a number (seconds), read from its text.
public protocol LimitValue: Comparable, Sendable, LosslessStringConvertible {
  static var zero: Self { get }
  /// `a whole number`, `a number`.
  static var noun: String { get }
  /// The value as people write it: `10`, not `10.0`.
  var shown: String { get }
}

extension Int: LimitValue {
  public static var noun: String { "a whole number" }
  public var shown: String { description }
}

extension Double: LimitValue {
  public static var noun: String { "a number" }
  public var shown: String {
    rounded() == self && abs(self) < 1e15 ? String(Int(self)) : description
  }
}

/// A limit given a value it does not allow, or an argument that is no option.
public struct LimitError: Error, Sendable, Equatable, CustomStringConvertible {
  public let description: String

  init(_ description: String) {
    self.description = description
  }
}
