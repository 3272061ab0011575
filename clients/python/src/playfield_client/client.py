"""The HTTP API (docs/protocol.md section 1, plus high scores, mazes and tiles).

`Client` does blocking requests with the standard library; `AsyncClient` runs the same methods
in a worker thread, so both have one implementation.
"""
import asyncio
import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import TYPE_CHECKING, Any

from .errors import HTTPError, PlayfieldError
from .messages import HighScore, JSONObject, SavedMaze, SessionInfo
from .session import AsyncSession, Session
from . import tiles

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from .compare import AsyncCompare, Compare
    from .street_soccer import StreetSoccerMatch


class Client:
    """A Playfield server at `base_url` (e.g. `http://127.0.0.1:8080`)."""

    def __init__(self, base_url: str, timeout: float = 10.0) -> None:
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError(f"base_url must be http://HOST[:PORT] or https://..., not {base_url!r}")
        self.base_url = f"{parsed.scheme}://{parsed.netloc}"
        self.timeout = timeout

    def __repr__(self) -> str:
        return f"Client({self.base_url!r})"

    # Requests

    def _request(self, method: str, path: str, body: Any = None, token: str | None = None,
                 raw: bool = False, data: bytes | None = None,
                 content_type: str | None = None) -> Any:
        """Sends one request (`body` as JSON, or `data` bytes of `content_type`); returns the
        parsed JSON (or bytes when `raw`), raising `HTTPError` with the server's message for
        any status of 400 or more."""
        headers: dict[str, str] = {"Accept": "application/json"}
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        elif data is not None:
            headers["Content-Type"] = content_type or "application/octet-stream"
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
            wait = error.headers.get("Retry-After", "")
            retry_after = float(wait) if wait.isdigit() else None
            raise HTTPError(error.code, message, field, method, path, retry_after) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise PlayfieldError(f"cannot reach {self.base_url}: {reason}") from None
        if raw:
            return payload
        return json.loads(payload) if payload else None

    @staticmethod
    def _quote(segment: str) -> str:
        if not isinstance(segment, str) or not segment:
            raise ValueError(f"expected a non-empty string, not {segment!r}")
        return urllib.parse.quote(segment, safe="")

    # Demos

    def demos(self) -> list[JSONObject]:
        """Every demo the server serves, in gallery order (`GET /api/demos`): dicts with `name`,
        `title`, `summary`, `seed`, `group`, `session` (a live simulation, or a page), `page`
        and `embed`."""
        demos: list[JSONObject] = self._request("GET", "/api/demos")["demos"]
        return demos

    def kinds(self) -> list[str]:
        """The kinds `create_session` takes: the names of the server's session demos."""
        return [demo["name"] for demo in self.demos() if demo["session"]]

    # Sessions

    def sessions(self) -> list[SessionInfo]:
        """Every live session (`GET /api/sessions`)."""
        body = self._request("GET", "/api/sessions")
        return [SessionInfo.from_json(item) for item in body["sessions"]]

    def create_session(self, kind: str, config: JSONObject | None = None, seed: int | None = None,
                       clock: str | None = None) -> SessionInfo:
        """A new session of `kind` with `config` (missing fields take their defaults) and an
        optional `seed` (an integer from 0 to 2**53 - 1); the result carries the control
        `token`, which cannot be shown again. `clock="on-demand"` makes a session that the
        game loop never steps: each `step` runs as soon as it arrives (default "realtime")."""
        body: JSONObject = {"kind": kind, "config": config or {}}
        if seed is not None:
            body["seed"] = seed
        if clock is not None:
            body["clock"] = clock
        return SessionInfo.from_json(self._request("POST", "/api/sessions", body))

    def session(self, session_id: str) -> SessionInfo:
        """One session (`GET /api/sessions/ID`)."""
        return SessionInfo.from_json(
            self._request("GET", "/api/sessions/" + self._quote(session_id)))

    def delete_session(self, session_id: str | SessionInfo, token: str | None = None) -> None:
        """Ends a session for good; its clients are closed with 1001."""
        if isinstance(session_id, SessionInfo):
            token = token or session_id.token
            session_id = session_id.id
        self._request("DELETE", "/api/sessions/" + self._quote(session_id), token=token)

    def state(self, session_id: str) -> JSONObject:
        """`{"tick", "stateHash", "running"}`: the exact state, read on the game loop."""
        state: JSONObject = self._request("GET", f"/api/sessions/{self._quote(session_id)}/state")
        return state

    def replay_state(self, session_id: str, tick: int) -> JSONObject:
        """The state hash at `tick` of the session replayed from its first tick."""
        state: JSONObject = self._request(
            "GET", f"/api/sessions/{self._quote(session_id)}/replay?tick={int(tick)}")
        return state

    def inputs(self, session_id: str | SessionInfo, after: int = 0,
               token: str | None = None) -> JSONObject:
        """The logged inputs after tick `after`: `{"inputs": [{"tick", "input"}], "more"}`.
        The log names who sent what, so it needs the control token (given, or the one a
        `SessionInfo` carries)."""
        if isinstance(session_id, SessionInfo):
            token = token or session_id.token
            session_id = session_id.id
        page: JSONObject = self._request(
            "GET", f"/api/sessions/{self._quote(session_id)}/inputs?after={int(after)}",
            token=token)
        return page

    # High scores and mazes

    def high_scores(self) -> list[HighScore]:
        """The Holes table, best first."""
        body = self._request("GET", "/api/highscores")
        return [HighScore(rank=row["rank"], name=row["name"], score=row["score"],
                          level=row["level"], date=row["date"], session=row.get("session"))
                for row in body["scores"]]

    def enter_high_score(self, session_id: str, token: str, name: str) -> int | None:
        """Enters a finished Holes game of the session you control; returns the rank (None
        when it did not make the table)."""
        body = self._request(
            "POST", "/api/highscores", {"session": session_id, "token": token, "name": name})
        rank: int | None = body.get("rank")
        return rank

    def mazes(self) -> list[SavedMaze]:
        """The saved mazes' names and times (cells not included)."""
        body = self._request("GET", "/api/mazes")
        return [SavedMaze(name=m["name"], updated_at=m["updatedAt"]) for m in body["mazes"]]

    def maze(self, name: str) -> SavedMaze:
        """A saved maze, with its cells."""
        return self._saved(self._request("GET", "/api/mazes/" + self._quote(name)))

    def save_maze(self, name: str, cells: list[str], token: str | None = None) -> SavedMaze:
        """Saves a maze: row strings of `#` and `.`. A new name answers with the owner `token`
        (in the returned `SavedMaze`); replacing a maze needs that token."""
        return self._saved(self._request(
            "PUT", "/api/mazes/" + self._quote(name), {"cells": cells}, token=token))

    def delete_maze(self, name: str, token: "str | SavedMaze | None") -> None:
        """Deletes a maze; `token` is the one its first save returned (or that `SavedMaze`)."""
        if isinstance(token, SavedMaze):
            token = token.token
        self._request("DELETE", "/api/mazes/" + self._quote(name), token=token)

    @staticmethod
    def _saved(body: JSONObject) -> SavedMaze:
        return SavedMaze(name=body["name"], updated_at=body["updatedAt"], cells=body["cells"],
                         created_at=body.get("createdAt"), token=body.get("token"))

    # Recipes (docs/protocol.md section 7b). With no `token`, the book is this client's own.

    def import_recipe(self, page: "str | bytes | JSONObject | list[Any]", url: str | None = None,
                      save: bool = False, tags: "tuple[str, ...] | list[str]" = (),
                      token: str | None = None) -> JSONObject:
        """Reads the recipe of `page`: HTML (str or bytes), or JSON-LD (a dict, or text that
        starts with `{` or `[`). Returns the schema.org Recipe as a dict; with `save`, stores it
        and the dict also has `id`, `tags` and, when this made the book, `book` (its `id` and
        owner `token`)."""
        data: bytes
        if isinstance(page, (dict, list)):
            data, kind = json.dumps(page).encode(), "application/ld+json"
        else:
            data = page.encode() if isinstance(page, str) else bytes(page)
            kind = "application/ld+json" if data.lstrip()[:1] in (b"{", b"[") else "text/html"
        query: list[tuple[str, str]] = [("url", url)] if url else []
        query += [("save", "1")] if save else []
        query += [("tag", tag) for tag in tags]
        path = "/api/recipes/import" + ("?" + urllib.parse.urlencode(query) if query else "")
        recipe: JSONObject = self._request("POST", path, token=token, data=data, content_type=kind)
        return recipe

    def import_recipe_url(self, url: str, save: bool = False,
                          tags: "tuple[str, ...] | list[str]" = (),
                          token: str | None = None) -> JSONObject:
        """Has the server fetch the page at `url` (public addresses only) and read its recipe;
        returns what `import_recipe` returns."""
        query: list[tuple[str, str]] = [("url", url)]
        query += [("save", "1")] if save else []
        query += [("tag", tag) for tag in tags]
        path = "/api/recipes/import?" + urllib.parse.urlencode(query)
        recipe: JSONObject = self._request("POST", path, token=token)
        return recipe

    def recipes(self, q: str | None = None, tag: str | None = None, sort: str | None = None,
                token: str | None = None) -> list[JSONObject]:
        """The book's recipes (`id`, `name`, `tags`...), matching the words `q` and `tag`,
        ordered by `sort` ("name", "newest" or "oldest"): every page of them."""
        found: list[JSONObject] = []
        while True:
            query = {k: v for k, v in (("q", q), ("tag", tag), ("sort", sort)) if v}
            query.update({"limit": "1000", "offset": str(len(found))})
            page = self._request("GET", "/api/recipes?" + urllib.parse.urlencode(query), token=token)
            found += page["recipes"]
            if not page.get("more") or not page["recipes"]:
                return found

    def recipe(self, recipe_id: int, token: str | None = None) -> JSONObject:
        """One recipe of the book: the schema.org Recipe with its `id` and `tags`."""
        recipe: JSONObject = self._request("GET", f"/api/recipes/{int(recipe_id)}", token=token)
        return recipe

    def export_recipes(self, token: str | None = None) -> JSONObject:
        """The whole book, as `import_recipes` takes it back."""
        export: JSONObject = self._request("GET", "/api/recipes/export", token=token)
        return export

    def import_recipes(self, export: JSONObject, token: str | None = None,
                       part_bytes: int = 1_000_000) -> JSONObject:
        """Stores every recipe of a book export, in order; returns `{"imported", "ids"}` (and
        `book` when this made the book).

        An export larger than one import may send (1 MiB) goes in parts of at most
        `part_bytes`, each a book export of its own, stored in one transaction; a part refused
        for the imports a minute allows is sent again after the wait the server names. If a
        part fails, the recipes the parts before it stored are deleted again, so that the book
        holds what it held before, and the part's error is raised (an `HTTPError` says how the
        deleting went, and names any recipe it could not delete)."""
        result: JSONObject = {"imported": 0, "ids": []}
        first = 0  # the export's index of the part's first recipe
        for part in self._book_parts(export, part_bytes):
            try:
                answer = self._import_part(part, token)
            except PlayfieldError as error:
                left = self._take_back(result["ids"], token)
                if isinstance(error, HTTPError):
                    # The server names a recipe by its place in the part, not in the export.
                    error.message = re.sub(r"^recipes\[(\d+)\]",
                                           lambda m: f"recipes[{first + int(m[1])}]", error.message)
                    if result["ids"]:
                        error.message += (f"; the {len(result['ids'])} recipes stored before it "
                                          + (f"were deleted again but for {left}" if left else
                                             "were deleted again"))
                    error.args = (f"{error.method} {error.path}: {error.status} {error.message}",)
                raise
            first += len(part.get("recipes", [])) if isinstance(part, dict) else 0
            result["imported"] += answer["imported"]
            result["ids"] += answer["ids"]
            if "book" in answer:
                result["book"] = answer["book"]
        return result

    def _take_back(self, ids: "list[int]", token: str | None) -> "list[int]":
        """Deletes the recipes `ids` from the book; returns those it could not delete."""
        left = []
        for recipe_id in ids:
            try:
                self._request("DELETE", f"/api/recipes/{int(recipe_id)}", token=token)
            except HTTPError as error:
                if error.status != 404:
                    left.append(recipe_id)
            except PlayfieldError:
                left.append(recipe_id)
        return left

    @staticmethod
    def _book_parts(export: JSONObject, part_bytes: int) -> "list[JSONObject]":
        """`export` cut into book exports of at most `part_bytes` of JSON each (a recipe larger
        than that alone goes alone); anything but a book export, whole, for the server to
        judge."""
        entries = export.get("recipes") if isinstance(export, dict) else None
        if not isinstance(entries, list) or len(json.dumps(export).encode()) <= part_bytes:
            return [export]
        envelope = {key: value for key, value in export.items() if key != "recipes"}
        empty = len(json.dumps(dict(envelope, recipes=[])).encode())
        parts: list[JSONObject] = []
        current: list[Any] = []
        size = empty
        for entry in entries:
            grows = len(json.dumps(entry).encode()) + 2  # and ", " before the next
            if current and size + grows > part_bytes:
                parts.append(dict(envelope, recipes=current))
                current, size = [], empty
            current.append(entry)
            size += grows
        parts.append(dict(envelope, recipes=current))
        return parts

    def _import_part(self, part: JSONObject, token: str | None, attempts: int = 5) -> JSONObject:
        """One part of a book export stored, waiting out (up to `attempts` times) the imports a
        minute allows."""
        attempt = 1
        while True:
            try:
                answer: JSONObject = self._request(
                    "POST", "/api/recipes/import?save=1", token=token,
                    data=json.dumps(part).encode(), content_type="application/json")
                return answer
            except HTTPError as error:
                if error.status != 429 or error.retry_after is None or attempt == attempts:
                    raise
                attempt += 1
                time.sleep(error.retry_after)

    # Tiles

    def tile(self, zoom: int, x: int, y: int, iterations: int | None = None,
             palette: str | None = None, array: bool | None = None) -> "bytes | NDArray[np.uint8]":
        """The Mandelbrot tile `zoom/x/y` as PNG bytes, or as a NumPy array of shape
        (height, width, 3) of uint8 RGB when `array` is true (default: when NumPy is
        installed)."""
        query: dict[str, str | int] = {}
        if iterations is not None:
            query["iter"] = iterations
        if palette is not None:
            query["palette"] = palette
        path = f"/tiles/mandelbrot/{int(zoom)}/{int(x)}/{int(y)}.png"
        if query:
            path += "?" + urllib.parse.urlencode(query)
        png: bytes = self._request("GET", path, raw=True)
        if array is None:
            array = tiles.numpy_available()
        return tiles.decode_png(png) if array else png

    # WebSockets

    def street_soccer(self, home: str = "human", away: str = "novice", turns_per_side: int = 15,
                      seed: int | None = None, clock: str | None = None,
                      **config: Any) -> "StreetSoccerMatch":
        """A new street soccer match, stopped and controlled (see `street_soccer.py`): who plays
        each side (`"human"`, `"novice"`, `"defensive"`, `"strong"`), its length and seed, and
        other config fields (`columns`, `rows`, `dice`, `homeKit`, `awayKit`). `clock="on-demand"`
        steps the match as soon as asked, off the 60 Hz tick (docs/protocol.md)."""
        from .street_soccer import StreetSoccerMatch

        return StreetSoccerMatch.create(self, home=home, away=away, turns_per_side=turns_per_side,
                                        seed=seed, clock=clock, **config)

    def compare(self, kind: str, *, variants: list[JSONObject], seed: int | None = None,
                config: JSONObject | None = None, ticks: int | None = None,
                readouts: list[str] | None = None,
                ambient: JSONObject | None = None) -> "Compare":
        """A new compare group (docs/protocol.md section 6b): 2 to 4 panes of `kind`, the same
        `seed` and `config`, each with the overrides of one of `variants`, `ticks` long (default
        3,600); connected and paused at tick 0. A variant `{"recording": SESSION_ID}` replays
        a stored session of `kind` (a ghost); any variant may add `"offset": N` ticks.
        `readouts` picks the numbers each frames message carries per pane (default all the
        kind's). `ambient`, a variant without offset, is one more pane that loops on its own
        outside the lockstep (`Compare.play_ambient`). Raises `HTTPError` naming the pane and
        field for bad input (nothing is started then)."""
        from .compare import Compare

        body: JSONObject = {"kind": kind, "variants": variants, "config": config or {}}
        if seed is not None:
            body["seed"] = seed
        if ticks is not None:
            body["ticks"] = ticks
        if readouts is not None:
            body["readouts"] = readouts
        if ambient is not None:
            body["ambient"] = ambient
        created: JSONObject = self._request("POST", "/api/compare", body)
        scheme = "wss" if self.base_url.startswith("https") else "ws"
        host = self.base_url.split("://", 1)[1]
        return Compare(created, f"{scheme}://{host}/ws/compare/{self._quote(created['id'])}",
                       timeout=self.timeout)

    def socket_url(self, session_id: str, token: str | None = None) -> str:
        """`ws://HOST/ws/sessions/ID[?token=T]`."""
        scheme = "wss" if self.base_url.startswith("https") else "ws"
        url = f"{scheme}://{self.base_url.split('://', 1)[1]}/ws/sessions/{self._quote(session_id)}"
        return url + ("?token=" + urllib.parse.quote(token, safe="") if token else "")

    def connect(self, session: str | SessionInfo, token: str | None = None,
                **options: Any) -> Session:
        """Joins a session (a `SessionInfo` or an id) as controller when a token is given (or
        the `SessionInfo` carries one), else as spectator; returns a connected `Session`."""
        if isinstance(session, SessionInfo):
            token = token or session.token
            session = session.id
        return Session.connect(self.socket_url(session, token), **options)


class AsyncClient:
    """The `Client` API for asyncio: every method is a coroutine, run in a worker thread;
    `connect` gives an `AsyncSession`. Each method is `Client`'s of the same name (see there)."""

    def __init__(self, base_url: str, timeout: float = 10.0) -> None:
        self._client = Client(base_url, timeout)
        self.base_url = self._client.base_url

    def __repr__(self) -> str:
        return f"AsyncClient({self.base_url!r})"

    def socket_url(self, session_id: str, token: str | None = None) -> str:
        """`ws://HOST/ws/sessions/ID[?token=T]`."""
        return self._client.socket_url(session_id, token)

    async def connect(self, session: str | SessionInfo, token: str | None = None,
                      **options: Any) -> AsyncSession:
        """Joins a session; returns a connected `AsyncSession`."""
        if isinstance(session, SessionInfo):
            token = token or session.token
            session = session.id
        return await AsyncSession.connect(self._client.socket_url(session, token), **options)

    async def demos(self) -> list[JSONObject]:
        return await asyncio.to_thread(self._client.demos)

    async def kinds(self) -> list[str]:
        return await asyncio.to_thread(self._client.kinds)

    async def sessions(self) -> list[SessionInfo]:
        return await asyncio.to_thread(self._client.sessions)

    async def create_session(self, kind: str, config: JSONObject | None = None,
                             seed: int | None = None, clock: str | None = None) -> SessionInfo:
        return await asyncio.to_thread(self._client.create_session, kind, config, seed, clock)

    async def session(self, session_id: str) -> SessionInfo:
        return await asyncio.to_thread(self._client.session, session_id)

    async def delete_session(self, session_id: str | SessionInfo,
                             token: str | None = None) -> None:
        await asyncio.to_thread(self._client.delete_session, session_id, token)

    async def state(self, session_id: str) -> JSONObject:
        return await asyncio.to_thread(self._client.state, session_id)

    async def replay_state(self, session_id: str, tick: int) -> JSONObject:
        return await asyncio.to_thread(self._client.replay_state, session_id, tick)

    async def inputs(self, session_id: str | SessionInfo, after: int = 0,
                     token: str | None = None) -> JSONObject:
        return await asyncio.to_thread(self._client.inputs, session_id, after, token)

    async def compare(self, kind: str, *, variants: list[JSONObject], seed: int | None = None,
                      config: JSONObject | None = None, ticks: int | None = None,
                      readouts: list[str] | None = None,
                      ambient: JSONObject | None = None) -> "AsyncCompare":
        """`Client.compare` for asyncio: a connected group, paused at tick 0."""
        from .compare import AsyncCompare

        group = await asyncio.to_thread(self._client.compare, kind, variants=variants, seed=seed,
                                        config=config, ticks=ticks, readouts=readouts,
                                        ambient=ambient)
        return AsyncCompare(group)

    async def high_scores(self) -> list[HighScore]:
        return await asyncio.to_thread(self._client.high_scores)

    async def enter_high_score(self, session_id: str, token: str, name: str) -> int | None:
        return await asyncio.to_thread(self._client.enter_high_score, session_id, token, name)

    async def mazes(self) -> list[SavedMaze]:
        return await asyncio.to_thread(self._client.mazes)

    async def maze(self, name: str) -> SavedMaze:
        return await asyncio.to_thread(self._client.maze, name)

    async def save_maze(self, name: str, cells: list[str],
                        token: str | None = None) -> SavedMaze:
        return await asyncio.to_thread(self._client.save_maze, name, cells, token)

    async def delete_maze(self, name: str, token: "str | SavedMaze | None") -> None:
        await asyncio.to_thread(self._client.delete_maze, name, token)

    async def import_recipe(self, page: "str | bytes | JSONObject | list[Any]",
                            url: str | None = None, save: bool = False,
                            tags: "tuple[str, ...] | list[str]" = (),
                            token: str | None = None) -> JSONObject:
        return await asyncio.to_thread(self._client.import_recipe, page, url, save, tags, token)

    async def import_recipe_url(self, url: str, save: bool = False,
                                tags: "tuple[str, ...] | list[str]" = (),
                                token: str | None = None) -> JSONObject:
        return await asyncio.to_thread(self._client.import_recipe_url, url, save, tags, token)

    async def recipes(self, q: str | None = None, tag: str | None = None,
                      sort: str | None = None, token: str | None = None) -> list[JSONObject]:
        return await asyncio.to_thread(self._client.recipes, q, tag, sort, token)

    async def recipe(self, recipe_id: int, token: str | None = None) -> JSONObject:
        return await asyncio.to_thread(self._client.recipe, recipe_id, token)

    async def export_recipes(self, token: str | None = None) -> JSONObject:
        return await asyncio.to_thread(self._client.export_recipes, token)

    async def import_recipes(self, export: JSONObject, token: str | None = None,
                             part_bytes: int = 1_000_000) -> JSONObject:
        return await asyncio.to_thread(self._client.import_recipes, export, token, part_bytes)

    async def tile(self, zoom: int, x: int, y: int, iterations: int | None = None,
                   palette: str | None = None,
                   array: bool | None = None) -> "bytes | NDArray[np.uint8]":
        return await asyncio.to_thread(self._client.tile, zoom, x, y, iterations, palette, array)
