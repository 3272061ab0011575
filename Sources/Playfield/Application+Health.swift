import HTTP
import JSON
import Storage

extension Application {
  /// `/healthz`: the game loop's figures and the storage's state; `degraded` when the writer is
  /// failing or the database file was deleted or replaced.
  func health() -> Response {
    let stats = gameLoop.statistics
    let jobs = gameLoop.scheduler.statistics
    var body: [String: JSONValue] = [
      "status": "ok",
      "sessions": .number(Double(registry.count)),
      "ticks": .number(Double(stats.ticks)),
      "droppedTicks": .number(Double(stats.droppedTicks)),
      "tickLatenessMs": .object([
        "p50": .number(stats.latenessP50), "p99": .number(stats.latenessP99),
        "max": .number(stats.latenessMax),
      ]),
      "tickWorkMs": .number(stats.workMean),
      "throttled": .object(stats.throttled.mapValues { .number(Double($0)) }),
      "activeSessions": .number(Double(stats.activeSessions)),
      "stepJobs": .object([
        "waiting": .number(Double(jobs.waiting)), "slices": .number(Double(jobs.slices)),
        "steps": .number(Double(jobs.steps)), "refused": .number(Double(jobs.refused)),
        "finished": .number(Double(jobs.finished)), "cancelled": .number(Double(jobs.cancelled)),
        "submitted": .object(jobs.submitted.mapValues { .number(Double($0)) }),
        "cpuMs": .number(GameLoop.milliseconds(jobs.cpu)),
      ]),
    ]
    let hellos = registry.helloWork.statistics
    body["bigHellos"] = .object([
      "encoded": .number(Double(hellos.encoded)), "refused": .number(Double(hellos.refused)),
    ])
    let onDemand = registry.onDemand.statistics
    body["onDemand"] = .object([
      "cpuMs": .number(GameLoop.milliseconds(onDemand.cpu)),
      "slices": .number(Double(onDemand.slices)),
    ])
    if let journal {
      var status = journal.writer.status
      let postgres = journal.store as? PostgresSessionStore
      // NB: PostgreSQL's own text names its host, port and user: the log has it, clients the kind.
      logProblem(
        [status.lastError, journal.leases?.health.lastError, postgres?.connectionProblem]
          .compactMap { $0 }.joined(separator: "; "))
      if postgres != nil, status.lastError != nil {
        status.lastError = "the database cannot be written (the server log says why)"
      }
      body["storage"] = .string(status.summary)
      // NB: a session the store could not keep runs in memory only: it will not survive.
      let unstored = registry.memoryOnly.withLock { $0.count }
      body["memoryOnlySessions"] = .number(Double(unstored))
      if unstored > 0 { body["status"] = "degraded" }
      // NB: an expired session the store refused to delete stays until it is deleted.
      let undeleted = registry.undeletedExpired.withLock { $0.count }
      body["undeletedExpiredSessions"] = .number(Double(undeleted))
      if undeleted > 0 { body["status"] = "degraded" }
      body["parkedSessions"] = .number(Double(registry.parked.withLock { $0.count }))
      let committed = journal.writer.commitLatency
      body["inputCommitMs"] = .object([
        "ticks": .number(Double(committed.count)),
        "p50": committed.quantile(0.5).map { JSONValue.number($0 * 1000) } ?? .null,
        "p99": committed.quantile(0.99).map { JSONValue.number($0 * 1000) } ?? .null,
        "max": committed.quantile(1).map { JSONValue.number($0 * 1000) } ?? .null,
      ])
      // The queue of writes waiting for the database (it grows while the database is away).
      body["pendingWrites"] = .object([
        "inputs": .number(Double(status.pendingInputs)),
        "snapshots": .number(Double(status.pendingSnapshots)),
        "progress": .number(Double(status.pendingProgress)),
        "bytes": .number(Double(status.pendingBytes)),
        "peakBytes": .number(Double(status.peakBytes)),
        "byteBound": .number(Double(journal.writer.maxPendingBytes)),
        "waitingSteps": .number(Double(status.waitingSteps)),
        "refusedInputs": .number(Double(status.rejectedInputs)),
        "writtenRows": .number(Double(status.writtenRows)),
        "writtenBytes": .number(Double(status.writtenBytes)),
      ])
      if !status.isHealthy { body["status"] = "degraded" }
      let file = journal.checkFile()
      body["databaseFile"] = .string(file.description)
      if file != .same { body["status"] = "degraded" }
      if let leases = journal.leases {
        let health = leases.health
        let going = health.cutOff ? "; the database cannot be reached, sessions go on" : ""
        body["leases"] = .string(
          // NB: the failure's own text names the database's address: the log has it.
          health.lastError.map { _ in "cannot renew (\(health.failures) tries)\(going)" }
            ?? "renewed")
        if health.failures > 0 { body["status"] = "degraded" }
      }
      if (journal.store as? PostgresSessionStore)?.connectionProblem != nil {
        body["database"] = "the database cannot be reached (the server log says why)"
        body["status"] = "degraded"
      }
    } else {
      body["storage"] = "off"
    }
    return .json(.object(body))
  }

  /// Logs what the store's failures say in full, once each time it changes.
  private func logProblem(_ problem: String) {
    let changed = healthProblem.withLock { last in
      defer { last = problem }
      return last != problem
    }
    if changed, !problem.isEmpty { environment.logger.warning("storage: \(problem)") }
  }
}
