import Simulation

extension Demo {
  /// The maze, with its saved mazes (`/api/mazes`); the gallery's preview has walls and a tilt.
  static let maze = Demo(
    session: MazeBall.self, seed: "Maze", group: .simulations, frame: Frame(480, 540),
    showcase: Showcase(inputs: [
      [
        "type": "load",
        "cells": [
          "............", ".####..####.", ".#........#.", ".#.######.#.", ".#.#....#.#.",
          ".#.#.##.#.#.", ".#.#.##.#.#.", ".#.#....#.#.", ".#.######.#.", ".#........#.",
          ".####..####.", "............",
        ],
      ],
      ["type": "tilt", "x": 0.3, "y": -0.2],
    ]),
    routes: { context in
      MazeAPI(
        store: context.store, wallClock: context.environment.wallClock,
        random: context.environment.random
      ).routes
    })
}
