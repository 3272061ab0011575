import JSON

extension MazeBall {
  /// What a maze session is made of; every field has a default.
  struct Config: SimulationConfig {
    /// World width in px (60 to 4000).
    var width = 360.0
    /// World height in px (60 to 4000).
    var height = 360.0
    /// Rows of cells (2 to 64).
    var rows = 12
    /// Columns of cells (2 to 64).
    var columns = 12
    /// Ball radius as a fraction of the smaller cell side (0.1 to 0.45); the seed's is a third.
    var ballSize = 1.0 / 3.0
    /// Coefficient of restitution against walls and blocks (0 to 1).
    var restitution = 0.5
    /// Acceleration per g of tilt in px/s² (0 to 20000); the seed's 120 Hz update gives 1440.
    var gravity = 1_440.0
    /// Speed cap in px/s (1 to 20000).
    var maxSpeed = 1_500.0
    /// The starting maze: one string per row, `#` solid and `.` empty (default: all empty).
    var cells = Maze(rows: 12, columns: 12)

    mutating func visitFields<Visitor: ConfigVisitor>(
      _ visitor: inout Visitor
    ) throws(Visitor.Failure) {
      try visitor.number("width", &width, in: 60...4_000)
      try visitor.number("height", &height, in: 60...4_000)
      try visitor.integer("rows", &rows, in: 2...64)
      try visitor.integer("columns", &columns, in: 2...64)
      try visitor.number("ballSize", &ballSize, in: 0.1...0.45)
      try visitor.number("restitution", &restitution, in: 0...1)
      try visitor.number("gravity", &gravity, in: 0...20_000)
      try visitor.number("maxSpeed", &maxSpeed, in: 1...20_000)
      // The default maze follows the size; NB: only a size in range (a restored snapshot's
      // fields are untrusted until they have been read back through this method).
      if cells.rows != rows || cells.columns != columns, (2...64).contains(rows),
        (2...64).contains(columns)
      {
        cells = Maze(rows: rows, columns: columns)
      }
      try visitor.custom(
        "cells", &cells,
        decode: { value, field throws(SimulationError) in try Maze(json: value, field: field) },
        encode: \.json)
    }

    func validate() throws(SimulationError) {
      guard cells.rows == rows, cells.columns == columns else {
        throw SimulationError(field: "cells", message: "must have \(rows) rows of \(columns) cells")
      }
      guard cells.emptyCount > 0 else {
        throw SimulationError(field: "cells", message: "must leave at least one cell empty")
      }
      let limit = MazeBall.substepLimit * radius / 2 / MazeBall.tickDuration
      guard maxSpeed <= limit else {
        throw SimulationError(
          field: "maxSpeed",
          message: "must be at most \(FieldReader.format(limit)) px/s for a ball of radius "
            + "\(FieldReader.format(radius)) px (\(Int(MazeBall.substepLimit)) substeps a tick)")
      }
    }

    var cellWidth: Double { width / Double(columns) }
    var cellHeight: Double { height / Double(rows) }
    /// Ball radius in px.
    var radius: Double { ballSize * min(cellWidth, cellHeight) }
  }
}
