import HTTP
import Storage

extension Application {
  /// `/metrics`: this process's figures in Prometheus' text exposition format (version 0.0.4),
  /// for a scraper; `/healthz` stays the one for people and load balancers. Every family is
  /// named `playfield_…` and documented by its `# HELP` line (docs/deployment.md, "Watching
  /// it"). Counters count since the process started.
  func metrics() -> Response {
    var out = PrometheusText()
    let shard = environment.shard
    out.family("info", .gauge, "Always 1; its label names this process's shard (empty: none).")
    out.sample("info", [("shard", shard)], 1)
    gameLoopMetrics(&out)
    sessionMetrics(&out)
    storageMetrics(&out)
    let refusals = meters.refusalsByLimit.mapValues { Double($0) }
    out.labelled(
      "refusals_total", .counter,
      "Requests refused since start, by the option that sets the limit (README \"Limits\").",
      label: "limit", refusals)
    if let server = meters.server {
      out.single(
        "connections", .gauge, "Open HTTP and WebSocket connections.", Double(server.connections))
      out.single(
        "queued_bytes", .gauge, "Bytes queued for peers (HTTP and WebSocket) that do not read.",
        Double(server.queuedBytes))
      out.single(
        "requests_waiting_for_readers", .gauge,
        "HTTP requests waiting until their address's peers read what is queued for them "
          + "(--queued-bytes-per-address).", Double(server.requestsWaitingForReaders))
    }
    let services = meters.coldServices
    out.family("cold_cached_entries", .gauge, "Bodies held in a service's memory cache.")
    for (name, figures) in services {
      out.sample("cold_cached_entries", [("service", name)], Double(figures.entries))
    }
    out.family("cold_cached_bytes", .gauge, "Bytes of bodies held in a service's memory cache.")
    for (name, figures) in services {
      out.sample("cold_cached_bytes", [("service", name)], Double(figures.bytes))
    }
    out.family(
      "cold_cache_hits_total", .counter, "Requests answered from a service's memory cache.")
    for (name, figures) in services {
      out.sample("cold_cache_hits_total", [("service", name)], Double(figures.hits))
    }
    out.family(
      "cold_computed_total", .counter,
      "Bodies a service computed (tiles rendered, sphere packings computed, pages read).")
    for (name, figures) in services {
      out.sample("cold_computed_total", [("service", name)], Double(figures.computed))
    }
    out.family("cold_jobs", .gauge, "A service's jobs now, running or waiting for a slot.")
    for (name, figures) in services {
      out.sample("cold_jobs", [("service", name), ("state", "running")], Double(figures.running))
      out.sample("cold_jobs", [("service", name), ("state", "waiting")], Double(figures.waiting))
    }
    return Response(
      status: .ok,
      headers: [
        "Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store",
      ], body: Array(out.text.utf8))
  }

  private func gameLoopMetrics(_ out: inout PrometheusText) {
    let stats = gameLoop.statistics
    out.single("ticks_total", .counter, "Game-loop ticks run.", Double(stats.ticks))
    out.single(
      "dropped_ticks_total", .counter, "Game-loop ticks skipped because the loop ran late.",
      Double(stats.droppedTicks))
    out.single(
      "tick_work_seconds", .gauge,
      "Mean seconds spent stepping every session in one tick, over the last ten seconds of ticks.",
      stats.workMean / 1000)
    out.family(
      "tick_lateness_seconds", .gauge,
      "How late ticks started, over the last ten seconds of ticks, by quantile.")
    for (quantile, value) in [
      ("0.5", stats.latenessP50), ("0.99", stats.latenessP99), ("1", stats.latenessMax),
    ] {
      out.sample("tick_lateness_seconds", [("quantile", quantile)], value / 1000)
    }
    out.single(
      "active_sessions", .gauge, "Sessions that wanted the last tick.",
      Double(stats.activeSessions))
    let jobs = gameLoop.scheduler.statistics
    out.single(
      "step_jobs_waiting", .gauge, "Step jobs (replays, heavy steps) waiting for the scheduler.",
      Double(jobs.waiting))
    out.labelled(
      "step_jobs_submitted_total", .counter, "Step jobs admitted, by kind.", label: "kind",
      jobs.submitted.mapValues { Double($0) })
    out.single(
      "step_jobs_refused_total", .counter,
      "Step jobs refused because their client had as many waiting as it may.",
      Double(jobs.refused))
    out.single(
      "step_jobs_finished_total", .counter, "Step jobs finished.", Double(jobs.finished))
    out.single(
      "step_jobs_cancelled_total", .counter, "Step jobs cancelled.", Double(jobs.cancelled))
    out.single("step_slices_total", .counter, "Scheduler slices run.", Double(jobs.slices))
    out.single("steps_total", .counter, "Steps the scheduler ran.", Double(jobs.steps))
  }

  private func sessionMetrics(_ out: inout PrometheusText) {
    out.family("sessions", .gauge, "Sessions of this process: live (in memory) or parked.")
    out.sample("sessions", [("state", "live")], Double(registry.count))
    out.sample("sessions", [("state", "parked")], Double(registry.parked.withLock { $0.count }))
  }

  private func storageMetrics(_ out: inout PrometheusText) {
    guard let journal else { return }
    let status = journal.writer.status
    out.family("writer_queue", .gauge, "Writes waiting for the database, by what they are.")
    out.sample("writer_queue", [("kind", "inputs")], Double(status.pendingInputs))
    out.sample("writer_queue", [("kind", "snapshots")], Double(status.pendingSnapshots))
    out.sample("writer_queue", [("kind", "progress")], Double(status.pendingProgress))
    out.single(
      "writer_queue_bytes", .gauge,
      "Bytes of inputs and snapshots waiting (bound: --pending-bytes).",
      Double(status.pendingBytes))
    out.single(
      "writer_waiting_steps", .gauge, "On-demand steps held back until the queue has room.",
      Double(status.waitingSteps))
    out.single(
      "writer_written_rows_total", .counter, "Input rows committed.", Double(status.writtenRows))
    out.single(
      "writer_written_bytes_total", .counter, "Bytes of input rows committed.",
      Double(status.writtenBytes))
    out.single(
      "writer_failures", .gauge, "Failed flushes in a row (0 while writes succeed).",
      Double(status.consecutiveFailures))
    out.single(
      "writer_refused_inputs_total", .counter,
      "Inputs refused because the database could not be written and the queue reached its "
        + "bound (--pending-bytes).",
      Double(status.rejectedInputs))
    let committed = journal.writer.commitLatency
    out.family(
      "input_commit_seconds", .summary,
      "Seconds from an input's step to the commit that stored it (quantiles of the newest 4096 "
        + "ticks).")
    for quantile in [0.5, 0.99, 1] {
      out.sample(
        "input_commit_seconds", [("quantile", PrometheusText.number(quantile))],
        committed.quantile(quantile) ?? .nan)
    }
    out.sample("input_commit_seconds_sum", [], committed.sum)
    out.sample("input_commit_seconds_count", [], Double(committed.count))
    if let leases = journal.leases {
      let totals = leases.totals
      out.single("leases_held", .gauge, "Session leases this process holds.", Double(totals.held))
      out.family("lease_renewals_total", .counter, "Lease renewals, by outcome.")
      out.sample("lease_renewals_total", [("outcome", "renewed")], Double(totals.renewed))
      out.sample("lease_renewals_total", [("outcome", "failed")], Double(totals.failed))
      out.single(
        "leases_lost_total", .counter,
        "Leases found taken by another process (its sessions dropped here).",
        Double(totals.lost))
    }
  }
}
