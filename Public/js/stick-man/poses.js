// Stick Man's poses (seed "iOS – Stick Man"): which variant each transparent layer shows, the
// line he says, and a short frame animation. Pure data and functions, no DOM.
//
// Layers, bottom to top: body, eyes, mouth, tear, news, left-arm, right-arm, pendulum, hat.
// A pose names a variant for some layers; the layers it leaves out go back to `rest`.

/** What every layer shows before any button is pressed. */
export const rest = {
  eyes: "open",
  mouth: "neutral",
  tear: "none",
  news: "none",
  "left-arm": "down",
  "right-arm": "down",
  pendulum: "none",
};

/** The line he says before any button is pressed. */
export const greeting = "Hello! Press a button and I will do it.";

/**
 * The five poses. `frames` is the animation: each frame overrides some layers for `frameMs`
 * milliseconds; it plays `cycles` times and then rests on frame `still` (an index into
 * `frames`), which is all that reduced motion shows.
 */
export const poses = {
  read: {
    label: "READ",
    key: "r",
    says: "Any news about the iPhone 6? Let me read the paper…",
    layers: { eyes: "down", news: "paper", "left-arm": "paper", "right-arm": "paper" },
    frames: [{ eyes: "down-left" }, { eyes: "down" }, { eyes: "down-right" }, { eyes: "down" }],
    frameMs: 320,
    cycles: 4,
    still: 1,
  },
  happy: {
    label: "HAPPY",
    key: "h",
    says: "What a lovely day. I am so happy!",
    layers: { mouth: "happy" },
    frames: [{ "right-arm": "up" }, { "right-arm": "wave" }],
    frameMs: 220,
    cycles: 5,
    still: 0,
  },
  sad: {
    label: "SAD",
    key: "s",
    says: "Oh dear. Not so happy any more…",
    layers: { eyes: "down", mouth: "sad" },
    frames: [{ tear: "drop1" }, { tear: "drop2" }, { tear: "drop3" }, { tear: "none" }],
    frameMs: 260,
    cycles: 2,
    still: 1,
  },
  fly: {
    label: "FLY",
    key: "f",
    says: "Look at me, I can fly!",
    layers: { eyes: "up", mouth: "open" },
    frames: [
      { "left-arm": "up", "right-arm": "up" },
      { "left-arm": "horizontal", "right-arm": "horizontal" },
      { "left-arm": "low", "right-arm": "low" },
      { "left-arm": "horizontal", "right-arm": "horizontal" },
    ],
    frameMs: 110,
    cycles: 8,
    still: 1,
  },
  pendulum: {
    label: "PENDULUM",
    key: "p",
    says: "Check out my pendulum…",
    layers: { mouth: "happy", "left-arm": "horizontal", "right-arm": "hold" },
    // NB: the seed swings two pictures in 0.75 s; eight frames of 94 ms keep its period.
    frames: ["left2", "left1", "middle", "right1", "right2", "right1", "middle", "left1"].map(
      (variant) => ({ pendulum: variant }),
    ),
    frameMs: 94,
    cycles: 6,
    still: 0,
  },
};

/** The HAT toggle's lines, by the state after the press. */
export const hatSays = { on: "Hat on. Very smart.", off: "Hat off. Nice and cool." };

/** The state before any button is pressed. */
export function initialState() {
  return { pose: null, hat: false };
}

/**
 * The variant of every layer for `state` at animation frame `frame` (null: the pose's still
 * frame, what stays after the animation).
 */
export function layersFor(state, frame = null) {
  const layers = { ...rest, hat: state.hat ? "on" : "none" };
  const pose = poses[state.pose];
  if (!pose) return layers;
  const index = frame ?? pose.still;
  return { ...layers, ...pose.layers, ...pose.frames[index % pose.frames.length] };
}

/**
 * Reads a shared pose from a query string (`?pose=fly&hat=on`): `{state, problems}`, where a
 * value that is not a pose or not `on`/`off` leaves the start's and names itself in
 * `problems` (one sentence each), for the page to show.
 */
export function parseState(search) {
  const query = new URLSearchParams(search);
  const state = initialState();
  const problems = [];
  const pose = query.get("pose");
  if (pose !== null && pose !== "") {
    if (Object.hasOwn(poses, pose)) state.pose = pose;
    else problems.push(`pose “${pose}” is not one of ${Object.keys(poses).join(", ")}`);
  }
  const hat = query.get("hat");
  if (hat !== null && hat !== "") {
    if (hat === "on" || hat === "off") state.hat = hat === "on";
    else problems.push(`hat “${hat}” is not on or off`);
  }
  return { state, problems };
}

/** The query string that shares `state` on top of `search`'s other options (`""` when none
 * is left): `?pose=fly&hat=on`, or `?theme=light&pose=fly` in a frame. */
export function formatState(state, search = "") {
  const query = new URLSearchParams(search);
  query.delete("pose");
  query.delete("hat");
  if (state.pose) query.set("pose", state.pose);
  if (state.hat) query.set("hat", "on");
  const text = query.toString();
  return text ? `?${text}` : "";
}
