"""The shared page modules (Public/js/lib/), run in the browser with made-up inputs."""
import pytest


@pytest.fixture
def lib(playfield, watched):
    """A page on the server in which `lib(name)` imports /js/lib/NAME.js."""
    page = watched()
    page.page.goto(playfield.url + "/")

    def run(script):
        return page.page.evaluate(
            "async (script) => {"
            " const lib = (name) => import(`/js/lib/${name}.js`);"
            " return await (new Function('lib', `return (async () => { ${script} })()`))(lib); }",
            script)

    run.page = page
    return run


def test_frame_buffer_blends_the_two_frames_around_the_drawing_moment(lib):
    result = lib("""
      const { FrameBuffer } = await lib("frames");
      const tick = 1000 / 60;
      const buffer = new FrameBuffer({ delayMs: 0 });
      // Frames 10, 11, 12 arrive exactly on time: frame k at k ticks (+ 5 ms of network).
      for (const k of [10, 11, 12]) buffer.push({ tick: k, x: k * 6 }, k * tick + 5);
      const at = (ms) => { const s = buffer.sample(ms); return [s.a.tick, s.b.tick, +s.alpha.toFixed(3)]; };
      return {
        between: at(10.5 * tick + 5),
        later: at(11.25 * tick + 5),
        past: at(20 * tick + 5),
        before: at(5 * tick),
      };
    """)
    assert result["between"] == [10, 11, 0.5]
    assert result["later"] == [11, 12, 0.25]
    assert result["past"] == [12, 12, 0], "never extrapolates past the newest frame"
    assert result["before"] == [10, 10, 0]


def test_frame_buffer_drops_old_ticks_and_does_not_blend_jumps_or_cuts(lib):
    result = lib("""
      const { FrameBuffer } = await lib("frames");
      const tick = 1000 / 60;
      const buffer = new FrameBuffer({ delayMs: 0, maxGap: 30 });
      buffer.push({ tick: 1 }, tick);
      buffer.push({ tick: 2 }, 2 * tick);
      buffer.push({ tick: 2 }, 2 * tick);     // repeated: dropped
      buffer.push({ tick: 1 }, 2.5 * tick);   // older: dropped
      const kept = buffer.frames.map((f) => f.tick);
      buffer.push({ tick: 100 }, 100 * tick); // a jump of 98 ticks (a slow client, a pause)
      const jump = buffer.sample(50 * tick);
      buffer.push({ tick: 101 }, 101 * tick);
      buffer.push({ tick: 102 }, 102 * tick);
      buffer.cut(102);                         // e.g. a reset at tick 102
      const cut = buffer.sample(101.5 * tick);
      const normal = buffer.sample(100.5 * tick);
      return {
        kept,
        jump: [jump.a.tick, jump.b.tick, jump.alpha],
        cut: [cut.a.tick, cut.b.tick, cut.alpha],
        normal: [normal.a.tick, normal.b.tick, normal.alpha],
      };
    """)
    assert result["kept"] == [1, 2]
    assert result["jump"] == [2, 2, 0], "frames 98 ticks apart are not blended"
    assert result["cut"] == [101, 101, 0], "no blending across a cut"
    assert result["normal"] == [100, 101, 0.5]


def test_frame_buffer_clock_follows_late_frames_and_resyncs_after_a_pause(lib):
    result = lib("""
      const { FrameBuffer } = await lib("frames");
      const tick = 1000 / 60;
      const buffer = new FrameBuffer({ delayMs: 0, resyncMs: 250 });
      buffer.push({ tick: 0 }, 1000);
      buffer.push({ tick: 1 }, 1000 + tick - 3);   // earlier than expected: adopted at once
      const early = buffer.offset;
      buffer.push({ tick: 2 }, 1000 + 2 * tick + 40); // late by 43 ms: followed slowly
      const slowly = buffer.offset;
      buffer.push({ tick: 3 }, 1000 + 3 * tick + 2000); // after a 2 s pause: resynced
      return { early, slowly, paused: buffer.offset };
    """)
    assert result["early"] == pytest.approx(997)
    assert 997 < result["slowly"] < 997 + 43 * 0.1
    assert result["paused"] == pytest.approx(3000)


def test_lerp_array_blends_and_takes_new_entries_as_they_are(lib):
    result = lib("""
      const { lerpArray } = await lib("frames");
      const out = lerpArray(new Float64Array(0), [0, 10], [10, 20, 30, 40], 0.25);
      return Array.from(out);
    """)
    assert result == [2.5, 12.5, 30, 40]


def test_retry_delays_double_up_to_a_cap_within_the_jitter(lib):
    result = lib("""
      const { retryDelay, channelOptions } = await lib("session");
      const low = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelay(n, 0));
      const high = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelay(n, 0.999999));
      const middle = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelay(n, 0.5));
      return { low, high, middle, jitter: channelOptions.jitter };
    """)
    assert result["middle"] == [250, 500, 1000, 2000, 4000, 8000, 8000, 8000]
    jitter = result["jitter"]
    for low, middle, high in zip(result["low"], result["middle"], result["high"]):
        assert low == pytest.approx(middle * (1 - jitter))
        assert high == pytest.approx(middle * (1 + jitter), rel=1e-5)


def test_rate_meter_counts_the_last_second(lib):
    result = lib("""
      const { RateMeter } = await lib("frames");
      const meter = new RateMeter();
      for (let t = 0; t < 2000; t += 1000 / 60) meter.tick(t);
      return [meter.rate(2000), meter.rate(2500), meter.rate(3100)];
    """)
    assert 59 <= result[0] <= 61
    assert 29 <= result[1] <= 31
    assert result[2] == 0


def test_frame_buffer_plays_a_replay_faster_or_slower_without_a_jump(lib):
    result = lib("""
      const { FrameBuffer } = await lib("frames");
      const tick = 1000 / 60;
      const buffer = new FrameBuffer({ delayMs: 30 });
      for (const k of [0, 1, 2, 3]) buffer.push({ tick: k }, 1000 + k * tick);
      const now = 1000 + 3 * tick;
      const before = buffer.drawingTick(now);
      buffer.setSpeed(4, now);
      const fast = { same: buffer.drawingTick(now), later: buffer.drawingTick(now + tick) - before,
                     tickMs: buffer.options.tickMs, delayMs: buffer.options.delayMs };
      buffer.setSpeed(0.25, now);
      const slow = { same: buffer.drawingTick(now), tickMs: buffer.options.tickMs,
                     delayMs: buffer.options.delayMs };
      return { before, fast, slow };
    """)
    assert result["fast"]["same"] == pytest.approx(result["before"]), "no jump when the speed changes"
    assert result["fast"]["later"] == pytest.approx(4), "at 4x one server tick shows four ticks"
    assert result["fast"]["tickMs"] == pytest.approx(1000 / 60 / 4)
    assert result["fast"]["delayMs"] == 30
    assert result["slow"]["same"] == pytest.approx(result["before"])
    assert result["slow"]["tickMs"] == pytest.approx(1000 / 60 * 4)
    # At 0.25x a frame comes every 4 server ticks: the drawing waits that much longer.
    assert result["slow"]["delayMs"] == pytest.approx(30 + 1000 / 60 * 3)


def test_replay_times_read_as_minutes_and_seconds(lib):
    result = lib("""
      const { formatTime } = await lib("replay");
      return [0, 1.25, 59.96, 61, 3599.9, 3600, 7384].map(formatTime);
    """)
    assert result == ["0:00.0", "0:01.3", "1:00.0", "1:01.0", "59:59.9", "1:00:00", "2:03:04"]


def test_request_json_turns_error_bodies_into_errors(lib):
    result = lib("""
      const { APIError, requestJSON } = await lib("api");
      const listed = await requestJSON("/api/sessions");
      try {
        await requestJSON("/api/sessions", { method: "POST", body: { kind: "nope" } });
        return "no error";
      } catch (error) {
        return { isAPIError: error instanceof APIError, status: error.status,
                 field: error.field, message: error.message, listed: Array.isArray(listed.sessions) };
      }
    """)
    assert result["isAPIError"] and result["status"] == 400 and result["field"] == "kind"
    assert result["message"].startswith("kind must be one of")
    assert result["listed"]
    lib.page.allow(lambda problem: "400" in problem)


def test_stored_tracker_says_saved_saving_and_not_saved_by_the_watermark(lib):
    result = lib("""
      const { StoredTracker, storedOptions, isInput } = await lib("stored");
      const { graceMs, overdueMs } = storedOptions;
      const t = new StoredTracker();
      const seen = {};
      t.open({ tick: 10, role: "controller" });
      seen.start = t.view(0);
      t.input(100);
      t.flushSent();
      t.input(150);                       // after the flush: not covered by its answer
      seen.young = t.view(100 + graceMs - 1);
      seen.saving = t.view(100 + graceMs);
      t.flushAnswered();                  // covers the first input only
      seen.due = t.flushDue;
      seen.second = t.view(150 + graceMs - 1);
      seen.secondSaving = t.view(150 + graceMs);
      t.flushSent();
      seen.overdue = t.view(150 + overdueMs);
      t.failing("the database cannot be written");
      seen.failing = t.view(200);
      t.flushAnswered();
      seen.back = t.view(150 + overdueMs + 1);
      t.input(4000);
      seen.stopped = t.view(4000 + overdueMs, false);
      t.flushSent(); t.flushAnswered();
      // A connection that drops with an input not stored: maybe lost; gone if the session
      // came back at an earlier tick.
      t.tick(40);
      t.input(5000);
      t.open({ tick: 41 });
      seen.dropped = t.view(5001);
      t.input(5100); t.flushSent(); t.flushAnswered();
      seen.afterDrop = t.view(5101);
      t.input(6000);
      t.tick(90);
      t.open({ tick: 60 });
      seen.rewound = t.view(6001);
      // A probe (a flush covering nothing) proves nothing; a refused one means no database.
      const fresh = new StoredTracker();
      fresh.open({ tick: 0 });
      fresh.flushSent(); fresh.flushAnswered();
      seen.probe = fresh.view(0);
      fresh.flushSent(); fresh.flushFailed("not-stored");
      fresh.input(10);
      seen.memory = [fresh.view(10 + overdueMs), fresh.flushDue];
      seen.inputs = [{ type: "toggle" }, { type: "tilt" }, { type: "start" }, { type: "step" },
                     { type: "ping" }, { type: "flush" }, {}].map(isInput);
      return seen;
    """)
    assert result["start"] == {"state": "none", "text": ""}
    assert result["young"] == {"state": "none", "text": ""}, "nothing stored yet, nothing said"
    assert result["saving"] == {"state": "saving", "text": "Saving…"}
    assert result["due"] is True, "the input sent after the flush needs another"
    assert result["second"] == {"state": "saved", "text": "Saved"}
    assert result["secondSaving"]["state"] == "saving"
    assert result["overdue"] == {
        "state": "unsaved", "text": "Not saved: the server has not stored your last change yet"}
    assert result["failing"] == {"state": "unsaved", "text": "Not saved: the database cannot be written"}
    assert result["back"] == {"state": "saved", "text": "Saved"}
    assert result["stopped"] == {
        "state": "waiting", "text": "Not saved yet: the session is stopped (saved once it steps)"}
    assert result["dropped"]["state"] == "unknown"
    assert result["dropped"]["text"].startswith("Maybe not saved: the connection dropped")
    assert result["afterDrop"] == {"state": "saved", "text": "Saved"}
    assert result["rewound"] == {
        "state": "unsaved",
        "text": "Not saved: the session went back to tick 60; your last changes are lost"}
    assert result["probe"] == {"state": "none", "text": ""}
    assert result["memory"] == [
        {"state": "memory", "text": "Not saved: this session has no database (memory only)"}, False]
    assert result["inputs"] == [True, True, False, False, False, False, False]


def test_an_unstored_notice_answers_the_waiting_flush_and_reaches_the_page(lib):
    """`unstored` (docs/protocol.md) carrying a flush's id refuses that flush (code `unstored`,
    the server's reason), and the page's handler hears it; the saved line then says why."""
    result = lib("""
      const { SessionClient } = await lib("session");
      const { StoredTracker } = await lib("stored");
      const heard = [];
      const client = new SessionClient("s", "t", { unstored: (m) => heard.push(m.reason) });
      const sent = [];
      client.send = (message) => { sent.push(message); return true; };
      const flushed = client.request({ type: "flush" }, 10000).then(
        () => "resolved", (error) => [error.code, error.message]);
      client.receive(JSON.stringify({ type: "unstored", inputs: 3, id: sent[0].id,
                                      reason: "the database cannot be written" }));
      client.receive(JSON.stringify({ type: "unstored", inputs: 3,
                                      reason: "the database cannot be written" }));
      const tracker = new StoredTracker();
      tracker.open({ tick: 0, role: "controller" });
      tracker.input(0);
      tracker.failing(heard[0]);
      return { flushed: await flushed, heard, view: tracker.view(1).text };
    """)
    assert result["flushed"] == ["unstored", "the database cannot be written"]
    assert result["heard"] == ["the database cannot be written"] * 2
    assert result["view"] == "Not saved: the database cannot be written"
