/// The parsers fuzzed, one case per libFuzzer target; each must survive any bytes.
enum FuzzTarget: String, CaseIterable {
  /// HTTP/1.1 request heads and bodies (fixed and chunked), fed in pieces, then routing bits.
  case http
  /// The strict JSON parser, with a serialize-and-parse-again check.
  case json
  /// WebSocket frames through the state machine, plus the handshake header parsers.
  case websocket
  /// Tile paths and queries.
  case tile
  /// Each model's config decoding; accepted configs must snapshot and restore equal.
  case config
  /// Each model's input decoding and a step with the input.
  case input
  /// Each model's snapshot decoder.
  case snapshot
  /// Street soccer sessions fed sequences of turns, dice, kits, rematches and plans.
  case soccer
  /// Recipe pages through the extractor (JSON-LD, microdata, microformats, RDFa, headings).
  case recipe

  /// How many times dearer one input is than a parser's: a run of `FUZZ_RUNS` executes
  /// `FUZZ_RUNS / costFactor` inputs of this target (a soccer input plays up to 24 steps).
  var costFactor: Int {
    switch self {
    case .soccer: 4
    // NB: a page goes through libxml2 and every road of the extractor: about 4 ms under
    // AddressSanitizer, 40 times a JSON input; 5,000 of them in `make test` take about 20 s.
    case .recipe: 20
    default: 1
    }
  }

  /// The target this process runs (set once, before libFuzzer starts).
  nonisolated(unsafe) static var selected = FuzzTarget.json

  func run(_ bytes: [UInt8]) {
    switch self {
    case .http: Self.http(bytes)
    case .json: Self.json(bytes)
    case .websocket: Self.websocket(bytes)
    case .tile: Self.tile(bytes)
    case .config: Self.config(bytes)
    case .input: Self.input(bytes)
    case .snapshot: Self.snapshot(bytes)
    case .soccer: Self.soccer(bytes)
    case .recipe: Self.recipe(bytes)
    }
  }
}
