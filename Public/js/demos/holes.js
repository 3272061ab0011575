// Holes (seed "Return to HOLES"): a green table, a yellow ball steered by tilt, a flag at the
// top left and black holes turning about the centre; score, balls left, level, GAME OVER and
// RESTART, and a high-score table that asks the controller for a name after a game over.

import { $, el, setText } from "../lib/dom.js";
import { runDemo } from "../lib/demo.js";
import { drawTable } from "../holes/draw.js";
import { HighScores } from "../holes/high-scores.js";

/** Options of this page. */
const options = {
  config: {}, // a new session's config: the seed's constants
};

let view = null;
let table = null; // the hello: world, ballRadius, flag, colors

function draw(sample) {
  drawTable(view.context2d(), table, sample.a, sample.b, sample.alpha);
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
    demo.scores?.offerGhost();
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
