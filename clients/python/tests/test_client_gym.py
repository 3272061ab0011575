"""The Gymnasium environments: the checker, exact reproducibility, rewards, bad arguments, and
vector environments in worker processes (forked and spawned) and in one process."""
import functools
import os
import pathlib
import subprocess
import sys
import threading
import time
import warnings

import gymnasium
import numpy as np
import pytest
from deadline import Deadline
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

import playfield_client
import playfield_client.gym  # noqa: F401  (registers the ids)
import playfield_client.session
from playfield_client import Client, HTTPError
from playfield_client.gym import PlayfieldHolesEnv, PlayfieldMazeEnv

IDS = ["PlayfieldMaze-v0", "PlayfieldHoles-v0"]


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_passes_without_warnings(server, env_id):
    env = gymnasium.make(env_id, base_url=server.url)
    try:
        # The checker warns, rather than fails, about doubtful spaces and returns.
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env.unwrapped)
        assert [str(w.message) for w in caught if "gymnasium" in w.filename] == []
    finally:
        env.close()


def _run(url, env_id, seed, steps, out, key):
    env = gymnasium.make(env_id, base_url=url)
    try:
        observation, _ = env.reset(seed=seed)
        env.action_space.seed(seed)
        observations, rewards, ends = [observation], [], 0
        for _ in range(steps):
            observation, reward, terminated, truncated, _ = env.step(env.action_space.sample())
            observations.append(observation)
            rewards.append(reward)
            if terminated or truncated:
                ends += 1
                observation, _ = env.reset()
                observations.append(observation)
        out[key] = (np.array(observations), rewards, ends)
    finally:
        env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_the_same_seed_and_actions_give_the_same_observations(server, env_id):
    # Two runs of 1,000 random actions at once (each waits on the game loop's ticks), then a
    # third with another seed, which must differ, so the comparison can fail.
    results = {}
    runs = [threading.Thread(target=_run, args=(server.url, env_id, 2024, 1000, results, key))
            for key in ("first", "second")]
    runs.append(threading.Thread(target=_run, args=(server.url, env_id, 7, 200, results, "other")))
    for run in runs:
        run.start()
    deadline = Deadline(600, "three runs of the environment")
    for run in runs:
        run.join(deadline.left())
        assert not run.is_alive(), "a run did not finish"
    assert set(results) == {"first", "second", "other"}, "a run failed: see its traceback"
    first, second = results["first"], results["second"]
    assert first[0].shape[0] >= 1001
    assert np.array_equal(first[0], second[0])
    assert first[1] == second[1] and first[2] == second[2]
    other = results["other"][0]
    assert not np.array_equal(first[0][:201], other[:201])
    # The ball moved: the run exercised the physics, not a frozen state.
    assert np.ptp(first[0][:, 0]) > 10


def test_holes_rewards_a_score_and_penalises_a_lost_ball(server):
    up_left = np.array([-1, 1], np.float32)
    # One hole across the diagonal from the start: tilting up-left loses every ball.
    env = PlayfieldHolesEnv(server.url, config={"holes": [[0.85, 0.85]]}, lost_penalty=2.5)
    try:
        env.reset(seed=1)
        rewards, terminated = [], False
        while not terminated and len(rewards) < 1000:
            observation, reward, terminated, truncated, info = env.step(up_left)
            rewards.append(reward)
        assert terminated and info["phase"] == "over" and info["ballsLeft"] == 0
        assert sorted(set(rewards)) == [-2.5, 0.0] and rewards.count(-2.5) == 3
        assert observation[4] == 0, "no ball on the table after the game"
    finally:
        env.close()
    # The hole in the middle pulls the ball aside, and it rolls on to the flag.
    env = PlayfieldHolesEnv(server.url, config={"holes": [[0.5, 0.5]]})
    try:
        env.reset(seed=1)
        rewards = []
        while 1.0 not in rewards and len(rewards) < 1000:
            _, reward, terminated, _, info = env.step(up_left)
            rewards.append(reward)
        assert sum(rewards) == 1.0 and info["score"] == 1 and not terminated
    finally:
        env.close()


def test_maze_rewards_add_up_to_the_progress(server):
    env = PlayfieldMazeEnv(server.url, layout="config", goal=(0, 0), max_tilt=2)
    try:
        observation, info = env.reset(seed=3)
        assert info["distance"] == 12  # from a start cell beside the centre of 12 x 12, to (0, 0)
        assert observation[4:6].tolist() == [15, 15]
        total, terminated = 0.0, False
        for _ in range(600):
            _, reward, terminated, _, info = env.step(np.array([-1, 1], np.float32))
            total += reward
            if terminated:
                break
        assert terminated and info["distance"] == 0 and total == 12
    finally:
        env.close()


def test_random_mazes_follow_the_seed_and_leave_a_path(server):
    env = PlayfieldMazeEnv(server.url, density=0.4)
    try:
        first = env.reset(seed=5)[1]["cells"]
        second = env.reset(seed=5)[1]["cells"]
        third = env.reset(seed=6)[1]["cells"]
        assert first == second and first != third
        assert "#" in "".join(first)
        assert env.reset(seed=5)[1]["distance"] < 144
        observation = env.reset(seed=5)[0]
        walls = observation[6:].reshape(12, 12)
        assert ["".join("#" if w else "." for w in row) for row in walls] == first
    finally:
        env.close()


def test_sessions_are_replaced_on_seeded_resets_and_deleted_on_close(server):
    client = Client(server.url)
    env = PlayfieldHolesEnv(server.url)
    env.reset(seed=1)
    first = env.info.id
    env.reset()
    assert env.info.id == first
    env.reset(seed=2)
    assert env.info.id != first
    with pytest.raises(HTTPError):
        client.session(first)
    second = env.info.id
    env.close()
    with pytest.raises(HTTPError):
        client.session(second)


def test_bad_arguments_and_actions_are_refused(server):
    with pytest.raises(ValueError, match="max_tilt"):
        PlayfieldHolesEnv(server.url, max_tilt=3)
    with pytest.raises(ValueError, match="frame_skip"):
        PlayfieldHolesEnv(server.url, frame_skip=0)
    with pytest.raises(ValueError, match="layout"):
        PlayfieldMazeEnv(server.url, layout="spiral")
    with pytest.raises(ValueError, match="goal"):
        PlayfieldMazeEnv(server.url, goal=(12, 0))
    with pytest.raises(HTTPError) as bad:
        PlayfieldHolesEnv(server.url, config={"balls": 0})
    assert bad.value.field == "config.balls"
    env = PlayfieldHolesEnv(server.url, max_tilt=0.5)
    try:
        env.reset(seed=1)
        with pytest.raises(ValueError, match="outside"):
            env.step(np.array([0.6, 0], np.float32))
    finally:
        env.close()


def test_frame_skip_advances_that_many_ticks(server):
    env = PlayfieldHolesEnv(server.url, frame_skip=4)
    try:
        env.reset(seed=1)
        start = env.frame.tick
        env.step(np.array([-1, 1], np.float32))
        assert env.frame.tick == start + 4
    finally:
        env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_on_demand_and_realtime_sessions_give_the_same_observations(server, env_id):
    # The same seed and actions on both clocks: the on-demand run (the default) steps off the
    # game loop's tick, the realtime one on it; a third run with another seed (and other
    # actions: holes has no randomness of its own) must differ.
    runs = {}
    for key, realtime, seed in (("on-demand", False, 5), ("realtime", True, 5), ("other", False, 6)):
        env = gymnasium.make(env_id, base_url=server.url, realtime=realtime)
        try:
            observations = [env.reset(seed=seed)[0]]
            env.action_space.seed(seed)
            for _ in range(150):
                observation, _, terminated, truncated, _ = env.step(env.action_space.sample())
                observations.append(observation)
                if terminated or truncated:
                    observations.append(env.reset()[0])
            clock = env.unwrapped.client.session(env.unwrapped.info.id).data["clock"]
            runs[key] = (np.array(observations), clock)
        finally:
            env.close()
    assert runs["on-demand"][1] == "on-demand" and runs["realtime"][1] == "realtime"
    assert np.array_equal(runs["on-demand"][0], runs["realtime"][0])
    assert not np.array_equal(runs["on-demand"][0][:20], runs["other"][0][:20])


def test_the_game_loop_never_steps_an_on_demand_session(server):
    env = PlayfieldHolesEnv(server.url)
    try:
        env.reset(seed=3)
        tick = env.frame.tick
        client, info = env.unwrapped.client, env.unwrapped.info
        # Half a second of game-loop ticks (each read is bounded by the client's timeout): the
        # session stays where its last step left it.
        end = time.monotonic() + 0.5
        while time.monotonic() < end:
            assert client.state(info.id)["tick"] == tick
        env.step(np.array([0, 0], np.float32))
        assert client.state(info.id)["tick"] == tick + 1
    finally:
        env.close()


def _vector_run(envs, steps=20):
    """Observations of a reset with seeds 1 and 2 and `steps` steps of two tilts up and left;
    every wait bounded (an AsyncVectorEnv whose workers hang would otherwise wait for ever)."""
    actions = np.array([[-1, 0.5], [-0.5, 1]], np.float32)
    if isinstance(envs, gymnasium.vector.AsyncVectorEnv):
        envs.reset_async(seed=[1, 2])
        observations = [envs.reset_wait(timeout=120)[0]]
        for _ in range(steps):
            envs.step_async(actions)
            observations.append(envs.step_wait(timeout=60)[0])
    else:
        observations = [envs.reset(seed=[1, 2])[0]]
        observations += [envs.step(actions)[0] for _ in range(steps)]
    return np.array(observations)


@pytest.fixture(scope="module")
def sync_observations(server):
    envs = gymnasium.vector.SyncVectorEnv([functools.partial(PlayfieldHolesEnv, server.url)] * 2)
    try:
        return _vector_run(envs)
    finally:
        envs.close()


def test_sync_vector_env_steps_each_env_on_its_own(sync_observations):
    assert sync_observations.shape[:2] == (21, 2)
    first, second = sync_observations[:, 0], sync_observations[:, 1]
    assert not np.array_equal(first, second), "different tilts, different balls"
    assert np.ptp(first[:, 0]) > 1 and np.ptp(second[:, 0]) > 1


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_async_vector_env_works_with_either_start_method(server, sync_observations, context):
    # NB: the vector env first makes an env in this process (for its spaces), which starts the
    # client's event loop; forked workers inherit that loop without its thread.
    envs = gymnasium.vector.AsyncVectorEnv(
        [functools.partial(PlayfieldHolesEnv, server.url)] * 2, context=context)
    try:
        assert playfield_client.session._Loop._loop is not None, "the parent's loop runs"
        observations = _vector_run(envs)
    finally:
        envs.close(terminate=True)
    assert np.array_equal(observations, sync_observations)


def test_a_forked_child_refuses_the_parents_session_and_opens_its_own(server):
    import multiprocessing
    client = Client(server.url)
    info = client.create_session("maze", seed=1)
    session = client.connect(info)
    context = multiprocessing.get_context("fork")
    results = context.Queue()

    def child():
        try:
            session.stop()
            results.put("the parent's session worked in the child")
        except Exception as error:  # noqa: BLE001 (the message is the result)
            results.put(str(error))
        session.close()
        with Client(server.url).connect(info) as own:
            results.put(own.role)

    worker = context.Process(target=child)
    worker.start()
    try:
        assert "opened in another process" in results.get(timeout=60)
        assert results.get(timeout=60) == "controller"
    finally:
        worker.join(30)
        worker.kill()
        session.close()
        client.delete_session(info)
    assert worker.exitcode == 0


def _native_equals_sync(server, env_id, options, autoreset_mode, seeds, actions):
    """Runs the native vector env and `SyncVectorEnv` over the same ids (episodes truncated
    after 12 steps), asserts that every observation, reward, termination, truncation and (same
    step) final observation is equal, and returns the native run's record."""
    runs = {}
    for mode in ("vector_entry_point", "sync"):
        extra = {}
        if autoreset_mode is not None:
            extra = ({"autoreset_mode": autoreset_mode} if mode == "vector_entry_point"
                     else {"vector_kwargs": {"autoreset_mode": autoreset_mode}})
        envs = gymnasium.make_vec(env_id, num_envs=len(seeds), vectorization_mode=mode,
                                  base_url=server.url, max_episode_steps=12, **options, **extra)
        try:
            if mode == "vector_entry_point":
                assert isinstance(envs.unwrapped, playfield_client.gym.PlayfieldVectorEnv)
            same_step = envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
            assert same_step == (autoreset_mode == AutoresetMode.SAME_STEP)
            observation, _ = envs.reset(seed=seeds)
            record = [observation]
            for action in actions:
                observation, reward, terminated, truncated, infos = envs.step(action)
                ended = terminated | truncated
                finals = []
                if same_step:
                    assert ended.any() == ("final_obs" in infos)
                    finals = [infos["final_obs"][i] for i in np.flatnonzero(ended)]
                    if ended.any():
                        assert list(infos["_final_obs"]) == list(ended)
                        assert list(infos["final_info"]["_steps"]) == list(ended)
                record += [observation, reward, terminated, truncated, *finals]
            runs[mode] = record
        finally:
            envs.close()
    native, sync = runs["vector_entry_point"], runs["sync"]
    assert len(native) == len(sync)
    for a, b in zip(native, sync):
        assert np.array_equal(a, b)
    return native


@pytest.mark.parametrize("env_id", IDS)
def test_the_native_vector_env_equals_sync_vector_env_with_autoreset(server, env_id):
    # Short episodes (truncated after 12 steps) so that both autoreset within 30 steps; the
    # native vector env steps its sessions together, SyncVectorEnv one after another.
    actions = np.random.default_rng(4).uniform(-1, 1, (30, 3, 2)).astype(np.float32)
    native = _native_equals_sync(server, env_id, {}, None, [11, 12, 13], actions)
    truncations = np.array(native[4::4])
    assert truncations[11].all() and not truncations[12].any(), "episodes end at step 12"


@pytest.mark.parametrize("env_id, options", [
    ("PlayfieldMaze-v0", {"goal": (5, 6)}),     # next to the start: some episodes end early
    ("PlayfieldHoles-v0", {}),
])
def test_same_step_autoreset_equals_sync_vector_env(server, env_id, options):
    """`autoreset_mode=SAME_STEP` (what Stable-Baselines3 expects): the step that ends an
    episode returns the next episode's first observation and the last one in `final_obs`, as
    `SyncVectorEnv` in that mode, bit for bit, when some environments end and others go on."""
    actions = np.random.default_rng(5).uniform(-1, 1, (40, 3, 2)).astype(np.float32)
    native = _native_equals_sync(server, env_id, options, AutoresetMode.SAME_STEP, [21, 22, 23],
                                 actions)
    if env_id == "PlayfieldMaze-v0":
        ends = [r for r in native[1:] if r.dtype == np.bool_ and r.shape == (3,)]
        assert any(0 < e.sum() < 3 for e in ends), "some episodes ended while others went on"


def test_the_vector_env_refuses_bad_actions_and_sizes(server):
    with pytest.raises(ValueError):
        playfield_client.gym.PlayfieldHolesVectorEnv(num_envs=0, base_url=server.url)
    envs = playfield_client.gym.PlayfieldHolesVectorEnv(num_envs=2, base_url=server.url)
    try:
        envs.reset(seed=1)
        with pytest.raises(ValueError):
            envs.step(np.zeros((3, 2), np.float32))
        with pytest.raises(ValueError):
            envs.step(np.array([[0, 0], [5, 0]], np.float32))
        with pytest.raises(ValueError):
            envs.step(np.array([[0, 0], [np.nan, 0]], np.float32))
        assert envs.step(np.zeros((2, 2), np.float32))[0].shape == envs.observation_space.shape
    finally:
        envs.close()


def _python(code, **env):
    """Runs `code` in a fresh interpreter with this checkout's client; returns its output."""
    source = str(pathlib.Path(playfield_client.__file__).resolve().parents[1])
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": source, **env})
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_package_imports_without_gymnasium():
    code = ("import sys; sys.modules['gymnasium'] = None; sys.modules['numpy'] = None\n"
            "import playfield_client; print(playfield_client.Client.__name__)")
    assert _python(code).strip() == "Client"


def test_make_with_the_module_prefix_needs_no_other_import(server):
    code = ("import gymnasium, numpy as np\n"
            "env = gymnasium.make('playfield_client:PlayfieldHoles-v0', base_url=%r)\n"
            "env.reset(seed=1)\n"
            "print(env.step(np.zeros(2, np.float32))[0].shape)\n"
            "env.close()" % server.url)
    assert _python(code).strip() == "(18,)"


@pytest.mark.parametrize("env_id", IDS)
def test_the_vector_env_uses_one_connection_and_repeats_itself_for_the_same_seeds(server, env_id):
    actions = np.random.default_rng(9).uniform(-1, 1, (40, 4, 2)).astype(np.float32)
    runs = []
    for _ in range(2):
        envs = gymnasium.make_vec(env_id, num_envs=4, vectorization_mode="vector_entry_point",
                                  base_url=server.url, max_episode_steps=15)
        try:
            native = envs.unwrapped
            # Every session on the one batch connection, each on demand.
            assert native.batch.sessions == native.session_ids and len(native.session_ids) == 4
            client = Client(server.url)
            assert {client.session(i).data["clock"] for i in native.session_ids} == {"on-demand"}
            observation, _ = envs.reset(seed=3)
            record = [observation]
            for action in actions:
                observation, reward, terminated, truncated, info = envs.step(action)
                assert envs.observation_space.contains(observation)
                record += [observation, reward, terminated, truncated, info["steps"]]
            runs.append(record)
        finally:
            envs.close()
    assert len(runs[0]) == len(runs[1])
    for a, b in zip(*runs):
        assert np.array_equal(a, b)
    # The run went through autoresets (truncated at 15 steps), so it exercised them.
    assert np.array(runs[0][4::5]).any()
