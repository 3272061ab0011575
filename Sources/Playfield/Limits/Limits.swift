/// The value of every limit (`Limit`): the defaults, with what the command line set on top.
/// Read one as `limits[.maxSessions]`.
public struct Limits: Sendable, Equatable {
  /// The values set, by limit name; the others are their defaults.
  private var values: [String: String] = [:]

  public init() {}

  public subscript<Value>(_ limit: Limit<Value>) -> Value {
    get { values[limit.name].flatMap(Value.init) ?? limit.defaultValue }
    set { values[limit.name] = newValue.description }
  }
}
