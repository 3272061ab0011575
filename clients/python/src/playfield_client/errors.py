"""The exceptions the client raises: each carries what the server said."""


class PlayfieldError(Exception):
    """Anything that went wrong talking to a Playfield server."""


class HTTPError(PlayfieldError):
    """The HTTP API refused a request: `status`, the server's `message`, the `field` to
    blame when it named one (e.g. `config.balls`), and the seconds its `Retry-After` asked to
    wait (`retry_after`, None without one)."""

    def __init__(self, status: int, message: str, field: str | None = None, method: str = "GET",
                 path: str = "", retry_after: float | None = None) -> None:
        self.status = status
        self.message = message
        self.field = field
        self.method = method
        self.path = path
        self.retry_after = retry_after
        where = f" (field {field})" if field else ""
        super().__init__(f"{method} {path}: {status} {message}{where}")


class ServerError(PlayfieldError):
    """The server answered a WebSocket message with `error`: `code` (such as `bad-field` or
    `not-controller`), the server's `message`, and the `field` it named, if any."""

    def __init__(self, code: str, message: str, field: str | None = None,
                 id: str | int | None = None, retry_after_ms: int | None = None) -> None:
        self.code = code
        self.message = message
        self.field = field
        # The refused request's own id, when it carried one.
        self.id = id
        # For a refusal that may pass (`busy`, `held-elsewhere`): when to try again, in ms.
        self.retry_after_ms = retry_after_ms
        super().__init__(f"{code}: {message}")


class NotController(ServerError):
    """A spectator sent something only the controller may send (the server's `not-controller`)."""


class SessionEnded(PlayfieldError):
    """The session is gone for good: deleted or expired (close 1001 with that reason), or it no
    longer exists on the server."""


class Disconnected(PlayfieldError):
    """The connection closed (or could not be opened) and was not, or could not be, reopened."""


class NotStored(PlayfieldError):
    """The server cannot store this connection's inputs now (its `unstored` notice): the first
    `stored` of them are durably stored; those after may be lost if the failure lasts (another
    process may adopt the session). `reason` says why, in the server's words."""

    def __init__(self, reason: str, stored: int) -> None:
        self.reason = reason
        self.stored = stored
        super().__init__(f"inputs after the first {stored} are not stored now: {reason}")
