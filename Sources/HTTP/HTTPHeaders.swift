/// An ordered list of header fields with case-insensitive lookup (RFC 9110 §5).
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, Equatable {
  /// One field as it appeared, name case kept.
  public struct Field: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  public private(set) var fields: [Field] = []

  public init() {}

  public init(_ pairs: [(String, String)]) {
    fields = pairs.map { Field(name: $0.0, value: $0.1) }
  }

  public init(dictionaryLiteral elements: (String, String)...) {
    self.init(elements)
  }

  public var count: Int { fields.count }

  public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

  /// The first value of `name`, or nil.
  public subscript(name: String) -> String? {
    for field in fields where Self.sameName(field.name, name) { return field.value }
    return nil
  }

  /// Every value of `name`, in order.
  public func values(_ name: String) -> [String] {
    var found: [String] = []
    for field in fields where Self.sameName(field.name, name) { found.append(field.value) }
    return found
  }

  public func contains(_ name: String) -> Bool { self[name] != nil }

  /// Every `name` field joined into one comma-separated list (RFC 9110 §5.3), or nil.
  public func combined(_ name: String) -> String? {
    // NB: no array of the values: it is asked for fields most requests do not have.
    var joined: String?
    for field in fields where Self.sameName(field.name, name) {
      joined = joined.map { $0 + ", " + field.value } ?? field.value
    }
    return joined
  }

  /// Appends a field, keeping any earlier ones of the same name.
  public mutating func add(_ name: String, _ value: String) {
    fields.append(Field(name: name, value: value))
  }

  /// Makes room for `count` fields.
  public mutating func reserveCapacity(_ count: Int) {
    fields.reserveCapacity(count)
  }

  /// Appends a field, keeping any earlier ones of the same name.
  public mutating func append(_ field: Field) {
    fields.append(field)
  }

  /// Replaces every field of `name` with one field.
  public mutating func set(_ name: String, _ value: String) {
    remove(name)
    add(name, value)
  }

  public mutating func remove(_ name: String) {
    fields.removeAll { Self.sameName($0.name, name) }
  }

  /// The comma-separated list elements of every `name` field, trimmed, lowercased
  /// (RFC 9110 §5.6.1), e.g. the tokens of `Connection: keep-alive, Upgrade`.
  public func tokens(_ name: String) -> [String] {
    values(name).flatMap { value in
      value.split(separator: ",").map {
        $0.trimmingCharacters(in: " \t").lowercased()
      }.filter { !$0.isEmpty }
    }
  }

  /// Whether the list-valued field `name` holds `token` (ASCII case-insensitive); allocates
  /// nothing, as it runs for every request.
  public func hasToken(_ name: String, _ token: String) -> Bool {
    for field in fields where Self.sameName(field.name, name) {
      var rest = field.value.utf8[...]
      while !rest.isEmpty {
        let comma = rest.firstIndex(of: UInt8(ascii: ",")) ?? rest.endIndex
        var element = rest[..<comma]
        while let b = element.first, b == 0x20 || b == 0x09 { element = element.dropFirst() }
        while let b = element.last, b == 0x20 || b == 0x09 { element = element.dropLast() }
        if Self.sameLetters(element, token.utf8) { return true }
        rest = comma == rest.endIndex ? rest[comma...] : rest[rest.index(after: comma)...]
      }
    }
    return false
  }

  /// ASCII case-insensitive comparison of two field names.
  public static func sameName(_ a: String, _ b: String) -> Bool {
    guard a.utf8.count == b.utf8.count else { return false }
    return a == b || sameLetters(a.utf8, b.utf8)
  }

  /// ASCII case-insensitive comparison of two byte strings.
  static func sameLetters(_ x: some Collection<UInt8>, _ y: some Collection<UInt8>) -> Bool {
    guard x.count == y.count else { return false }
    for (p, q) in zip(x, y) where p != q {
      guard p | 0x20 == q | 0x20, (p | 0x20) >= 0x61, (p | 0x20) <= 0x7A else { return false }
    }
    return true
  }
}

extension Substring {
  func trimmingCharacters(in set: String) -> String {
    let chars = Set(set)
    var slice = self[...]
    while let first = slice.first, chars.contains(first) { slice = slice.dropFirst() }
    while let last = slice.last, chars.contains(last) { slice = slice.dropLast() }
    return String(slice)
  }
}
