// Holes (seed "Return to HOLES"): a green table, a yellow ball steered by tilt, a flag at the
// top left and black holes turning about the centre; score, balls left, level, GAME OVER and
// RESTART, and a high-score table that asks the controller for a name after a game over.

import { $, el, setText } from "../lib/dom.js";
import { runDemo } from "../lib/demo.js";
import { lerp } from "../lib/frames.js";
import { HighScores } from "../holes/high-scores.js";

/** Options of this page. */
const options = {
  config: {}, // a new session's config: the seed's constants
  holeRim: "rgba(0, 0, 0, 0.35)", // the shadow ring around each hole
  flagPole: "#000000", // the flag's outline
};

let view = null;
let table = null; // the hello: world, ballRadius, flag, colors

/** The seed's flag: a white pennant on a pole in a `size` square at the top left. */
function drawFlag(context, flag, colors) {
  const s = flag.size;
  context.beginPath();
  context.moveTo(flag.x + 0.2 * s, flag.y + 0.9 * s);
  context.lineTo(flag.x + 0.2 * s, flag.y + 0.1 * s);
  context.lineTo(flag.x + 0.8 * s, flag.y + 0.3 * s);
  context.lineTo(flag.x + 0.2 * s, flag.y + 0.5 * s);
  context.closePath();
  context.fillStyle = colors.flag;
  context.strokeStyle = options.flagPole;
  context.lineWidth = 1.5;
  context.fill();
  context.stroke();
}

function draw(sample) {
  const { a, b, alpha } = sample;
  const { world, ballRadius, flag, colors } = table;
  const context = view.context2d();
  context.fillStyle = colors.table;
  context.fillRect(0, 0, world.width, world.height);
  drawFlag(context, flag, colors);
  const radius = lerp(a.holeRadius, b.holeRadius, alpha);
  for (let i = 0; i < b.holes.length; i += 2) {
    const x = lerp(a.holes[i] ?? b.holes[i], b.holes[i], alpha);
    const y = lerp(a.holes[i + 1] ?? b.holes[i + 1], b.holes[i + 1], alpha);
    context.fillStyle = options.holeRim;
    context.beginPath();
    context.arc(x, y, radius + 3, 0, Math.PI * 2);
    context.fill();
    context.fillStyle = colors.hole;
    context.beginPath();
    context.arc(x, y, radius, 0, Math.PI * 2);
    context.fill();
  }
  if (b.ball) {
    const from = a.ball ?? b.ball;
    context.fillStyle = colors.ball;
    context.beginPath();
    const x = lerp(from[0], b.ball[0], alpha);
    const y = lerp(from[1], b.ball[1], alpha);
    context.arc(x, y, ballRadius, 0, Math.PI * 2);
    context.fill();
  }
}

function showGame(frame, demo) {
  setText(demo.readouts.score, frame.score);
  setText(demo.readouts.balls, frame.ballsLeft);
  setText(demo.readouts.level, frame.level);
  demo.overlay.hidden = !frame.gameOver;
  demo.root.dataset.phase = frame.phase;
  demo.scores?.follow(frame);
}

/** The GAME OVER overlay; the replay page has none in its markup, so it is made there. */
function overlay(demo) {
  const found = demo.root.querySelector(".overlay");
  if (found) return found;
  const made = el(
    "div",
    { class: "overlay", hidden: true },
    el("p", { class: "game-over" }, "GAME OVER"),
  );
  $(".stage", demo.root).append(made);
  return made;
}

runDemo({
  kind: "holes",
  config: options.config,
  urlConfig: ["balls", "gravity", "pointsPerLevel"],
  inputs: ["tilt", "restart", "reset"],
  events: ["score", "level", "lost", "game-over", "ball", "reset"],
  setup(demo) {
    demo.readouts = {
      score: demo.readout("score"),
      balls: demo.readout("balls"),
      level: demo.readout("level"),
    };
    demo.overlay = overlay(demo);
  },
  controls(demo) {
    demo.bind("restart", { type: "restart" });
    demo.useTilt();
    demo.scores = new HighScores(demo.root, demo);
  },
  hello(message, demo) {
    table = message;
    view = demo.fit(table.world);
    showGame(message, demo);
  },
  frame(message, demo) {
    showGame(message, demo);
  },
  event(message, demo) {
    switch (message.name) {
      case "score":
        demo.notice(`Flag! Score ${message.score}.`);
        demo.frames.cut(message.tick);
        break;
      case "level":
        demo.notice(`Level ${message.level}: the holes grow and turn faster.`);
        break;
      case "lost":
        demo.notice(
          message.ballsLeft > 0 ? `Lost a ball: ${message.ballsLeft} left.` : "Lost the last ball.",
        );
        demo.frames.cut(message.tick);
        break;
      case "ball":
      case "reset": // a restart: the event carries the new game's hello
        demo.frames.cut(message.tick);
        break;
      default:
        break;
    }
  },
  draw,
});
