import JSON

extension MazeBall {
  /// Hello: the world, the grid, the ball radius, the cells, the colours, and the current frame.
  public func writeHello(into writer: inout JSONWriter) {
    writer.world(width: settings.width, height: settings.height)
    writer.field("rows", settings.rows)
    writer.field("columns", settings.columns)
    writer.field("cellWidth", settings.cellWidth)
    writer.field("cellHeight", settings.cellHeight)
    writer.field("radius", settings.radius)
    writer.field("cells", state.maze.json)
    writer.field(
      "colors", ["background": "#000000", "block": "#d3d3d3", "ball": "#ffd400"] as JSONValue)
    writeFrame(into: &writer)
  }

  /// Frame: the ball's centre to 0.01 px, the tilt in g, and the maze revision.
  public func writeFrame(into writer: inout JSONWriter) {
    writer.key("ball")
    writer.point(state.position.x, state.position.y, decimals: 2)
    writer.key("tilt")
    writer.point(state.tilt.x, state.tilt.y, decimals: 3)
    writer.field("revision", state.revision)
  }
}
