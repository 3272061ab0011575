import JSON

/// A grid of cells, each solid or empty; row 0 is the top. Written in JSON as one string per
/// row, `#` for a solid cell and `.` for an empty one.
struct Maze: Codable, Sendable, Equatable {
  let rows: Int
  let columns: Int
  /// Row-major: cell (row, column) is `solid[row * columns + column]`.
  private(set) var solid: [Bool]

  /// An empty maze.
  init(rows: Int, columns: Int) {
    self.rows = rows
    self.columns = columns
    solid = Array(repeating: false, count: rows * columns)
  }

  /// Whether the cell is solid; cells outside the grid count as solid (the box walls).
  subscript(row: Int, column: Int) -> Bool {
    guard (0..<rows).contains(row), (0..<columns).contains(column) else { return true }
    return solid[row * columns + column]
  }

  /// Flips one cell inside the grid.
  mutating func toggle(row: Int, column: Int) {
    solid[row * columns + column].toggle()
  }

  /// Empties every cell.
  mutating func clear() {
    solid = Array(repeating: false, count: rows * columns)
  }

  var emptyCount: Int { solid.count(where: { !$0 }) }

  /// The rows as `#`/`.` strings.
  var json: JSONValue {
    .array(
      (0..<rows).map { row in
        .string(String(solid[row * columns..<(row + 1) * columns].map { $0 ? "#" : "." }))
      })
  }

  private enum CodingKeys: String, CodingKey {
    case rows, columns, solid
  }

  /// Decodes a maze, checking that its size is in range and matches its cells.
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    rows = try container.decode(Int.self, forKey: .rows)
    columns = try container.decode(Int.self, forKey: .columns)
    solid = try container.decode([Bool].self, forKey: .solid)
    guard (1...64).contains(rows), (1...64).contains(columns), solid.count == rows * columns else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: [CodingKeys.rows], debugDescription: "maze size does not match its cells")
      )
    }
  }

  /// Reads `#`/`.` row strings; `field` names the value in errors.
  init(json: JSONValue, field: String) throws(SimulationError) {
    let problem = "must be an array of 1 to 64 equally long strings of 1 to 64 '#' or '.'"
    guard let lines = json.arrayValue, (1...64).contains(lines.count) else {
      throw SimulationError(field: field, message: problem)
    }
    var cells: [Bool] = []
    var width: Int?
    for line in lines {
      guard let text = line.stringValue, (1...64).contains(text.utf8.count),
        width ?? text.utf8.count == text.utf8.count,
        text.utf8.allSatisfy({ $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: ".") })
      else { throw SimulationError(field: field, message: problem) }
      width = text.utf8.count
      cells += text.utf8.map { $0 == UInt8(ascii: "#") }
    }
    rows = lines.count
    columns = width ?? 0
    solid = cells
  }
}
