/// An ordered list of header fields with case-insensitive lookup (RFC 9110 §5).
///
/// A parsed request's fields stay as the bytes of its head (`packed`): names and values are
/// compared as bytes, and a `String` is made only for a value a caller asks for (issue 31). A
/// change first turns them into `Field`s.
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

  /// The fields: given as strings (a response's, or a request's once changed), or appended
  /// by the parser as bytes. NB: one word either way, so a copy of a request or a response
  /// costs one retain for its fields.
  enum Storage: Sendable {
    case listed([Field])
    /// Each field as one word of lengths (`HTTPHeaders+Packed`) and then its bytes.
    case packed([UInt8])
  }

  var storage = Storage.listed([])

  public init() {}

  public init(_ pairs: [(String, String)]) {
    storage = .listed(pairs.map { Field(name: $0.0, value: $0.1) })
  }

  public init(dictionaryLiteral elements: (String, String)...) {
    self.init(elements)
  }

  /// Every field, in order.
  public var fields: [Field] {
    switch storage {
    case .listed(let listed):
      return listed
    case .packed(let packed):
      return Self.unpacked(packed)
    }
  }

  private static func unpacked(_ packed: [UInt8]) -> [Field] {
    var fields: [Field] = []
    forEachPacked(packed) { name, value in
      fields.append(
        Field(
          name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)
        ))
      return true
    }
    return fields
  }

  public var count: Int {
    switch storage {
    case .listed(let listed):
      return listed.count
    case .packed(let packed):
      var count = 0
      Self.forEachPacked(packed) { _, _ in
        count += 1
        return true
      }
      return count
    }
  }

  public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

  public static func == (a: HTTPHeaders, b: HTTPHeaders) -> Bool { a.fields == b.fields }

  /// The first value of `name`, or nil.
  public subscript(name: String) -> String? {
    var found: String?
    visitValues(name) { value in
      found = String(decoding: value, as: UTF8.self)
      return false
    }
    return found
  }

  /// Every value of `name`, in order.
  public func values(_ name: String) -> [String] {
    var found: [String] = []
    visitValues(name) { value in
      found.append(String(decoding: value, as: UTF8.self))
      return true
    }
    return found
  }

  public func contains(_ name: String) -> Bool {
    var found = false
    visitValues(name) { _ in
      found = true
      return false
    }
    return found
  }

  /// Every `name` field joined into one comma-separated list (RFC 9110 §5.3), or nil.
  public func combined(_ name: String) -> String? {
    // NB: no array of the values: it is asked for fields most requests do not have.
    var joined: String?
    visitValues(name) { bytes in
      let value = String(decoding: bytes, as: UTF8.self)
      joined = joined.map { $0 + ", " + value } ?? value
      return true
    }
    return joined
  }

  /// Appends a field, keeping any earlier ones of the same name.
  public mutating func add(_ name: String, _ value: String) {
    append(Field(name: name, value: value))
  }

  /// Makes room for `count` fields.
  public mutating func reserveCapacity(_ count: Int) {
    changeListed { $0.reserveCapacity(count) }
  }

  /// Appends a field, keeping any earlier ones of the same name.
  public mutating func append(_ field: Field) {
    changeListed { $0.append(field) }
  }

  /// Replaces every field of `name` with one field.
  public mutating func set(_ name: String, _ value: String) {
    remove(name)
    add(name, value)
  }

  public mutating func remove(_ name: String) {
    guard contains(name) else { return }
    changeListed { $0.removeAll { Self.sameName($0.name, name) } }
  }

  /// Changes the fields as `Field`s (packed ones are turned into `Field`s first), in place.
  private mutating func changeListed(_ change: (inout [Field]) -> Void) {
    var listed = fields
    // NB: the storage lets go of its array, so that `listed` is unique and changed in place.
    storage = .listed([])
    change(&listed)
    storage = .listed(listed)
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
    var found = false
    visitValues(name) { value in
      var rest = value[...]
      while !rest.isEmpty {
        let comma = rest.firstIndex(of: UInt8(ascii: ",")) ?? rest.endIndex
        var element = rest[..<comma]
        while let b = element.first, b == 0x20 || b == 0x09 { element = element.dropFirst() }
        while let b = element.last, b == 0x20 || b == 0x09 { element = element.dropLast() }
        if Self.sameLetters(element, token.utf8) {
          found = true
          return false
        }
        rest = comma == rest.endIndex ? rest[comma...] : rest[(comma + 1)...]
      }
      return true
    }
    return found
  }

  /// Calls `body` with the bytes of each value of `name` (ASCII case-insensitive), in order,
  /// until it returns false.
  // NB: most lookups are of fields a request lacks (a static file's request is asked for ten),
  // so the length sieve is checked here, inlined in each lookup, before the walk (issue 31).
  @inline(__always)
  func visitValues(_ name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
    if case .packed(let packed) = storage, !Self.mayHaveName(packed, length: name.utf8.count) {
      return
    }
    walkValues(name, body)
  }

  /// `visitValues` after the sieve.
  private func walkValues(_ name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
    switch storage {
    case .listed(let listed):
      // NB: by index, names first: a copy of each field (a retain and a release per string)
      // cost more than the comparisons, and every response is asked for `Connection`.
      for index in listed.indices where Self.sameName(listed[index].name, name) {
        var value = listed[index].value
        guard value.withUTF8(body) else { return }
      }
    case .packed(let packed):
      // NB: the name's bytes without a copy of the name (a retain and a release).
      let visit = { (wanted: UnsafeBufferPointer<UInt8>) in
        Self.forEachPacked(packed) { fieldName, value in
          guard Self.sameBytes(fieldName, wanted) else { return true }
          return body(value)
        }
      }
      guard name.utf8.withContiguousStorageIfAvailable(visit) == nil else { return }
      var copy = name
      copy.withUTF8(visit)
    }
  }

  /// ASCII case-insensitive comparison of two byte strings, without generics.
  static func sameBytes(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
    guard x.count == y.count else { return false }
    for index in 0..<x.count where x[index] != y[index] {
      let p = x[index] | 0x20
      guard p == y[index] | 0x20, p >= 0x61, p <= 0x7A else { return false }
    }
    return true
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
