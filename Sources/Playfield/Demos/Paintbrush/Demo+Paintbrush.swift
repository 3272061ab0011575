import Simulation

extension Demo {
  /// The shared canvas; the gallery's preview shows a few strokes in the seed's colours.
  static let paintbrush = Demo(
    session: Paintbrush.self, seed: "Paintbrush", group: .sensorsAndDrawing,
    showcase: Showcase(inputs: [
      [
        "type": "stroke", "author": "gallery", "stroke": 1, "color": "#ffff00", "radius": 12,
        "points": [
          410, 240, 405.6, 267.8, 392.8, 292.9, 372.9, 312.8, 347.8, 325.6, 320, 330, 292.2,
          325.6, 267.1, 312.8, 247.2, 292.9, 234.4, 267.8, 230, 240, 234.4, 212.2, 247.2, 187.1,
          267.1, 167.2, 292.2, 154.4, 320, 150, 347.8, 154.4, 372.9, 167.2, 392.8, 187.1, 405.6,
          212.2, 410, 240,
        ],
      ],
      [
        "type": "stroke", "author": "gallery", "stroke": 2, "color": "#ff0000", "radius": 10,
        "points": [
          40, 400, 68, 415.6, 96, 428.7, 124, 437.3, 152, 440, 180, 436.4, 208, 427, 236, 413.4,
          264, 397.7, 292, 382.3, 320, 369.7, 348, 361.9, 376, 360.2, 404, 364.7, 432, 374.7,
          460, 388.8, 488, 404.7, 516, 419.8, 544, 431.7, 572, 438.7, 600, 439.6,
        ],
      ],
      [
        "type": "stroke", "author": "gallery", "stroke": 3, "color": "#00ff00", "radius": 8,
        "points": [60, 60, 120, 140, 180, 60, 240, 140, 300, 60],
      ],
      [
        "type": "stroke", "author": "gallery", "stroke": 4, "color": "#0000ff", "radius": 14,
        "points": [420, 70, 580, 70, 580, 150],
      ],
      [
        "type": "stroke", "author": "gallery", "stroke": 5, "color": "#ffffff", "radius": 10,
        "points": [320, 240],
      ],
    ]))
}
