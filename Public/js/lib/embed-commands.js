// What the host's commands do, shared by every demo: a page demo's from tables of handlers
// (`pageCommands`), a session demo's by asking the server and waiting for its answer
// (`sessionCommands`), so that a `reply` says what really happened.

import { EmbedError } from "./embed-protocol.js";

/** Options of the session commands. */
export const commandOptions = {
  answerMs: 5000, // longest wait for the server's `ack` or `error`, in ms (the host waits 10 s)
};

/**
 * A page demo's commands, from tables. `handlers`:
 * - `name`: how messages call the demo ("Stick Man");
 * - `run`: commands without fields, name to function (`reset`, `play`, `pause`);
 * - `inputs`: input type to `fn(input)`, for `input` (`{type: "zoom", factor: 2}`);
 * - `options`: option name to `{check(value), apply(value)}`, for `set`: every option given is
 *   checked before any is applied, and they are applied in this table's order; `applied(options)`
 *   runs after them;
 * - `set(options)`: instead of `options`, a demo's own `set` (one of several exclusive options).
 * Every handler may return a result (or a promise) and throws an `EmbedError` to refuse.
 * Returns `{commands, inputs, onCommand}` for `startEmbed`.
 */
export function pageCommands({ name, run = {}, inputs = {}, options, applied, set }) {
  const commands = [...Object.keys(run)];
  if (Object.keys(inputs).length > 0) commands.push("input");
  if (options || set) commands.push("set");
  return {
    commands,
    inputs: Object.keys(inputs),
    onCommand(message) {
      if (run[message.type]) return run[message.type]();
      if (message.type === "input") {
        const handler = inputs[message.input.type];
        if (!handler) {
          const known = Object.keys(inputs).join(", ");
          throw new EmbedError("bad-field", `input type must be one of ${known}`);
        }
        return handler(message.input);
      }
      if (set) return set(message.options);
      const given = message.options;
      for (const option of Object.keys(given)) {
        if (!Object.hasOwn(options, option)) {
          throw new EmbedError("bad-field", `${name} has no option ${option}`);
        }
      }
      const chosen = Object.keys(options).filter((option) => given[option] !== undefined);
      for (const option of chosen) options[option].check?.(given[option]);
      for (const option of chosen) options[option].apply?.(given[option]);
      return applied?.(given) ?? null;
    },
  };
}

/**
 * A session demo's commands: each goes to the server over `client()` (the SessionClient now)
 * and settles when the server accepts it (`ack`) or refuses it (its `error`, as an
 * `EmbedError` with the server's code and reason, also handed to `refused`). `resetInput`: the
 * input `reset` sends (default `reset`). Returns `{commands, onCommand}` for `startEmbed`.
 */
export function sessionCommands(client, { resetInput = "reset", refused } = {}) {
  const messages = {
    play: () => ({ type: "start" }),
    pause: () => ({ type: "stop" }),
    reset: () => ({ type: resetInput }),
    step: ({ count }) => (count === undefined ? { type: "step" } : { type: "step", count }),
    input: (message) => message.input,
  };
  return {
    commands: Object.keys(messages),
    async onCommand(message) {
      const make = messages[message.type];
      if (!make) throw new EmbedError("unknown-command", `no command ${message.type}`);
      const channel = client();
      if (!channel) throw new EmbedError("not-connected", "the session is not connected");
      try {
        await channel.request(make(message), commandOptions.answerMs);
        return null;
      } catch (error) {
        refused?.(error);
        throw new EmbedError(error.code ?? "failed", error.message);
      }
    },
  };
}
