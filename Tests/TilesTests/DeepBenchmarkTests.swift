import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Tiles

/// Speed figures of the perturbation kernel for Benchmarks/tiles/deep.sh; skipped unless
/// PLAYFIELD_BENCH=1. They assert only correctness; times are printed as `BENCH` lines.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PLAYFIELD_BENCH"] == "1"), .serialized)
struct DeepBenchmarkTests {
  let runs = ProcessInfo.processInfo.environment["PLAYFIELD_BENCH_RUNS"].flatMap { Int($0) } ?? 5

  /// The best wall time of `runs` calls of `body`, in seconds.
  func best(of runs: Int, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
      let start = DispatchTime.now().uptimeNanoseconds
      body()
      best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return best
  }

  /// Iterations per second on one core: the plain kernels and perturbation (scalar loop and
  /// SIMD lanes, BLA off and on) on the same shallow tiles, all counted as the plain loop's
  /// `total_iters`.
  @Test func rawThroughputAgainstThePlainKernel() {
    for (zoom, x, y, iterations) in [(5, 14, 11, 1000), (20, 439_128, 478_211, 1000)] {
      let tile = TileCoordinate(zoom: zoom, x: x, y: y)!
      let viewport = Viewport(tile: tile)
      let total = EscapeTimeKernel.scalar.render(viewport, maxIterations: iterations)
        .totalIterations
      let deepViewport = PerturbationViewport(tile: tile)
      // NB: the grid's reference, as in the figures before the nucleus search (the nucleus
      // near these shallow tiles has period 2, a different loop to measure).
      let reference = PerturbationReference(
        viewport: deepViewport, maxIterations: iterations, search: .grid)
      var timings: [(String, Double)] = []
      for kernel in [EscapeTimeKernel.scalar, .simd4] {
        timings.append(
          (
            kernel.rawValue,
            best(of: runs) { _ = kernel.render(viewport, maxIterations: iterations, threads: 1) }
          ))
      }
      var fields: [EscapeField] = []
      for (bilinear, lanes) in [(false, false), (true, false), (false, true), (true, true)] {
        var field: EscapeField?
        let seconds = best(of: runs) {
          field = PerturbationKernel(usesBilinearSteps: bilinear, usesLanes: lanes).render(
            deepViewport, reference: reference, maxIterations: iterations, threads: 1)
        }
        #expect(field.map { Set($0.counts).count > 10 } == true)
        fields.append(field!)
        timings.append(
          (
            (lanes ? "lanes-" : "scalar-") + (bilinear ? "perturbation+bla" : "perturbation"),
            seconds
          ))
      }
      #expect(fields.allSatisfy { $0.counts == fields[0].counts })
      for (name, seconds) in timings {
        print(
          String(
            format: "BENCH raw tile=%@ iter=%d kernel=%@ threads=1 ms=%.1f Miter_per_s=%.0f",
            tile.description, iterations, name, seconds * 1e3, Double(total) / seconds / 1e6))
      }
    }
  }

  /// A deep tile at 10,000 iterations with BLA and without, on two threads, in SIMD lanes and
  /// (for comparison) the scalar loop; the reference orbit and table (the grid's, as before
  /// the nucleus search) are computed once beforehand and timed on their own.
  @Test func bilinearStepsAtDepth() {
    let seahorse = TileCoordinate(
      zoom: 101, x: TileIndex(decimal: "1066044740813839062573383719173")!,
      y: TileIndex(decimal: "1150736183086349467178411482532")!)!
    for tile in [seahorse, DeepTileSupport.tileAtI(zoom: 998)] {
      let iterations = 10_000
      let viewport = PerturbationViewport(tile: tile)
      var reference: PerturbationReference?
      let orbitSeconds = best(of: 1) {
        reference = PerturbationReference(
          viewport: viewport, maxIterations: iterations, search: .grid)
      }
      var fields: [EscapeField] = []
      var seconds: [Double] = []
      for (bilinear, lanes) in [(true, true), (false, true), (true, false), (false, false)] {
        var field: EscapeField?
        seconds.append(
          best(of: bilinear ? runs : max(1, runs / 3)) {
            field = PerturbationKernel(usesBilinearSteps: bilinear, usesLanes: lanes).render(
              viewport, reference: reference!, maxIterations: iterations, threads: 2)
          })
        fields.append(field!)
      }
      #expect(fields[0].counts == fields[2].counts && fields[1].counts == fields[3].counts)
      // NB: in seahorse valley at this cap some long orbits come out differently with and
      // without BLA (and both unlike exact iteration; see docs/architecture.md), so the
      // differing pixels are reported, not checked; around c = i there are none.
      let differing = DeepTileSupport.mismatches(fields[0], fields[1])
      if tile.zoom == 998 { #expect(differing == 0) }
      print(
        String(
          format: "BENCH bla zoom=%d iter=%d reference_ms=%.1f bla_ms=%.1f plain_ms=%.1f"
            + " speedup=%.1f scalar_bla_ms=%.1f scalar_plain_ms=%.1f total_iters=%llu"
            + " differing=%d",
          tile.zoom, iterations, orbitSeconds * 1e3, seconds[0] * 1e3, seconds[1] * 1e3,
          seconds[1] / seconds[0], seconds[2] * 1e3, seconds[3] * 1e3, fields[0].totalIterations,
          differing))
    }
  }

  /// Cold deep tiles, reference found by the grid (before) and by the nucleus search (after)
  /// in the same process: each run a fresh orbit cache, the whole render (reference, pixels on
  /// two threads, PNG), timed by phase; best of `runs` by total. The two searches' counts are
  /// compared too.
  @Test func coldDeepTiles() throws {
    let seahorse = TileCoordinate(
      zoom: 101, x: TileIndex(decimal: "1066044740813839062573383719173")!,
      y: TileIndex(decimal: "1150736183086349467178411482532")!)!
    let cases: [(String, TileCoordinate, Int)] = [
      ("seahorse-1e-30", seahorse, 10_000),
      ("i-1e-100", DeepTileSupport.tileAtI(zoom: 334), 1000),
      ("i-1e-300", DeepTileSupport.tileAtI(zoom: 998), 10_000),
      ("i-1e-600", DeepTileSupport.tileAtI(zoom: 1995), 10_000),
    ]
    let clock: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    for (name, tile, iterations) in cases {
      let request = TileRequest(tile: tile, iterations: iterations)
      var fields: [EscapeField] = []
      for search in [PerturbationReference.Search.grid, .nucleus] {
        var fastest: (total: Double, timings: RenderTimings)?
        var reference: PerturbationReference?
        for _ in 0..<runs {
          let renderer = TileRenderer(orbits: OrbitCache(search: search), threads: 2)
          let start = clock()
          let timings = try renderer.render(request, clock: clock).timings
          let total = clock() - start
          if total < fastest?.total ?? .infinity { fastest = (total, timings) }
          reference = renderer.orbits.cachedReference(
            for: PerturbationViewport(tile: tile), maxIterations: iterations)
          if fields.count < (search == .grid ? 1 : 2) {
            fields.append(renderer.field(for: request))
          }
        }
        let (total, timings) = fastest!
        print(
          String(
            format: "BENCH cold tile=%@ iter=%d search=%@ total_ms=%.1f reference_ms=%.1f"
              + " pixels_ms=%.1f encoding_ms=%.1f reference_share=%.0f%% choice=%@ updates=%d",
            name, iterations, "\(search)", total * 1e3, (timings.reference ?? 0) * 1e3,
            timings.pixels * 1e3, timings.encoding * 1e3, 100 * (timings.reference ?? 0) / total,
            "\(reference!.choice)".replacingOccurrences(of: " ", with: ""), reference!.updates))
      }
      let differing = DeepTileSupport.mismatches(fields[0], fields[1])
      print("BENCH cold tile=\(name) iter=\(iterations) grid_vs_nucleus_differing=\(differing)")
      if name.hasPrefix("i-") { #expect(differing == 0) }
    }
  }

  /// Exact reference updates per second: `BigFixed` operations (as before `OrbitStepper`)
  /// against the stepper, at the widths of 1e-300 and 1e-600.
  @Test func exactOrbitUpdates() {
    for zoom in [998, 1995] {
      let viewport = PerturbationViewport(tile: DeepTileSupport.tileAtI(zoom: zoom))
      let (cx, cy) = viewport.point(at: (0, 0))
      let updates = 500
      var last = (x: BigFixed(limbCount: cx.limbCount), y: BigFixed(limbCount: cx.limbCount))
      let operations = best(of: runs) {
        var zx = BigFixed(limbCount: cx.limbCount)
        var zy = zx
        for _ in 0..<updates {
          let real = (zx + zy) * (zx - zy) + cx
          zy = (zx * zy).doubled + cy
          zx = real
          _ = (zx.doubleValue, zy.doubleValue)
        }
        last = (zx, zy)
      }
      var stepped = last
      let stepper = best(of: runs) {
        var orbit = OrbitStepper(cx: cx, cy: cy)
        for _ in 0..<updates {
          orbit.step()
          _ = orbit.doubles
        }
        stepped = orbit.z
      }
      #expect(stepped.x == last.x && stepped.y == last.y)
      print(
        String(
          format:
            "BENCH exact-orbit zoom=%d limbs=%d bigfixed_us=%.2f stepper_us=%.2f speedup=%.1f",
          zoom, cx.limbCount, operations / Double(updates) * 1e6, stepper / Double(updates) * 1e6,
          operations / stepper))
    }
  }

  /// How soon a render stops once cancelled: a deep tile inside the main cardioid at level 50
  /// and `iter=100000` (every pixel runs to the cap, about 6.5e9 updates, tens of seconds),
  /// and the 1e-600 tile at 10,000 while its reference is being found; cancelled after
  /// 300 ms and 20 ms, the time from `cancel()` to the throw.
  @Test func cancellationLatency() throws {
    let clock: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    let cases = [
      (
        "interior-level-50",
        TileRequest(
          tile: DeepTileSupport.tile(zoom: 50, cx: -0.1, cy: 0.1), iterations: 100_000), 0.3
      ),
      (
        "i-1e-600-reference",
        TileRequest(tile: DeepTileSupport.tileAtI(zoom: 1995), iterations: 10_000), 0.02
      ),
    ]
    for (name, request, after) in cases {
      var latencies: [Double] = []
      for _ in 0..<runs {
        let renderer = TileRenderer(threads: 2)
        let cancellation = RenderCancellation()
        let cancelled = Mutex<Double>(0)
        let stopped = Mutex<Double>(0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
          let result = Result {
            try renderer.render(request, cancellation: cancellation, clock: clock)
          }
          stopped.withLock { $0 = clock() }
          if case .success = result { stopped.withLock { $0 = .nan } }
          done.signal()
        }
        Thread.sleep(forTimeInterval: after)
        cancelled.withLock { $0 = clock() }
        cancellation.cancel()
        done.wait()
        latencies.append(stopped.withLock { $0 } - cancelled.withLock { $0 })
      }
      #expect(latencies.allSatisfy { !$0.isNaN }, "the render finished before it was cancelled")
      print(
        String(
          format: "BENCH cancel tile=%@ after_ms=%.0f latency_ms best=%.1f worst=%.1f", name,
          after * 1e3, latencies.min()! * 1e3, latencies.max()! * 1e3))
    }
  }
}
