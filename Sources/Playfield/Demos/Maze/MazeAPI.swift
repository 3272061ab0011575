import HTTP
import JSON
import Simulation
import Storage

/// `/api/mazes` and `/api/mazes/NAME`: save, list, load and delete named mazes.
///
/// Saving a new name answers with a `token`; replacing or deleting that maze needs it
/// (`Authorization: Bearer T` or `?token=T`), and one client (address) owns at most
/// `StoreLimits.maxMazesPerClient` mazes (all clients of one address together
/// `maxMazesPerAddress`).
struct MazeAPI: Sendable {
  let store: (any SessionStore)?
  let wallClock: @Sendable () -> Double
  /// Random bytes for owner tokens.
  let random: @Sendable (Int) -> [UInt8]

  /// GET lists the mazes; GET, PUT and DELETE of `/api/mazes/NAME` load, save and delete one.
  var routes: [Route] {
    [
      Route([.get], "/api/mazes", [.api, .guardsState, .store]) { _ in .response(self.list()) },
      Route([.get], "/api/mazes/{name}", [.api, .guardsState, .store]) { (_, name: MazeName) in
        .response(self.load(name.description))
      },
      Route([.put], "/api/mazes/{name}", [.api, .guardsState, .store]) { (call, name: MazeName) in
        .response(self.save(call.request, name: name.description, client: call.client))
      },
      Route([.delete], "/api/mazes/{name}", [.api, .guardsState, .store]) {
        (call, name: MazeName) in
        .response(self.delete(call.request, name: name.description))
      },
    ]
  }

  func list() -> Response {
    answer { store in
      let mazes = try store.listMazes().map { maze -> JSONValue in
        .object(["name": .string(maze.name), "updatedAt": .number(maze.updatedAt.rounded())])
      }
      return .json(.object(["mazes": .array(mazes)]))
    }
  }

  func load(_ name: String) -> Response {
    answer { store in
      guard let maze = try store.maze(named: name) else {
        throw APIError(.notFound, "no maze named \(name)")
      }
      return .json(json(maze))
    }
  }

  func save(_ request: Request, name: String, client: ClientKey) -> Response {
    answer { store in
      let cells = try Self.normalizedCells(try JSONBody(request).value("cells"))
      let sent = SessionAPI.token(in: request)
      let token = sent ?? SessionRegistry.identifier(random(16))
      let saved = try store.saveMaze(
        name: name, cells: cells.jsonString, at: wallClock(),
        owner: MazeOwner(token: token, client: client.description, address: client.address))
      var answer = json(saved)
      if sent == nil, case .object(var fields) = answer {
        fields["token"] = .string(token)
        answer = .object(fields)
      }
      return .json(answer)
    }
  }

  func delete(_ request: Request, name: String) -> Response {
    answer { store in
      guard let token = SessionAPI.token(in: request) else {
        throw APIError(.forbidden, "send the maze's token to delete it", field: "token")
      }
      guard try store.deleteMaze(named: name, token: token) else {
        throw APIError(.notFound, "no maze named \(name)")
      }
      return Response(status: .noContent, headers: ["Cache-Control": "no-store"])
    }
  }

  /// `make`'s answer with the store, or the error it threw; 503 without a database.
  private func answer(_ make: (any SessionStore) throws -> Response) -> Response {
    APIError.answer(with: store, make)
  }

  private func json(_ maze: SavedMaze) -> JSONValue {
    .object([
      "name": .string(maze.name),
      "cells": (try? JSONValue.parse(maze.cells)) ?? .array([]),
      "createdAt": .number(maze.createdAt.rounded()),
      "updatedAt": .number(maze.updatedAt.rounded()),
    ])
  }

  /// The cells as the maze model reads them (rows of `#` and `.`), or a 400 naming the problem.
  static func normalizedCells(_ cells: JSONValue) throws(APIError) -> JSONValue {
    let message: JSONValue = .object(["type": "load", "cells": cells])
    let input: JSONValue?
    do {
      input = try MazeBall.checkedInput(from: message)?.json
    } catch {
      throw APIError(.badRequest, error.description, field: error.field ?? "cells")
    }
    guard let normalized = input?["cells"] else {
      throw APIError(.badRequest, "cells cannot be read", field: "cells")
    }
    return normalized
  }
}
