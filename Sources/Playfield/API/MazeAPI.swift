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
  let store: SQLiteSessionStore?
  let wallClock: @Sendable () -> Double
  /// Random bytes for owner tokens.
  let random: @Sendable (Int) -> [UInt8]

  func collection(_ request: Request) -> Response {
    guard let store else { return APIError.noDatabase.response }
    guard request.method == .get || request.method == .head else {
      var error = APIError(.methodNotAllowed, "use GET, or PUT /api/mazes/NAME to save")
      error.headers.set("Allow", "GET, HEAD")
      return error.response
    }
    do {
      let mazes = try store.listMazes().map { maze -> JSONValue in
        .object(["name": .string(maze.name), "updatedAt": .number(maze.updatedAt.rounded())])
      }
      return .json(.object(["mazes": .array(mazes)]))
    } catch {
      return APIError(storage: error).response
    }
  }

  func member(_ request: Request, name: String, client: ClientKey) -> Response {
    guard let store else { return APIError.noDatabase.response }
    do {
      switch request.method {
      case .get, .head:
        guard let maze = try store.maze(named: name) else {
          throw APIError(.notFound, "no maze named \(name)")
        }
        return .json(json(maze))
      case .put:
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
      case .delete:
        guard let token = SessionAPI.token(in: request) else {
          throw APIError(.forbidden, "send the maze's token to delete it", field: "token")
        }
        guard try store.deleteMaze(named: name, token: token) else {
          throw APIError(.notFound, "no maze named \(name)")
        }
        return Response(status: .noContent, headers: ["Cache-Control": "no-store"])
      default:
        var error = APIError(.methodNotAllowed, "use GET, PUT or DELETE")
        error.headers.set("Allow", "GET, HEAD, PUT, DELETE")
        return error.response
      }
    } catch let error as APIError {
      return error.response
    } catch {
      return APIError(storage: error).response
    }
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
