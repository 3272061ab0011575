/// Turns the common SQL's parameters, `?` and `?N` (SQLite's forms), into PostgreSQL's `$N`.
///
/// `?N` becomes `$N`; a bare `?` takes the number after the largest so far, as in SQLite.
/// Question marks inside quotes and comments stay. (PostgreSQL's own `?` operators, for JSON,
/// are not used by Playfield.)
enum PostgresPlaceholders {
  /// The SQL with `$N` parameters, and how many parameters it takes.
  static func translate(_ sql: String) -> (sql: String, parameters: Int) {
    var output = ""
    output.reserveCapacity(sql.utf8.count + 8)
    var highest = 0
    var quote: Character?
    var inComment = false
    var characters = sql.makeIterator()
    var pending = characters.next()
    while let character = pending {
      pending = characters.next()
      if inComment {
        output.append(character)
        if character.isNewline { inComment = false }
        continue
      }
      if let open = quote {
        output.append(character)
        if character == open { quote = nil }
        continue
      }
      switch character {
      case "'", "\"":
        quote = character
        output.append(character)
      case "-" where pending == "-":
        inComment = true
        output.append(character)
      case "?":
        var digits = ""
        while let next = pending, next.isASCII, next.isNumber {
          digits.append(next)
          pending = characters.next()
        }
        let number = Int(digits) ?? (highest + 1)
        highest = max(highest, number)
        output += "$\(number)"
      default:
        output.append(character)
      }
    }
    return (output, highest)
  }
}
