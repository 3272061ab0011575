import JSON

extension Simulation {
  /// The model's hello fields as one object, for events that change what clients draw.
  var helloObject: JSONValue {
    var writer = JSONWriter()
    writer.beginObject()
    writeHello(into: &writer)
    writer.endObject()
    // NB: the writer's output always parses; null would only hide a writer bug.
    return (try? JSONValue.parse(writer.bytes)) ?? .null
  }

  /// The `reset` event: the whole new hello, since a reset can change everything drawn.
  var resetEvent: SimulationEvent {
    SimulationEvent(name: "reset", fields: ["hello": helloObject])
  }
}
