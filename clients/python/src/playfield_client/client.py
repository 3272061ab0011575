"""The HTTP API (docs/protocol.md section 1, plus high scores, mazes and tiles).

`Client` does blocking requests with the standard library; `AsyncClient` runs the same methods
in a worker thread, so both have one implementation.
"""
import asyncio
import functools
import inspect
import json
import urllib.error
import urllib.parse
import urllib.request

from .errors import HTTPError, PlayfieldError
from .messages import HighScore, SavedMaze, SessionInfo
from .session import AsyncSession, Session
from . import tiles


class Client:
    """A Playfield server at `base_url` (e.g. `http://127.0.0.1:8080`)."""

    def __init__(self, base_url, timeout=10.0):
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError(f"base_url must be http://HOST[:PORT] or https://..., not {base_url!r}")
        self.base_url = f"{parsed.scheme}://{parsed.netloc}"
        self.timeout = timeout

    def __repr__(self):
        return f"Client({self.base_url!r})"

    # Requests

    def _request(self, method, path, body=None, token=None, raw=False, data=None,
                 content_type=None):
        """Sends one request (`body` as JSON, or `data` bytes of `content_type`); returns the
        parsed JSON (or bytes when `raw`), raising `HTTPError` with the server's message for
        any status of 400 or more."""
        headers = {"Accept": "application/json"}
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        elif data is not None:
            headers["Content-Type"] = content_type
        if token is not None:
            headers["Authorization"] = "Bearer " + token
        request = urllib.request.Request(
            self.base_url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                payload = response.read()
        except urllib.error.HTTPError as error:
            payload = error.read()
            try:
                problem = json.loads(payload)
                message, field = problem.get("error", ""), problem.get("field")
            except ValueError:
                message, field = payload.decode(errors="replace").strip() or error.reason, None
            raise HTTPError(error.code, message, field, method, path) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise PlayfieldError(f"cannot reach {self.base_url}: {reason}") from None
        if raw:
            return payload
        return json.loads(payload) if payload else None

    @staticmethod
    def _quote(segment):
        if not isinstance(segment, str) or not segment:
            raise ValueError(f"expected a non-empty string, not {segment!r}")
        return urllib.parse.quote(segment, safe="")

    # Demos

    def demos(self):
        """Every demo the server serves, in gallery order (`GET /api/demos`): dicts with `name`,
        `title`, `summary`, `seed`, `group`, `session` (a live simulation, or a page), `page`
        and `embed`."""
        return self._request("GET", "/api/demos")["demos"]

    def kinds(self):
        """The kinds `create_session` takes: the names of the server's session demos."""
        return [demo["name"] for demo in self.demos() if demo["session"]]

    # Sessions

    def sessions(self):
        """Every live session (`GET /api/sessions`)."""
        body = self._request("GET", "/api/sessions")
        return [SessionInfo.from_json(item) for item in body["sessions"]]

    def create_session(self, kind, config=None, seed=None, clock=None):
        """A new session of `kind` with `config` (missing fields take their defaults) and an
        optional `seed` (an integer from 0 to 2**53 - 1); the result carries the control
        `token`, which cannot be shown again. `clock="on-demand"` makes a session that the
        game loop never steps: each `step` runs as soon as it arrives (default "realtime")."""
        body = {"kind": kind, "config": config or {}}
        if seed is not None:
            body["seed"] = seed
        if clock is not None:
            body["clock"] = clock
        return SessionInfo.from_json(self._request("POST", "/api/sessions", body))

    def session(self, session_id):
        """One session (`GET /api/sessions/ID`)."""
        return SessionInfo.from_json(
            self._request("GET", "/api/sessions/" + self._quote(session_id)))

    def delete_session(self, session_id, token=None):
        """Ends a session for good; its clients are closed with 1001."""
        if isinstance(session_id, SessionInfo):
            session_id, token = session_id.id, token or session_id.token
        self._request("DELETE", "/api/sessions/" + self._quote(session_id), token=token)

    def state(self, session_id):
        """`{"tick", "stateHash", "running"}`: the exact state, read on the game loop."""
        return self._request("GET", f"/api/sessions/{self._quote(session_id)}/state")

    def replay_state(self, session_id, tick):
        """The state hash at `tick` of the session replayed from its first tick."""
        return self._request(
            "GET", f"/api/sessions/{self._quote(session_id)}/replay?tick={int(tick)}")

    def inputs(self, session_id, after=0, token=None):
        """The logged inputs after tick `after`: `{"inputs": [{"tick", "input"}], "more"}`.
        The log names who sent what, so it needs the control token (given, or the one a
        `SessionInfo` carries)."""
        if isinstance(session_id, SessionInfo):
            session_id, token = session_id.id, token or session_id.token
        return self._request(
            "GET", f"/api/sessions/{self._quote(session_id)}/inputs?after={int(after)}",
            token=token)

    # High scores and mazes

    def high_scores(self):
        """The Holes table, best first."""
        body = self._request("GET", "/api/highscores")
        return [HighScore(rank=row["rank"], name=row["name"], score=row["score"],
                          level=row["level"], date=row["date"]) for row in body["scores"]]

    def enter_high_score(self, session_id, token, name):
        """Enters a finished Holes game of the session you control; returns the rank (None
        when it did not make the table)."""
        body = self._request(
            "POST", "/api/highscores", {"session": session_id, "token": token, "name": name})
        return body.get("rank")

    def mazes(self):
        """The saved mazes' names and times (cells not included)."""
        body = self._request("GET", "/api/mazes")
        return [SavedMaze(name=m["name"], updated_at=m["updatedAt"]) for m in body["mazes"]]

    def maze(self, name):
        """A saved maze, with its cells."""
        return self._saved(self._request("GET", "/api/mazes/" + self._quote(name)))

    def save_maze(self, name, cells, token=None):
        """Saves a maze: row strings of `#` and `.`. A new name answers with the owner `token`
        (in the returned `SavedMaze`); replacing a maze needs that token."""
        return self._saved(self._request(
            "PUT", "/api/mazes/" + self._quote(name), {"cells": cells}, token=token))

    def delete_maze(self, name, token):
        """Deletes a maze; `token` is the one its first save returned (or that `SavedMaze`)."""
        if isinstance(token, SavedMaze):
            token = token.token
        self._request("DELETE", "/api/mazes/" + self._quote(name), token=token)

    @staticmethod
    def _saved(body):
        return SavedMaze(name=body["name"], updated_at=body["updatedAt"], cells=body["cells"],
                         created_at=body.get("createdAt"), token=body.get("token"))

    # Recipes (docs/protocol.md section 7b). With no `token`, the book is this client's own.

    def import_recipe(self, page, url=None, save=False, tags=(), token=None):
        """Reads the recipe of `page`: HTML (str or bytes), or JSON-LD (a dict, or text that
        starts with `{` or `[`). Returns the schema.org Recipe as a dict; with `save`, stores it
        and the dict also has `id`, `tags` and, when this made the book, `book` (its `id` and
        owner `token`)."""
        if isinstance(page, (dict, list)):
            data, kind = json.dumps(page).encode(), "application/ld+json"
        else:
            data = page.encode() if isinstance(page, str) else bytes(page)
            kind = "application/ld+json" if data.lstrip()[:1] in (b"{", b"[") else "text/html"
        query = [("url", url)] if url else []
        query += [("save", "1")] if save else []
        query += [("tag", tag) for tag in tags]
        path = "/api/recipes/import" + ("?" + urllib.parse.urlencode(query) if query else "")
        return self._request("POST", path, token=token, data=data, content_type=kind)

    def recipes(self, q=None, tag=None, sort=None, token=None):
        """The book's recipes (`id`, `name`, `tags`...), matching the words `q` and `tag`,
        ordered by `sort` ("name", "newest" or "oldest")."""
        query = {k: v for k, v in (("q", q), ("tag", tag), ("sort", sort)) if v}
        path = "/api/recipes" + ("?" + urllib.parse.urlencode(query) if query else "")
        return self._request("GET", path, token=token)["recipes"]

    def recipe(self, recipe_id, token=None):
        """One recipe of the book: the schema.org Recipe with its `id` and `tags`."""
        return self._request("GET", f"/api/recipes/{int(recipe_id)}", token=token)

    def export_recipes(self, token=None):
        """The whole book, as `import_recipes` takes it back."""
        return self._request("GET", "/api/recipes/export", token=token)

    def import_recipes(self, export, token=None):
        """Stores every recipe of a book export; returns `{"imported", "ids"}` (and `book`
        when this made the book)."""
        return self._request("POST", "/api/recipes/import?save=1", token=token,
                             data=json.dumps(export).encode(), content_type="application/json")

    # Tiles

    def tile(self, zoom, x, y, iterations=None, palette=None, array=None):
        """The Mandelbrot tile `zoom/x/y` as PNG bytes, or as a NumPy array of shape
        (height, width, 3) of uint8 RGB when `array` is true (default: when NumPy is
        installed)."""
        query = {}
        if iterations is not None:
            query["iter"] = iterations
        if palette is not None:
            query["palette"] = palette
        path = f"/tiles/mandelbrot/{int(zoom)}/{int(x)}/{int(y)}.png"
        if query:
            path += "?" + urllib.parse.urlencode(query)
        png = self._request("GET", path, raw=True)
        if array is None:
            array = tiles.numpy_available()
        return tiles.decode_png(png) if array else png

    # WebSockets

    def street_soccer(self, home="human", away="novice", turns_per_side=15, seed=None, **config):
        """A new street soccer match, stopped and controlled (see `street_soccer.py`): who plays
        each side (`"human"`, `"novice"`, `"defensive"`, `"strong"`), its length and seed, and
        other config fields (`columns`, `rows`, `dice`, `homeKit`, `awayKit`)."""
        from .street_soccer import StreetSoccerMatch

        return StreetSoccerMatch.create(self, home=home, away=away, turns_per_side=turns_per_side,
                                        seed=seed, **config)

    def socket_url(self, session_id, token=None):
        """`ws://HOST/ws/sessions/ID[?token=T]`."""
        scheme = "wss" if self.base_url.startswith("https") else "ws"
        url = f"{scheme}://{self.base_url.split('://', 1)[1]}/ws/sessions/{self._quote(session_id)}"
        return url + ("?token=" + urllib.parse.quote(token, safe="") if token else "")

    def connect(self, session, token=None, **options):
        """Joins a session (a `SessionInfo` or an id) as controller when a token is given (or
        the `SessionInfo` carries one), else as spectator; returns a connected `Session`."""
        if isinstance(session, SessionInfo):
            session, token = session.id, token or session.token
        return Session.connect(self.socket_url(session, token), **options)


class AsyncClient:
    """The `Client` API for asyncio: every method is a coroutine; `connect` gives an
    `AsyncSession`."""

    def __init__(self, base_url, timeout=10.0):
        self._client = Client(base_url, timeout)
        self.base_url = self._client.base_url

    def __repr__(self):
        return f"AsyncClient({self.base_url!r})"

    def socket_url(self, session_id, token=None):
        """`ws://HOST/ws/sessions/ID[?token=T]`."""
        return self._client.socket_url(session_id, token)

    async def connect(self, session, token=None, **options):
        """Joins a session; returns a connected `AsyncSession`."""
        if isinstance(session, SessionInfo):
            session, token = session.id, token or session.token
        return await AsyncSession.connect(self._client.socket_url(session, token), **options)


def _in_thread(method):
    """`method` of `Client` as a coroutine of `AsyncClient`, run in a worker thread."""

    @functools.wraps(method)
    async def call(self, *args, **kwargs):
        return await asyncio.to_thread(method, self._client, *args, **kwargs)

    return call


for _name, _method in inspect.getmembers(Client, inspect.isfunction):
    if not _name.startswith("_") and _name not in ("connect", "socket_url", "street_soccer"):
        setattr(AsyncClient, _name, _in_thread(_method))
