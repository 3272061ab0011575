import HTTP

/// Every URL the app answers, parsed once from the decoded path segments.
enum Route: Equatable {
  case gallery
  case health
  case demo(String)
  case embed(String)
  case echoSocket
  case sessionSocket(String)
  case sessionsAPI
  case sessionAPI(String)
  case sessionState(String)
  case sessionReplayState(String)
  case sessionInputs(String)
  case replaySocket(String)
  case highScores
  case sessionsPage
  case oEmbed
  case replayPage(String)
  case tile(zoom: String, x: String, file: String)
  case mazes
  case maze(String)
  case demosAPI
  case spheres(radius: String, level: String)
  /// Anything else is looked up under `Public/`.
  case file([String])

  init(segments: [String]) {
    switch segments.count {
    case 0:
      self = .gallery
    case 1 where segments[0] == "healthz":
      self = .health
    case 1 where segments[0] == "sessions":
      self = .sessionsPage
    case 1 where segments[0] == "oembed":
      self = .oEmbed
    case 3 where segments[0] == "sessions" && segments[2] == "replay":
      self = .replayPage(segments[1])
    case 2 where segments[0] == "demos":
      self = .demo(segments[1])
    case 2 where segments[0] == "embed":
      self = .embed(segments[1])
    case 2 where segments == ["ws", "echo"]:
      self = .echoSocket
    case 2 where segments == ["api", "sessions"]:
      self = .sessionsAPI
    case 5 where segments[0] == "tiles" && segments[1] == "mandelbrot":
      self = .tile(zoom: segments[2], x: segments[3], file: segments[4])
    case 2 where segments == ["api", "highscores"]:
      self = .highScores
    case 2 where segments == ["api", "demos"]:
      self = .demosAPI
    case 2 where segments == ["api", "mazes"]:
      self = .mazes
    case 4 where segments[0] == "api" && segments[1] == "spheres":
      self = .spheres(radius: segments[2], level: segments[3])
    case 3 where segments[0] == "api" && segments[1] == "mazes":
      self = .maze(segments[2])
    case 3 where segments[0] == "api" && segments[1] == "sessions":
      self = .sessionAPI(segments[2])
    case 3 where segments[0] == "ws" && segments[1] == "sessions":
      self = .sessionSocket(segments[2])
    case 3 where segments[0] == "ws" && segments[1] == "replays":
      self = .replaySocket(segments[2])
    case 4 where segments[0] == "api" && segments[1] == "sessions" && segments[3] == "state":
      self = .sessionState(segments[2])
    case 4 where segments[0] == "api" && segments[1] == "sessions" && segments[3] == "replay":
      self = .sessionReplayState(segments[2])
    case 4 where segments[0] == "api" && segments[1] == "sessions" && segments[3] == "inputs":
      self = .sessionInputs(segments[2])
    default:
      self = .file(segments)
    }
  }
}
