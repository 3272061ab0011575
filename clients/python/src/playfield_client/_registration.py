"""Registers the Gymnasium ids when Gymnasium is installed, without importing numpy or the
environments themselves (`playfield_client.gym` holds them; Gymnasium loads it on first use),
so `gymnasium.make("playfield_client:PlayfieldHoles-v0")` works without another import."""
import importlib.util

IDS = {
    "PlayfieldMaze-v0": ("PlayfieldMazeEnv", "PlayfieldMazeVectorEnv", 1800),
    "PlayfieldHoles-v0": ("PlayfieldHolesEnv", "PlayfieldHolesVectorEnv", 3600),
}


def register() -> None:
    """Registers each id once; does nothing without Gymnasium."""
    if importlib.util.find_spec("gymnasium") is None:
        return
    import gymnasium

    for env_id, (single, vector, steps) in IDS.items():
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(id=env_id, entry_point=f"playfield_client.gym:{single}",
                           vector_entry_point=f"playfield_client.gym:{vector}",
                           max_episode_steps=steps)
