"""The command line: watch a session's ticks and events, or record its frames.

    python -m playfield_client watch URL [--frames N] [--seconds S] [--every K]
    python -m playfield_client record URL [--out FILE] [--frames N] [--seconds S] [--events]

URL is any address of a session: a page (`http://HOST/demos/maze?session=ID&token=T`, or
`#token=T`), the API
(`http://HOST/api/sessions/ID`) or the channel (`ws://HOST/ws/sessions/ID`). With a token
(in the URL or `--token`) you join as the controller, otherwise as a spectator; either way
these commands only read.
"""
import argparse
import json
import sys
import time
import urllib.parse
from collections.abc import Iterator
from typing import IO

from .errors import PlayfieldError
from .messages import (BallsFrame, Event, Frame, Hello, HolesFrame, MazeFrame, Message,
                       PaintbrushFrame, Status, TagCloudFrame)
from .session import Session


def socket_url(url: str, token: str | None = None) -> str:
    """The channel URL for any session address; raises ValueError naming what is missing."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc:
        raise ValueError(f"not a session address: {url!r} (try http://HOST/demos/maze?session=ID)")
    query = urllib.parse.parse_qs(parts.query)
    segments = [s for s in parts.path.split("/") if s]
    session = query.get("session", [None])[0]
    if session is None and len(segments) >= 3 and segments[-2] == "sessions":
        session = segments[-1]
    if not session:
        raise ValueError(f"no session id in {url!r}: give ?session=ID or /api/sessions/ID")
    # The pages' own links carry a token in the fragment (`#token=T`, which no server sees).
    fragment = urllib.parse.parse_qs(parts.fragment)
    token = token or query.get("token", [None])[0] or fragment.get("token", [None])[0]
    scheme = "wss" if parts.scheme in ("https", "wss") else "ws"
    address = f"{scheme}://{parts.netloc}/ws/sessions/{urllib.parse.quote(session, safe='')}"
    return address + (f"?token={urllib.parse.quote(token, safe='')}" if token else "")


def describe(frame: Frame) -> str:
    """A frame in one short line, by its kind's type (field names alone are ambiguous: a
    paintbrush frame's `points` is a count, a tag cloud's a list); a kind this client does not
    know shows its fields as they came."""
    if isinstance(frame, HolesFrame):
        ball = "gone" if frame.ball is None else f"({frame.ball[0]:.1f}, {frame.ball[1]:.1f})"
        return (f"ball {ball} score {frame.score} level {frame.level} balls {frame.balls_left}"
                f" {frame.phase}")
    if isinstance(frame, MazeFrame):
        return f"ball ({frame.ball[0]:.1f}, {frame.ball[1]:.1f}) tilt {frame.tilt}"
    if isinstance(frame, BallsFrame):
        return f"{frame.count} balls, energy {frame.energy:.0f}, {frame.collisions} impacts"
    if isinstance(frame, TagCloudFrame):
        return f"{len(frame.points)} tags{', dragging' if frame.dragging else ''}"
    if isinstance(frame, PaintbrushFrame):
        return f"picture v{frame.version}: {frame.strokes} strokes, {frame.points} points"
    fields = {k: v for k, v in frame.data.items() if k not in ("type", "tick", "t")}
    return json.dumps(fields, separators=(",", ":"))[:200]


def messages(session: Session, frames: int | None, seconds: float | None
             ) -> Iterator[Message]:
    """The session's messages until `frames` frames or `seconds` have passed (None: forever)."""
    end = None if seconds is None else time.monotonic() + seconds
    count = 0
    while frames is None or count < frames:
        left = None if end is None else end - time.monotonic()
        if left is not None and left <= 0:
            return
        try:
            message = session.receive(timeout=left)
        except TimeoutError:
            return
        if isinstance(message, Frame):
            count += 1
        yield message


def watch(args: argparse.Namespace, out: IO[str]) -> None:
    with Session.connect(socket_url(args.url, args.token)) as session:
        hello = session.hello
        assert hello is not None  # a connected session has had its hello
        print(f"session {hello.session} ({hello.kind}) as {hello.role}, tick {hello.tick},"
              f" {'running' if hello.running else 'stopped'}", file=out, flush=True)
        shown = 0
        for message in messages(session, args.frames, args.seconds):
            if isinstance(message, Frame):
                shown += 1
                if (shown - 1) % args.every == 0:
                    print(f"tick {message.tick} {describe(message)}".rstrip(), file=out, flush=True)
            elif isinstance(message, Event):
                fields = json.dumps(message.fields, separators=(",", ":"))
                print(f"event {message.name} at tick {message.tick} {fields}", file=out, flush=True)
            elif isinstance(message, Status):
                print(f"status tick {message.tick} {'running' if message.running else 'stopped'},"
                      f" {message.controllers} controllers, {message.spectators} spectators",
                      file=out, flush=True)
            elif isinstance(message, Hello):
                print(f"reconnected at tick {message.tick}", file=out, flush=True)


def record(args: argparse.Namespace, out: IO[str]) -> None:
    target = open(args.out, "w") if args.out != "-" else out
    written = 0
    try:
        with Session.connect(socket_url(args.url, args.token)) as session:
            for message in messages(session, args.frames, args.seconds):
                if isinstance(message, Frame) or (args.events and isinstance(message, Event)):
                    data = message.data if isinstance(message, Frame) else {
                        "type": "event", "tick": message.tick, "name": message.name,
                        **message.fields}
                    target.write(json.dumps(data, separators=(",", ":")) + "\n")
                    written += 1
    finally:
        if target is not out:
            target.close()
    print(f"recorded {written} messages", file=sys.stderr)


def main(argv: list[str] | None = None, out: IO[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m playfield_client",
                                     description=(__doc__ or "").splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name, summary in (("watch", "print ticks and events"),
                          ("record", "write frames as JSON lines")):
        command = commands.add_parser(name, help=summary, description=summary)
        command.add_argument("url", help="the session's page, API or channel address")
        command.add_argument("--token", help="the control token (join as controller)")
        command.add_argument("--frames", type=int, help="stop after this many frames")
        command.add_argument("--seconds", type=float, help="stop after this many seconds")
        if name == "watch":
            command.add_argument("--every", type=int, default=1,
                                 help="print every Nth frame (default 1)")
        else:
            command.add_argument("--out", default="-",
                                 help="the JSON lines file (default: standard output)")
            command.add_argument("--events", action="store_true", help="write events too")
    args = parser.parse_args(argv)
    if args.frames is not None and args.frames < 1:
        parser.error("--frames must be 1 or more")
    if args.seconds is not None and args.seconds <= 0:
        parser.error("--seconds must be more than 0")
    if getattr(args, "every", 1) < 1:
        parser.error("--every must be 1 or more")
    try:
        (watch if args.command == "watch" else record)(args, out or sys.stdout)
    except ValueError as error:
        parser.error(str(error))
    except PlayfieldError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
