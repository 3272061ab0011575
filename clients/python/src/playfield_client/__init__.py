"""Drive Playfield simulations from Python.

    from playfield_client import Client
    client = Client("http://127.0.0.1:8080")
    info = client.create_session("maze", seed=7)
    with client.connect(info) as session:
        session.stop()
        session.tilt(0.5, 0)
        frame = session.step(10)
        print(frame.tick, frame.ball)

`AsyncClient` and `AsyncSession` are the same API for asyncio. Gymnasium environments are in
`playfield_client.gym` (install the `[gym]` extra).
"""
from . import _registration
from .client import AsyncClient, Client
from .compare import AsyncCompare, Compare
from .errors import (Disconnected, HTTPError, NotController, NotStored, PlayfieldError,
                     ServerError, SessionEnded)
from .messages import (BallsFrame, Budget, Event, Frame, Hello, HighScore, HolesFrame, MazeFrame,
                       PaintbrushFrame, Pong, SavedMaze, SessionInfo, Status, TagCloudFrame)
from .session import AsyncSession, Session

_registration.register()

__all__ = [
    "AsyncClient", "AsyncCompare", "AsyncSession", "BallsFrame", "Budget", "Client", "Compare", "Disconnected",
    "Event",
    "Frame", "HTTPError", "Hello", "HighScore", "HolesFrame", "MazeFrame", "NotController",
    "NotStored",
    "PaintbrushFrame", "PlayfieldError", "Pong", "SavedMaze", "ServerError", "Session", "SessionEnded",
    "SessionInfo", "Status", "TagCloudFrame",
]
