import JSON

/// How the gallery's live previews start: lively configs, and inputs applied before the first
/// frame (a maze with walls in it).
enum ShowcaseConfig {
  static let configs: [String: JSONValue] = [
    "bouncing-balls": [
      "balls": 24, "radiusMin": 6, "radiusMax": 16, "speedMin": 60, "speedMax": 220,
    ]
  ]

  static let setups: [String: [JSONValue]] = [
    "maze": [
      [
        "type": "load",
        "cells": [
          "............", ".####..####.", ".#........#.", ".#.######.#.", ".#.#....#.#.",
          ".#.#.##.#.#.", ".#.#.##.#.#.", ".#.#....#.#.", ".#.######.#.", ".#........#.",
          ".####..####.", "............",
        ],
      ],
      ["type": "tilt", "x": 0.3, "y": -0.2],
    ]
  ]
}
