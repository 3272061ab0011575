"""Issue 26: street soccer over the session channel. Each side plays with its own seat token,
the server stamps the side, asks for a `plan` are answered to the asker alone, and every bad
input (wrong side, illegal move, forged die, spectator, malformed message) gets an error that
names the rule while the match goes on."""
import json
from contextlib import ExitStack
from urllib.parse import parse_qs, urlparse

from websockets.sync.client import connect

from deadline import Deadline, receive_until
from helpers import create_session, request

CONFIG = {"home": "human", "away": "human", "turnsPerSide": 2}


def seat_token(session, seat):
    """The seat's token, from its link (after `#`, where no server or Referer sees it)."""
    return parse_qs(urlparse(session["urls"][seat]).fragment)["token"][0]


def join(stack, playfield, session, token=None):
    url = f"{playfield.ws_url}/ws/sessions/{session['id']}"
    ws = stack.enter_context(connect(url + (f"?token={token}" if token else "")))
    hello = receive_until(ws, lambda m: m["type"] == "hello", what="hello")
    return ws, hello


def send(ws, message):
    ws.send(json.dumps(message))


def answer_to(ws, request_id):
    return receive_until(
        ws, lambda m: m.get("id") == request_id and m["type"] in ("ack", "answer", "error"),
        what=f"the answer to {request_id}")


def event(ws, name, **fields):
    return receive_until(
        ws, lambda m: m["type"] == "event" and m["name"] == name
        and all(m.get(k) == v for k, v in fields.items()), what=f"event {name} {fields}")


def test_each_side_has_its_own_token_and_the_server_names_the_side(playfield):
    session = create_session(playfield, "street-soccer", CONFIG)
    assert set(session["urls"]) >= {"home", "away", "control"}
    with ExitStack() as stack:
        home, hello = join(stack, playfield, session, seat_token(session, "home"))
        away, away_hello = join(stack, playfield, session, seat_token(session, "away"))
        watcher, watcher_hello = join(stack, playfield, session)
        assert (hello["role"], away_hello["role"], watcher_hello["role"]) == ("home", "away", "spectator")
        assert hello["players"] == {"home": "human", "away": "human"}
        assert hello["toMove"] == "home" and hello["phase"] == "turn" and 1 <= hello["die"] <= 6
        assert "awayToken" not in hello  # only the controller learns the seats' tokens

        # Away claims to be home: the server stamps away, and it is not away's turn.
        send(away, {"type": "turn", "side": "home", "moves": [], "id": "forged"})
        assert answer_to(away, "forged")["type"] == "ack"
        rejected = event(away, "input-rejected", side="away")
        assert rejected["reason"] == "turn: it is home's turn"

        # A spectator may neither play nor ask for a plan.
        send(watcher, {"type": "turn", "side": "home", "moves": [], "id": 1})
        refused = answer_to(watcher, 1)
        assert refused["type"] == "error" and refused["error"] == "not-controller"
        send(watcher, {"type": "plan", "side": "home", "moves": [], "id": 2})
        assert answer_to(watcher, 2)["error"] == "not-controller"

        # The die is the server's in this session: a forged roll is refused by rule.
        send(home, {"type": "die", "side": "home", "value": 6})
        rejected = event(home, "input-rejected", side="home")
        assert rejected["reason"] == "die: this session's dice are rolled by the server"

        # Malformed messages name the field.
        send(home, {"type": "turn", "side": "home", "moves": "north", "id": "bad"})
        bad = answer_to(home, "bad")
        assert bad["type"] == "error" and bad["field"] == "moves", bad
        send(home, {"type": "turn", "side": "home", "moves": [{"move": "fly", "piece": 2, "to": [1, 1]}], "id": "fly"})
        fly = answer_to(home, "fly")
        assert fly["type"] == "error" and fly["field"].startswith("moves[0]"), fly

        # The plan: the legal moves of home's turn, answered to home alone with its id.
        send(home, {"type": "plan", "side": "home", "moves": [], "id": "p1"})
        plan = answer_to(home, "p1")
        assert plan["type"] == "answer" and plan["query"] == "plan"
        assert plan["plan"]["pointsLeft"] == hello["die"] and plan["plan"]["canConfirm"]
        legal = plan["plan"]["legal"]
        assert legal and all(m["move"] in ("step", "kick", "tackle") for m in legal)
        # An illegal planned move: the error names the move and the rule.
        send(home, {"type": "plan", "side": "home", "moves": [{"move": "kick", "piece": 2, "to": [5, 1]}], "id": "p2"})
        wrong = answer_to(home, "p2")
        assert wrong["type"] == "error" and wrong["message"] == "move 1: home 2 does not have the ball", wrong
        assert wrong["error"] == "refused"
        # Away asking for a plan while home plays is told whose turn it is.
        send(away, {"type": "plan", "side": "away", "moves": [], "id": "p3"})
        not_yours = answer_to(away, "p3")
        assert not_yours["message"] == "turn: it is home's turn" and not_yours["error"] == "refused"
        # A malformed plan (a square off the grid) is a bad field, as docs/protocol.md says,
        # not a refusal by rule (issue 35 item 7).
        send(home, {"type": "plan", "side": "home", "moves": [{"move": "step", "piece": 2, "to": [99, 1]}],
                    "id": "p-grid"})
        off_grid = answer_to(home, "p-grid")
        assert (off_grid["error"], off_grid["field"]) == ("bad-field", "moves[0].to"), off_grid

        # The same illegal move confirmed: rejected by rule, nothing changes.
        send(home, {"type": "turn", "side": "home", "moves": [{"move": "kick", "piece": 2, "to": [5, 1]}]})
        rejected = event(home, "input-rejected", side="home")
        assert rejected["reason"] == "move 1: home 2 does not have the ball"

        # And the game goes on: home plays its first legal move, away is next.
        first = legal[0]
        send(home, {"type": "plan", "side": "home", "moves": [first], "id": "p4"})
        after = answer_to(home, "p4")["plan"]
        assert after["pointsLeft"] == hello["die"] - (2 if first["move"] == "tackle" else 1)
        send(home, {"type": "turn", "side": "home", "moves": [first] if after["canConfirm"] else []})
        # A frame goes out only when the match changed: the turn's, before that tick's events.
        frame = receive_until(watcher, lambda m: m["type"] == "frame" and m["turnsPlayed"] == 1, what="the next turn")
        turn = event(watcher, "turn")
        assert turn["side"] == "home"
        assert frame["toMove"] == "away" and frame["last"]["side"] == "home"


def test_a_short_match_plays_to_the_end_and_rematches_with_ends_changed(playfield):
    session = create_session(playfield, "street-soccer", {**CONFIG, "turnsPerSide": 1})
    with ExitStack() as stack:
        home, _ = join(stack, playfield, session, seat_token(session, "home"))
        away, _ = join(stack, playfield, session, seat_token(session, "away"))
        send(home, {"type": "turn", "side": "home", "moves": []})
        event(away, "turn", side="home")
        send(away, {"type": "turn", "side": "away", "moves": []})
        frame = receive_until(home, lambda m: m["type"] == "frame" and m["phase"] == "over", what="full time")
        over = event(home, "match-over")
        assert (over["home"], over["away"]) == (0, 0)
        assert frame["stats"]["goals"] == [0, 0] and frame["homeAttacks"] == "right"
        send(away, {"type": "turn", "side": "away", "moves": []})
        assert event(away, "input-rejected", side="away")["reason"] == "turn: the match is over"
        send(away, {"type": "rematch", "side": "away"})
        frame = receive_until(home, lambda m: m["type"] == "frame" and m["match"] == 2, what="the rematch")
        assert event(home, "rematch")["match"] == 2
        assert frame["homeAttacks"] == "left" and frame["toMove"] == "away" and frame["turnsPlayed"] == 0


def test_the_controller_plays_the_human_side_against_a_computer(playfield):
    session = create_session(playfield, "street-soccer", {"home": "novice", "away": "human", "turnsPerSide": 1, "computerDelay": 0})
    with ExitStack() as stack:
        control, hello = join(stack, playfield, session, session["token"])
        assert hello["role"] == "controller" and hello["homeToken"] and hello["awayToken"]
        # The novice plays home's turn by itself; then it is away's.
        frame = receive_until(control, lambda m: m["type"] == "frame" and m["toMove"] == "away", what="the computer's turn")
        assert frame["last"]["side"] == "home"
        send(control, {"type": "plan", "side": "away", "moves": [], "id": "p"})
        assert answer_to(control, "p")["type"] == "answer"
        send(control, {"type": "turn", "side": "home", "moves": []})
        assert event(control, "input-rejected", side="home")["reason"] == "turn: it is away's turn"
        send(control, {"type": "turn", "side": "away", "moves": []})
        assert event(control, "match-over")


def test_an_external_die_comes_from_the_side_to_roll_and_only_when_awaited(playfield):
    session = create_session(playfield, "street-soccer", {**CONFIG, "dice": "external"})
    with ExitStack() as stack:
        home, hello = join(stack, playfield, session, seat_token(session, "home"))
        away, _ = join(stack, playfield, session, seat_token(session, "away"))
        assert hello["phase"] == "roll" and hello["die"] is None
        send(home, {"type": "turn", "side": "home", "moves": []})
        assert event(home, "input-rejected", side="home")["reason"] == "turn: the die has not been rolled yet"
        send(away, {"type": "die", "side": "away", "value": 6})
        assert event(away, "input-rejected", side="away")["reason"] == "die: it is home's roll"
        send(home, {"type": "die", "side": "home", "value": 7, "id": "seven"})
        seven = answer_to(home, "seven")
        assert seven["type"] == "error" and seven["field"] == "value"
        send(home, {"type": "die", "side": "home", "value": 3})
        assert event(home, "roll", side="home")["value"] == 3
        send(home, {"type": "die", "side": "home", "value": 5})
        assert event(home, "input-rejected", side="home")["reason"] == "die: no roll is awaited: home has a 3"
        send(home, {"type": "plan", "side": "home", "moves": [], "id": "p"})
        assert answer_to(home, "p")["plan"]["pointsLeft"] == 3


def test_a_watched_match_waiting_for_a_move_sends_no_frames(playfield):
    """Frames go out only when the match changes: 60 ticks of waiting for home's move send
    none to a watcher, and home's turn sends one."""
    session = create_session(playfield, "street-soccer", CONFIG)
    with ExitStack() as stack:
        home, hello = join(stack, playfield, session, seat_token(session, "home"))
        watcher, _ = join(stack, playfield, session)
        receive_until(watcher, lambda m: m["type"] == "status", what="the joiner's status")
        start = hello["tick"]
        seen = []
        deadline = Deadline(30, "60 ticks of a watched match")
        while True:
            _, _, info = request(f"{playfield.url}/api/sessions/{session['id']}")
            if info["tick"] >= start + 60:
                break
            deadline.left()
            try:
                seen.append(json.loads(watcher.recv(timeout=0.1)))
            except TimeoutError:
                pass
        assert [m for m in seen if m["type"] == "frame"] == []
        send(home, {"type": "turn", "side": "home", "moves": []})
        frame = receive_until(watcher, lambda m: m["type"] == "frame", what="the turn's frame")
        assert frame["turnsPlayed"] == 1
