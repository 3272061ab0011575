import HTTP
import Server

// Every limit an operator may set, each declared once: its name (`--NAME`), default, allowed
// values and help. `Limits.all` lists them in `--help`'s order; the README's "Limits" table
// gives the numbers in prose.

extension Limit where Value == Int {
  public static let maxSessions = Limit(
    "max-sessions", 256, from: 1, to: 100_000,
    help: "Most live sessions; when full, creating one gets 503 with Retry-After.")
  public static let sessionsPerClient = Limit(
    "sessions-per-client", 16, from: 1, to: 10_000_000,
    help:
      "Live sessions one client (an address, or a browser's cookie family) may hold; past it, 429.")
  public static let storedSessions = Limit(
    "stored-sessions", 1_000, from: 1, to: 10_000_000,
    help: "Most sessions the database keeps (live, parked, stopped, on demand), at least "
      + "--max-sessions; when full, a create gets 503 and nobody's session is deleted for it.")
  public static let storedSessionsPerClient = Limit(
    "stored-sessions-per-client", 64, from: 1, to: 10_000_000,
    help: "Sessions one client may keep stored (at least its --sessions-per-client), its "
      + "address's clients together --session-share of --stored-sessions; past either, 429.")
  public static let inputsPerSession = Limit(
    "inputs-per-session", 200_000, from: 1, to: 10_000_000,
    help: "Inputs one session may log; past it, the session takes no more input.")
  public static let mazesPerClient = Limit(
    "mazes-per-client", 20, from: 1, to: 10_000_000,
    help: "Saved mazes one client (an address, or a browser's cookie family) may own.")
  public static let recipesPerBook = Limit(
    "recipes-per-book", 2_000, from: 1, to: 1_000_000,
    help: "Recipes one recipe book may hold; an import past it gets 429 and stores nothing.")
  public static let recipeBytesPerClient = Limit(
    "recipe-bytes-per-client", 64 << 20, from: 1 << 20, to: 1 << 40,
    help: "Bytes of recipes (as stored, in JSON) the recipe books one client made may hold "
      + "together, whoever imports into them; an import past it gets 429 and stores nothing.")
  public static let recipeImportBytes = Limit(
    "recipe-import-bytes", 1 << 20, from: 1024, to: 1 << 20,
    help: "Largest page, JSON-LD file or book export one recipe import may send (the server "
      + "takes no body over 1 MiB anyway); past it, 413.")
  public static let recipeImportsPerMinute = Limit(
    "recipe-imports-per-minute", 60, from: 1, to: 1_000_000,
    help: "Recipe imports one client may make in any 60 seconds; past it, 429 with Retry-After.")
  public static let shoppingChangesPerMinute = Limit(
    "shopping-changes-per-minute", 600, from: 1, to: 1_000_000,
    help: "Changes (add, check, remove, clear) one client may send to recipe shopping lists in "
      + "any 60 seconds; past it, the change is refused with an error message.")
  public static let recipeFetches = Limit(
    "recipe-fetches", 4, from: 1, to: 256,
    help: "Pages fetched at once for recipe imports by URL, across all clients (on their own "
      + "threads, off the event loops); one address's take at most half of them.")
  public static let recipeFetchesPerClient = Limit(
    "recipe-fetches-per-client", 2, from: 1, to: 10_000,
    help: "Recipe imports by URL one client may have fetching or waiting; past it, 429 with "
      + "Retry-After.")
  public static let recipeExports = Limit(
    "recipe-exports", 2, from: 1, to: 256,
    help: "Book exports being built or written at once, across all clients, and at most one "
      + "per address (an export holds its whole book in memory until it is written); past it, "
      + "429 (the address's) or 503, with Retry-After.")
  public static let recipeFetchQueue = Limit(
    "recipe-fetch-queue", 32, from: 1, to: 100_000,
    help: "Recipe imports by URL waiting for a fetch across all clients; past it, 503 with "
      + "Retry-After.")
  public static let recipeFetchBytes = Limit(
    "recipe-fetch-bytes", 4 << 20, from: 1024, to: 64 << 20,
    help: "Largest page (after decompression) a recipe import by URL may fetch; past it, 422 "
      + "and nothing stored.")
  public static let tileRendersPerClient = Limit(
    "tile-renders-per-client", 32, from: 1, to: 10_000_000,
    help: "Tile renders one client may have running or waiting; past it, 429.")
  public static let tileQueue = Limit(
    "tile-queue", 256, from: 1, to: 10_000_000,
    help: "Tile renders waiting across all clients (two run at once); past it, 503.")
  public static let sphereComputationsPerClient = Limit(
    "sphere-computations-per-client", 4, from: 1, to: 10_000_000,
    help: "Uncached sphere packings one client may have computing or waiting; past it, 429.")
  public static let sphereQueue = Limit(
    "sphere-queue", 64, from: 1, to: 10_000_000,
    help:
      "Uncached sphere packings waiting across all clients (one computes at a time); past it, 503.")
  public static let familiesPerAddress = Limit(
    "families-per-address", 4, from: 1, to: 10_000_000,
    help: "Browser client families (cookies) one address may hold; an address's clients together "
      + "get this many times one client's quotas.")
  public static let replayChunkInputs = Limit(
    "replay-chunk-inputs", 1024, from: 1, to: 10_000_000,
    help: "Inputs a replay reads from the log at a time (and so holds at most).")
  public static let tileCacheBytes = Limit(
    "tile-cache-bytes", 64 << 20, from: 0, to: 1 << 40,
    help: "Most bytes of rendered tiles kept in memory.")
  public static let sphereCacheBytes = Limit(
    "sphere-cache-bytes", 96 << 20, from: 0, to: 1 << 40,
    help: "Most bytes of encoded sphere packings kept in memory (the packings add at most 23 MB).")
  public static let maxConnections = Limit(
    "max-connections", HTTPServer.Configuration().maxConnections, from: 1, to: 1_000_000,
    help: "Most open connections; when full, a new connection from a lighter address closes the "
      + "heaviest address's idlest one, and one from an address as heavy gets 503.")
  public static let connectionsPerAddress = Limit(
    "connections-per-address", 256, from: 1, to: 1_000_000,
    help: "Open connections one address (an IPv6 /64) may hold; past it, its new ones get 503.")
  public static let connectionsPerFamily = Limit(
    "connections-per-family", 64, from: 1, to: 1_000_000,
    help: "Open connections one browser client family (cookie) of an address may hold once its "
      + "requests name it; past it, 503 and the connection closes.")
  public static let queuedBytesPerAddress = Limit(
    "queued-bytes-per-address", 16 << 20, from: 1 << 16, to: 1 << 34,
    help: "Bytes the connections (HTTP and WebSocket) of one address may have queued for peers "
      + "that do not read; past it, its WebSockets with a backlog are no longer read and its "
      + "next HTTP requests wait, until the peers catch up.")
  public static let readBytesPerTurn = Limit(
    "read-bytes-per-turn", HTTPServer.Configuration().readBudget.bytes, from: 1024, to: 1 << 30,
    help: "Bytes the connections (HTTP and WebSocket) of one address may read on one event loop "
      + "in one of its turns (between two rounds of frames it sends); past it, they wait for "
      + "the next.")
  public static let readMessagesPerTurn = Limit(
    "read-messages-per-turn", HTTPServer.Configuration().readBudget.messages, from: 1,
    to: 1_000_000,
    help: "Messages (WebSocket messages, HTTP requests) the connections of one address may hand "
      + "over on one event loop in one of its turns; past it, the rest wait for the next "
      + "(nothing more is read).")
  public static let inputLogBytes = Limit(
    "input-log-bytes", 16 << 20, from: 1, to: 1 << 40,
    help: "Bytes of input one session may log; past it, the session takes no more input.")
  public static let inputLogBytesPerClient = Limit(
    "input-log-bytes-per-client", 64 << 20, from: 1, to: 1 << 40,
    help: "Bytes of input the sessions one client made may log together; past it, they take "
      + "no more input until one is deleted or expires.")
  public static let queriesPerClient = Limit(
    "queries-per-client", 8, from: 1, to: 10_000,
    help: "Questions (street soccer's plan) one client may have waiting for their answers; "
      + "past it, too-many.")
  public static let bigHellosPerClient = Limit(
    "big-hellos-per-client", 2, from: 1, to: 10_000,
    help: "Big hellos (256 KiB or more: a full canvas) one client may have being encoded or "
      + "waiting; past it, the join closes with 1013.")
  public static let bigHelloQueue = Limit(
    "big-hello-queue", 64, from: 1, to: 100_000,
    help: "Big hellos waiting their turn across all clients (one is encoded at a time); past "
      + "it, the join closes with 1013.")
  public static let bigHelloBytes = Limit(
    "big-hello-bytes", 256 << 10, from: 1024, to: 1 << 30,
    help: "Bytes of JSON from which a hello is big (--big-hellos-per-client): its size is "
      + "estimated from the model before encoding, or known from the session's last hello; "
      + "a client's smaller hellos count as big too once together they reach 4 times it "
      + "(they drain at this many bytes a second).")
  public static let inputPageQueue = Limit(
    "input-page-queue", 64, from: 1, to: 100_000,
    help: "Input-log pages waiting across all clients (one is read at a time); past it, 503.")
  public static let storeCallQueue = Limit(
    "store-call-queue", 64, from: 1, to: 100_000,
    help: "Requests that read or write the database (saves, scores, creates, deletes, "
      + "bringing a session back) waiting for a store worker across all clients (two run at "
      + "once, and a third takes small ones; off the event loops); past it, 503 with "
      + "Retry-After.")
  public static let storeCallsPerClient = Limit(
    "store-calls-per-client", 8, from: 1, to: 100_000,
    help: "Requests that read or write the database one client may have waiting or running; "
      + "past it, 429 with Retry-After.")
  public static let replaysPerAddress = Limit(
    "replays-per-address", 8, from: 1, to: 10_000,
    help: "Replays (/ws/replays/ID) one address may have playing or loading, of the 32 at "
      + "once; past it, the replay-unavailable error.")
  public static let replayStates = Limit(
    "replay-states", 8, from: 1, to: 10_000,
    help: "Replay states (GET /api/sessions/ID/replay) worked out at once across all clients, "
      + "each holding a model; their steps are charged to the asker's step time.")
  public static let replayStateQueue = Limit(
    "replay-state-queue", 64, from: 1, to: 100_000,
    help: "Replay states waiting for a place across all clients (addresses, then their "
      + "clients, take turns); past it, 503 with Retry-After.")
  public static let replayStatesPerClient = Limit(
    "replay-states-per-client", 2, from: 1, to: 10_000,
    help: "Replay states one client may have worked out or waiting; past it, 429 with "
      + "Retry-After.")
  public static let inputPagesPerClient = Limit(
    "input-pages-per-client", 2, from: 1, to: 10_000,
    help: "Input-log pages (GET /api/sessions/ID/inputs) one client may have read at once; "
      + "past it, 429.")
  public static let onDemandSessionsPerClient = Limit(
    "on-demand-sessions-per-client", 8, from: 1, to: 10_000_000,
    help: "Of its --sessions-per-client, how many one client may hold on demand "
      + "(\"clock\": \"on-demand\", stepped as fast as it asks); past it, 429.")
  public static let stepTicks = Limit(
    "step-ticks", 600, from: 1, to: 1_000_000,
    help: "Most ticks one step message may ask for; more gets an error naming count.")
  public static let inputPageBytes = Limit(
    "input-page-bytes", 1 << 20, from: 1024, to: 1 << 30,
    help: "Most bytes of inputs in one input-log page; a longer log continues on the next page.")
  public static let batchSessionsPerConnection = Limit(
    "batch-sessions-per-connection", 256, from: 1, to: 100_000,
    help: "On-demand sessions one /ws/batch connection may drive; past it, attach is refused.")
  public static let batchSessionsPerMessage = Limit(
    "batch-sessions-per-message", 256, from: 1, to: 100_000,
    help: "Sessions one batch step message may step; a larger batch is refused whole.")
  public static let sessionMessageBytes = Limit(
    "session-message-bytes", 64 << 10, from: 4096, to: 1 << 20,
    help: "Largest message a /ws/sessions, /ws/replays or /ws/compare connection may send (a "
      + "256-point stroke is about 4 KB, a compare command under 100 bytes); past it, the "
      + "connection closes with 1009, the message unread. A message is parsed whole on its "
      + "connection's event loop.")
  public static let batchMessageBytes = Limit(
    "batch-message-bytes", 256 << 10, from: 4096, to: 1 << 20,
    help: "Largest message a /ws/batch connection may send (a step of 256 sessions' actions "
      + "and 1,024 inputs fits); past it, the connection closes with 1009, the message unread.")
  public static let shoppingMessageBytes = Limit(
    "shopping-message-bytes", 256 << 10, from: 4096, to: 1 << 20,
    help: "Largest message a /ws/recipes/shopping connection may send (an add of 500 lines "
      + "with 200-character names is about 160 KB); past it, the connection closes with 1009, "
      + "the message unread. A message is parsed whole on its connection's event loop.")
  public static let batchJobBytes = Limit(
    "batch-job-bytes", 16 << 10, from: 0, to: 1 << 20,
    help: "Bytes from which a /ws/batch message is parsed, checked and admitted as a job of "
      + "the step scheduler charged to the connection's client (in turn with everyone's "
      + "steps), not on the event loop as it arrives; the connection's later messages wait.")
  public static let batchInputsPerMessage = Limit(
    "batch-inputs-per-message", 1024, from: 1, to: 1_000_000,
    help: "Inputs (the [slot, input] pairs of inputs) one batch step message may carry, all its "
      + "sessions together; more gets too-many-inputs and nothing is stepped.")
  public static let batchInputsPerSession = Limit(
    "batch-inputs-per-session", 64, from: 1, to: 1_000_000,
    help: "Inputs one batch step message may give one session (besides its action); more gets "
      + "too-many-inputs and nothing is stepped.")
  public static let pendingBytes = Limit(
    "pending-bytes", 32 << 20, from: 1024, to: 1 << 36,
    help: "Bytes of writes (inputs, snapshots) waiting for the database. From half of it the "
      + "client queuing most waits (its on-demand steps are answered later), at it every "
      + "on-demand step waits; only while the database cannot be written do new inputs get "
      + "storage-backlog (those already acknowledged are kept).")
  public static let writerBatchBytes = Limit(
    "writer-batch-bytes", 4 << 20, from: 4096, to: 1 << 30,
    help: "Bytes of input rows one write to the database (one transaction) takes at most, "
      + "shared fairly among the clients who queued them; the rest goes in the next one, at "
      + "once. One client's flood waits in its own share; another's rows, and creates, do not "
      + "wait behind it.")
}

extension Limit where Value == Double {
  public static let sessionShare = Limit(
    "session-share", 12.5, unit: "percent", upTo: 100,
    help: "Share of --max-sessions one address may hold, all its clients together; and when "
      + "fewer places are free than an address holds, it gets no more; past either, 429.")
  public static let recipeFetchTimeout = Limit(
    "recipe-fetch-timeout", 10, unit: "seconds", upTo: 120,
    help: "Seconds a recipe import by URL may take to fetch its page, redirects included (and "
      + "may wait for its turn); past it, 504 (or 503 while waiting) and nothing stored.")
  public static let tileWait = Limit(
    "tile-wait", 10, unit: "seconds", upTo: 3600,
    help: "Seconds a tile render may wait for its turn before 503.")
  public static let sphereWait = Limit(
    "sphere-wait", 30, unit: "seconds", upTo: 3600,
    help: "Seconds an uncached sphere packing may wait for its turn before 503.")
  public static let bigHelloWait = Limit(
    "big-hello-wait", 10, unit: "seconds", upTo: 3600,
    help: "Seconds a big hello may wait for its turn; past it, the join closes with 1013.")
  public static let storeCallWait = Limit(
    "store-call-wait", 10, unit: "seconds", upTo: 3600,
    help: "Seconds a request that reads or writes the database may wait for a store worker "
      + "before 503 with Retry-After.")
  public static let replayStateWait = Limit(
    "replay-state-wait", 10, unit: "seconds", upTo: 3600,
    help: "Seconds a replay state may wait for a place before 503 with Retry-After.")
  public static let inputPageWait = Limit(
    "input-page-wait", 10, unit: "seconds", upTo: 3600,
    help: "Seconds an input-log page may wait for its turn before 503.")
  public static let idlePause = Limit(
    "idle-pause", 30, unit: "seconds", upTo: nil,
    help: "Seconds without clients before a running session pauses.")
  public static let sessionMaxAge = Limit(
    "session-max-age", 7 * 24 * 3600, unit: "seconds", upTo: nil,
    help: "Seconds without updates before a session is deleted.")
  public static let parkedMaxAge = Limit(
    "parked-max-age", 24 * 3600, unit: "seconds", upTo: nil,
    help: "Seconds a parked session (out of memory, back when asked for) is kept without "
      + "updates before it is deleted.")
  public static let headerTimeout = Limit(
    "header-timeout", seconds(HTTPConnectionStateMachine.Configuration().headerTimeout),
    unit: "seconds", upTo: 3600, help: "Seconds a client has to send a request head.")
  public static let bodyTimeout = Limit(
    "body-timeout", seconds(HTTPConnectionStateMachine.Configuration().bodyTimeout),
    unit: "seconds", upTo: 3600, help: "Seconds a client has to send a request body.")
  public static let idleTimeout = Limit(
    "idle-timeout", seconds(HTTPConnectionStateMachine.Configuration().idleTimeout),
    unit: "seconds", upTo: 3600, help: "Seconds a kept-alive connection may sit idle.")

  private static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
