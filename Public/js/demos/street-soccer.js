// Street Soccer (seed "Streetsoccer"): dice football for two on a pitch of squares. The server
// is the referee: this page shows the board of the newest frame, asks the server for the plan
// of the turn being made (`plan` over the session channel: the board after the planned moves,
// the points left and the legal moves next), lets the player add, undo one or all, and
// confirm, and only then sends the `turn`. Every square is a button (arrow keys move between
// them), moves are announced, and the turn just played is animated move by move, live and
// when the match is re-watched from its replay.

import { $, $all, el, setText } from "../lib/dom.js";
import { runDemo } from "../lib/demo.js";
import { tokenLink } from "../lib/join.js";
import "../color-picker.js";
import { inkOn, keeperShirt, shirtSVG } from "../street-soccer/shirt.js";
import { describeMove, turnBoards } from "../street-soccer/moves.js";

/** Options of this page. */
const options = {
  config: {}, // a new session's config: the server's defaults (15 turns each vs the novice)
  planTimeoutMs: 10_000, // how long a `plan` may take to come back
  moveMs: 450, // how long each move of an animated turn shows, in ms
};

const kitKey = "playfield.soccer.kit";
const statNames = {
  goals: "goals", shots: "shots", passes: "passes", completed: "passes completed",
  tackles: "tackles", possession: "possession", run: "squares run",
};

/** What the page knows of the match and of the turn being planned. */
const game = {
  hello: null,
  frame: null,
  side: null, // the side this page plays, or null when it watches
  turnKey: "",
  moves: [],
  plan: null,
  asking: 0, // the number of the newest plan request
  selected: null, // the piece picked, 1 to 5
  choice: null, // [moves] to one square that allows several
  focus: [0, 0],
  animation: null, // {boards, side, moves, start} of the turn being shown
  animatedKey: "",
  cells: new Map(),
  kitSent: false,
  live: false, // a live page (not the replay)
  connection: "connecting", // the channel's state (session.js `State`), and why it ended
  connectionDetail: "",
};

const key = (x, y) => `${x},${y}`;
const sideOf = (lane) => (lane < 5 ? "home" : "away");

/** The pieces on `board` by square: `"x,y" -> {side, number}`. */
function piecesBySquare(board) {
  const found = new Map();
  for (let lane = 0; lane < 10; lane += 1) {
    found.set(key(board.pieces[2 * lane], board.pieces[2 * lane + 1]), {
      side: sideOf(lane),
      number: (lane % 5) + 1,
    });
  }
  return found;
}

/** A square's name alone: "column 3, row 2", or "goal, row 4" in a goal. */
function squareName(x, y, columns) {
  return x < 0 || x === columns ? `goal, row ${y + 1}` : `column ${x + 1}, row ${y + 1}`;
}

/** The pitch as buttons: columns + 2 wide (the goals), rows high. */
function buildPitch(demo) {
  const stage = $(".stage", demo.root);
  stage.replaceChildren();
  const { columns, rows, mouth, areaRows, areaDepth } = game.hello.pitch;
  const pitch = el("div", {
    class: "pitch", role: "group", "aria-label": `pitch of ${columns} by ${rows} squares`,
    style: { gridTemplateColumns: `repeat(${columns + 2}, 1fr)` },
  });
  game.cells.clear();
  for (let y = 0; y < rows; y += 1) {
    for (let x = -1; x <= columns; x += 1) {
      const isGoal = x < 0 || x === columns;
      if (isGoal && (y < mouth[0] || y > mouth[1])) {
        pitch.append(el("div", { class: "outside" }));
        continue;
      }
      const inArea = !isGoal && y >= areaRows[0] && y <= areaRows[1] && (x < areaDepth || x >= columns - areaDepth);
      // NB: named from the start; the first redraw adds who stands there (a check run
      // between the build and that redraw found nameless buttons).
      const cell = el("button", {
        type: "button", class: `square${isGoal ? " goal" : ""}${inArea ? " area" : ""}`,
        tabindex: "-1", dataset: { x, y }, "aria-label": squareName(x, y, columns),
      });
      cell.addEventListener("click", () => pick(x, y, demo));
      cell.addEventListener("focus", () => (game.focus = [x, y]));
      game.cells.set(key(x, y), cell);
      pitch.append(cell);
    }
  }
  pitch.addEventListener("keydown", (event) => arrowKeys(event, demo));
  stage.append(pitch);
  game.focus = [Math.floor(columns / 2), Math.floor(rows / 2)];
  game.cells.get(key(...game.focus)).tabIndex = 0;
}

function arrowKeys(event, demo) {
  const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (event.key === "Backspace") {
    event.preventDefault();
    undo(demo, 1);
    return;
  }
  if (event.key === "Escape" && game.selected !== null) {
    game.selected = null;
    announce("nobody picked");
    demo.redraw();
    return;
  }
  const step = steps[event.key];
  if (!step) return;
  event.preventDefault();
  let [x, y] = game.focus;
  for (let tries = 0; tries < 3; tries += 1) {
    x += step[0];
    y += step[1];
    const cell = game.cells.get(key(x, y));
    if (cell) {
      moveFocus(cell, [x, y]);
      return;
    }
  }
}

function moveFocus(cell, square) {
  for (const other of game.cells.values()) other.tabIndex = -1;
  cell.tabIndex = 0;
  game.focus = square;
  cell.focus();
}

/** Whether this page makes the turn now. */
function planning() {
  const frame = game.frame;
  return Boolean(
    frame && game.side && frame.phase === "turn" && frame.toMove === game.side && connected(),
  );
}

/** Whether the session channel is open: without it nothing can be planned or sent. */
function connected() {
  return game.connection === "connected";
}

/** The board to show: the planned one, the animated one, or the frame's. */
function shownBoard() {
  if (game.animation) {
    const elapsed = performance.now() - game.animation.start;
    const index = Math.floor(elapsed / options.moveMs);
    if (index < game.animation.boards.length) return game.animation.boards[index];
    game.animation = null;
  }
  if (planning() && game.plan) return game.plan.board;
  return game.frame.board;
}

/** The legal moves of the picked piece by target square. */
function targets() {
  const found = new Map();
  if (!planning() || !game.plan || game.selected === null) return found;
  for (const move of game.plan.legal) {
    if (move.piece !== game.selected) continue;
    const k = key(...move.to);
    found.set(k, [...(found.get(k) ?? []), move]);
  }
  return found;
}

/** Draws the board into the buttons: shirts, the ball, lit targets, labels for readers. */
function render(demo) {
  if (!game.frame || !game.cells.size) return;
  const board = shownBoard();
  // Frames stream at 60 Hz but the match changes a few times a turn: touch the squares (and
  // their labels, which screen readers and axe watch) only when what they show changed.
  // While the other side's turn is animated, its squares are not the plan's: nothing is lit.
  const choosing = planning() && Boolean(game.plan) && !game.animation;
  const key = JSON.stringify([board, game.frame.kits, game.selected, game.side, choosing]);
  if (key === game.renderedKey && game.renderedPlan === game.plan) return;
  game.renderedKey = key;
  const pieces = piecesBySquare(board);
  const kits = game.frame.kits;
  const lit = choosing ? targets() : new Map();
  const movable = new Set((choosing ? game.plan.legal : []).map((m) => m.piece));
  game.renderedPlan = game.plan; // what the squares show (for the browser tests)
  for (const [k, cell] of game.cells) {
    const [x, y] = k.split(",").map(Number);
    const piece = pieces.get(k);
    const hasBall = board.ball[0] === x && board.ball[1] === y;
    const drawn = `${piece ? `${piece.side}${piece.number}${kits[piece.side].shirt}${kits[piece.side].pattern}${kits[piece.side].patternColor}${kits[piece.side].shorts}` : ""}|${hasBall}`;
    if (cell.dataset.drawn !== drawn) {
      cell.dataset.drawn = drawn;
      cell.replaceChildren();
      if (piece) cell.append(shirtSVG(kits[piece.side], piece.number));
      if (hasBall) cell.append(el("span", { class: "ball", "aria-hidden": "true" }));
    }
    const mine = piece && piece.side === game.side;
    cell.classList.toggle("selected", Boolean(mine && piece.number === game.selected));
    cell.classList.toggle("movable", Boolean(mine && movable.has(piece.number)));
    cell.classList.toggle("target", lit.has(k));
    let label = squareName(x, y, game.hello.pitch.columns);
    if (piece) label += `: ${piece.side} ${piece.number}${piece.number === 1 ? " (goalkeeper)" : ""}`;
    if (hasBall) label += piece ? " with the ball" : ": the ball";
    if (lit.has(k)) label += `; ${lit.get(k).map((m) => m.move).join(" or ")} here`;
    else if (mine && movable.has(piece.number)) label += "; can move";
    if (cell.getAttribute("aria-label") !== label) cell.setAttribute("aria-label", label);
  }
}

/** A click (or Enter) on a square: pick a piece of this side, or play a lit move there. */
function pick(x, y, demo) {
  if (!planning()) return;
  if (game.animation) {
    // The squares show the turn being animated (before a goal's kick-off, say), not the board
    // to plan on: a click skips the rest of it and picks nothing.
    game.animation = null;
    render(demo);
    return;
  }
  if (!game.plan) return;
  const lit = targets().get(key(x, y));
  if (lit) {
    if (lit.length === 1) addMove(lit[0], demo);
    else offerChoice(lit, demo);
    return;
  }
  const piece = piecesBySquare(game.plan.board).get(key(x, y));
  if (piece && piece.side === game.side) {
    game.selected = game.selected === piece.number ? null : piece.number;
    const count = game.plan.legal.filter((m) => m.piece === piece.number).length;
    announce(game.selected ? `${game.side} ${piece.number} picked: ${count} moves` : "nobody picked");
    render(demo);
  }
}

/** Several moves to one square (a step or a pass): the player chooses. */
function offerChoice(moves, demo) {
  const box = $(".move-choice", demo.root);
  const square = moves[0].to;
  // Chosen or dismissed, the keyboard goes back to the square the move was for (not the body).
  const close = () => {
    box.hidden = true;
    box.replaceChildren();
    const cell = game.cells.get(key(...square));
    if (cell) moveFocus(cell, square);
  };
  box.replaceChildren(
    el("span", {}, "Which move?"),
    ...moves.map((move) =>
      el("button", { type: "button", onclick: () => { close(); addMove(move, demo); } }, move.move),
    ),
  );
  box.onkeydown = (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    close();
  };
  box.hidden = false;
  box.querySelector("button").focus();
}

function addMove(move, demo) {
  game.moves.push(move);
  announce(describeMove(game.side, move));
  askPlan(demo);
}

function undo(demo, count) {
  if (!planning() || !game.moves.length) return;
  game.moves.splice(count === 1 ? -1 : 0);
  announce(count === 1 ? "last move undone" : "all moves undone");
  askPlan(demo);
}

/** Asks the server for the plan after the moves so far. */
async function askPlan(demo) {
  const asking = ++game.asking;
  const moves = game.moves.map(({ move, piece, to }) => ({ move, piece, to }));
  try {
    const answer = await demo.client.request({ type: "plan", side: game.side, moves }, options.planTimeoutMs);
    if (asking !== game.asking) return;
    game.plan = answer.plan;
    if (!game.plan.legal.some((m) => m.piece === game.selected)) game.selected = null;
    if (game.plan.goal) announce("Goal! Confirm the turn.");
  } catch (error) {
    if (asking !== game.asking) return;
    demo.notice(error.message, "error");
    game.moves.pop();
  }
  refresh(demo);
}

function confirmTurn(demo) {
  if (!planning() || !game.plan?.canConfirm) return;
  const moves = game.moves.map(({ move, piece, to }) => ({ move, piece, to }));
  demo.client.send({ type: "turn", side: game.side, moves });
  game.plan = null;
  game.moves = [];
  game.selected = null;
  game.turnKey = "sent";
  refresh(demo);
}

function announce(text) {
  setText($(".soccer-announce"), text);
}

/** Which side this connection plays, from its role and who plays each side. */
function sideFor(message) {
  if (message.role === "home" || message.role === "away") return message.role;
  if (message.role !== "controller") return null;
  const humans = ["home", "away"].filter((side) => message.players[side] === "human");
  return humans[0] ?? null;
}

/** Everything but the board: the score, the die, the buttons, the invite, the end. */
function refresh(demo) {
  const frame = game.frame;
  if (!frame) return;
  const root = demo.root;
  setText(demo.readout("home-score"), frame.score[0]);
  setText(demo.readout("away-score"), frame.score[1]);
  setText(demo.readout("turn"), `turn ${Math.min(frame.turnsPlayed + 1, frame.turns)} of ${frame.turns}`);
  root.querySelector(".scoreboard").classList.toggle("swapped", frame.homeAttacks === "left");
  setText(demo.readout("ends"), endsText(frame));
  for (const side of ["home", "away"]) {
    const team = root.querySelector(`.team-${side}`);
    const kit = frame.kits[side];
    team.style.background = kit.shirt;
    team.style.color = inkOn(kit.shirt);
    team.style.borderColor = kit.patternColor;
  }
  setText(demo.readout("die"), frame.die ?? "–");
  const points = planning() && game.plan ? `${game.plan.pointsLeft} points left` : "";
  if (demo.mode === "live") setText(demo.readout("points"), points);
  const state = demo.readout("state");
  setText(state, stateText(frame));
  state.dataset.connection = connected() || demo.mode !== "live" ? "" : "lost";
  const clash = root.querySelector(".kit-clash");
  clash.hidden = !frame.kits.clash;
  setText(clash, frame.kits.clash ? clashText() : "");
  demo.redraw();
  if (demo.mode !== "live") return; // the replay has no buttons
  const mine = planning() && Boolean(game.plan);
  root.querySelector('[data-action="undo"]').disabled = !mine || !game.moves.length;
  root.querySelector('[data-action="undo-all"]').disabled = !mine || !game.moves.length;
  const confirm = root.querySelector('[data-action="confirm"]');
  confirm.disabled = !mine || !game.plan.canConfirm;
  // NB: as text beside the button, not a tooltip: touch screens never show a title.
  const problem = root.querySelector(".confirm-problem");
  const why = mine && !game.plan.canConfirm && game.plan.problem ? game.plan.problem : "";
  problem.hidden = !why;
  setText(problem, why ? `Cannot confirm yet: ${why.replace(/^turn: /, "")}.` : "");
  const roll = root.querySelector(".die-entry");
  const roller = frame.toMove === game.side || (game.hello.players[frame.toMove] !== "human" && game.side);
  roll.hidden = !(frame.phase === "roll" && game.hello.dice === "external" && roller);
  root.querySelector(".soccer-after").hidden = frame.phase !== "over";
  if (frame.phase === "over") showStatistics(demo);
}

/** Which goal each side attacks now (home attacks the right-hand one in match 1). */
function endsText(frame) {
  const home = frame.homeAttacks === "left" ? "left" : "right";
  const away = home === "left" ? "right" : "left";
  const arrow = (end) => (end === "left" ? "←" : "→");
  const mine = game.side && game.live;
  if (mine) {
    const end = game.side === "home" ? home : away;
    return `You play ${game.side} and attack the ${end}-hand goal ${arrow(end)}.`;
  }
  return `Home attacks the ${home}-hand goal ${arrow(home)}, away the ${away}-hand goal ${arrow(away)}.`;
}

/** Why away wears its change kit: the clash rule in a sentence. */
function clashText() {
  const own = game.side === "away" ? " To wear yours, pick a shirt further from home's in colour or lightness." : "";
  return (
    "Kit clash: seen from a distance the two shirts look too alike (a striped, hooped, halved or " +
    "sashed shirt reads as its colours mixed, so red-and-white and blue-and-white stripes both " +
    `read pale), so away wears its change kit.${own}`
  );
}

/** What the page says instead of the match while the channel is not open, or null. */
function connectionText() {
  if (connected() || !game.live) return null;
  if (game.connection === "ended") {
    const why = game.connectionDetail || "the session ended";
    return `This match cannot be played: ${why}. Start a new match with the links above.`;
  }
  if (game.connection === "reconnecting") {
    return "Connection lost: reconnecting… Nothing can be played until it is back.";
  }
  return game.frame ? "Connecting…" : "Connecting to the match…";
}

function stateText(frame) {
  const lost = connectionText();
  if (lost) return lost;
  const who = (side) => (side === game.side ? "Your" : `${side[0].toUpperCase()}${side.slice(1)}'s`);
  switch (frame.phase) {
    case "over": {
      const [home, away] = frame.score;
      return `Full time: ${home} – ${away}.`;
    }
    case "roll":
      return `${who(frame.toMove)} turn: waiting for the die.`;
    case "computer":
      return `${who(frame.toMove)} turn: the ${game.hello.players[frame.toMove]} computer is thinking.`;
    default:
      if (planning()) return `Your turn: a ${frame.die}. Pick a player, then a lit square; confirm when done.`;
      return `${who(frame.toMove)} turn: a ${frame.die}.`;
  }
}

function showStatistics(demo) {
  const body = $(".soccer-stats tbody", demo.root);
  const rows = Object.entries(game.frame.stats).map(([name, [home, away]]) =>
    el("tr", {}, el("td", {}, home), el("th", { scope: "row" }, statNames[name] ?? name), el("td", {}, away)),
  );
  body.replaceChildren(...rows);
  const rewatch = $(".rewatch", demo.root);
  if (demo.session) rewatch.href = `/sessions/${encodeURIComponent(demo.session.id)}/replay`;
  rewatch.hidden = demo.mode !== "live";
  demo.root.querySelector('[data-action="rematch"]').hidden = !game.side;
}

/** A new frame: a new turn resets the plan; a turn just played is animated and announced. */
function adoptFrame(frame, demo) {
  const before = game.frame;
  // Frames come only when the match changed (a turn, a roll, a kit or a rematch), but a
  // joiner's first frame repeats its hello's, and a replay sends every tick: skip repeats.
  const stateKey = JSON.stringify([frame.match, frame.turnsPlayed, frame.die, frame.phase, frame.kits, frame.score]);
  if (before && stateKey === game.stateKey) return;
  game.stateKey = stateKey;
  game.frame = frame;
  const last = frame.last;
  const lastKey = last ? `${frame.match}:${frame.turnsPlayed}` : "";
  if (last && lastKey !== game.animatedKey && before) {
    game.animatedKey = lastKey;
    if (last.side !== game.side || demo.mode !== "live") {
      game.animation = { boards: turnBoards(last), start: performance.now() };
    }
    const said = last.moves.map((move) => describeMove(last.side, move)).join("; ");
    announce(`${last.side} rolled ${last.die}: ${said || "no moves"}. Score ${frame.score[0]} – ${frame.score[1]}.`);
  } else if (!before) {
    game.animatedKey = lastKey;
  }
  if (before && before.match !== frame.match) announce(`Match ${frame.match}: the teams changed ends. ${endsText(frame)}`);
  const turnKey = `${frame.match}:${frame.turnsPlayed}:${frame.die}:${frame.phase}`;
  if (turnKey !== game.turnKey) {
    game.turnKey = turnKey;
    game.moves = [];
    game.plan = null;
    game.selected = null;
    if (planning() && demo.mode === "live") askPlan(demo);
  }
  refresh(demo);
}

/** The kit designer: three colour pickers and a pattern, kept in this browser. */
function bindKitDesigner(demo) {
  const root = demo.root;
  const pickers = {
    shirt: $(".kit-shirt", root), shorts: $(".kit-shorts", root), patternColor: $(".kit-pattern-color", root),
  };
  const pattern = $(".kit-pattern", root);
  const saved = loadKit();
  if (saved) {
    for (const [name, picker] of Object.entries(pickers)) picker.setAttribute("value", saved[name]);
    pattern.value = saved.pattern;
  }
  const current = () => ({
    shirt: pickers.shirt.value, shorts: pickers.shorts.value, pattern: pattern.value,
    patternColor: pickers.patternColor.value,
  });
  const preview = () => {
    const kit = current();
    $(".kit-preview", root).replaceChildren(shirtSVG(kit, 7), shirtSVG({ ...kit, keeper: keeperShirt(kit.shirt) }, 1));
  };
  for (const picker of Object.values(pickers)) picker.addEventListener("input", preview);
  pattern.addEventListener("change", preview);
  preview();
  $('[data-action="kit"]', root).addEventListener("click", () => {
    const kit = current();
    try {
      localStorage.setItem(kitKey, JSON.stringify(kit));
    } catch {
      // Not kept: the kit is still sent.
    }
    sendKit(demo, kit);
  });
}

function loadKit() {
  try {
    const kit = JSON.parse(localStorage.getItem(kitKey) ?? "null");
    const color = /^#[0-9a-f]{6}$/;
    if (kit && color.test(kit.shirt) && color.test(kit.shorts) && color.test(kit.patternColor)) return kit;
  } catch {
    // No kit kept.
  }
  return null;
}

function sendKit(demo, kit) {
  if (!game.side || demo.mode !== "live") return;
  demo.client.send({ type: "kit", side: game.side, ...kit });
}

/** The creator of a match for two people gets the other side's link. */
function showInvite(message, demo) {
  const invite = $(".soccer-invite", demo.root);
  const other = game.side === "home" ? "away" : "home";
  const token = message[`${other}Token`];
  invite.hidden = !(message.role === "controller" && token && message.players[other] === "human");
  if (invite.hidden) return;
  const href = new URL(tokenLink("street-soccer", message.session, token), location.href).href;
  const link = $(".invite-link", invite);
  link.href = href;
  setText(link, `${other} side's link`);
  $(".copy-invite", invite).onclick = async (event) => {
    try {
      await navigator.clipboard.writeText(href);
      setText(event.target, "copied");
    } catch {
      setText(event.target, "copy failed");
    }
  };
}

/**
 * The replay page (the re-watch) has only a stage: add the stylesheet, the scoreboard, the
 * state line with the die, and the announcements.
 */
function ensureReplayParts(demo) {
  if (!document.querySelector('link[href="/css/street-soccer.css"]')) {
    document.head.append(el("link", { rel: "stylesheet", href: "/css/street-soccer.css" }));
  }
  const root = demo.root;
  if (root.querySelector(".scoreboard")) return;
  const team = (side, label) =>
    el("span", { class: `team team-${side}` },
      side === "home" ? [el("span", { class: "team-name" }, label), " "] : null,
      el("span", { class: "team-score", dataset: { readout: `${side}-score` } }, "0"),
      side === "away" ? [" ", el("span", { class: "team-name" }, label)] : null);
  $(".stage", root).before(
    el("div", { class: "scoreboard", "aria-label": "score" },
      team("home", "Home"), el("span", { class: "scoreboard-clock", dataset: { readout: "turn" } }, "turn –"),
      team("away", "Away")),
    el("p", { class: "soccer-ends", dataset: { readout: "ends" } }),
    el("p", { class: "kit-clash", role: "status", hidden: true }),
  );
  $(".stage", root).after(
    el("p", { class: "soccer-state" },
      el("span", { class: "die-face", dataset: { readout: "die" }, "aria-label": "die" }, "–"), " ",
      el("span", { dataset: { readout: "state" } }, "")),
    el("p", { class: "soccer-announce visually-hidden", role: "status", "aria-live": "polite" }),
  );
}

runDemo({
  kind: "street-soccer",
  config: options.config,
  urlConfig: ["home", "away", "turnsPerSide", "dice", "computerDelay", "columns", "rows"],
  inputs: ["turn", "die", "kit", "rematch", "reset"],
  events: ["roll", "turn", "goal", "match-over", "rematch", "kits", "reset", "input-rejected"],
  setup(demo) {
    ensureReplayParts(demo);
    demo.soccer = game; // for the browser tests
    game.live = demo.mode === "live";
  },
  connection(state, detail, demo) {
    game.connection = state;
    game.connectionDetail = detail;
    if (game.frame) {
      refresh(demo);
      return;
    }
    // NB: no match yet (a dead link): the state line says why instead of waiting forever.
    const line = demo.root.querySelector('[data-readout="state"]');
    const text = connectionText();
    if (line && text) {
      setText(line, text);
      line.dataset.connection = state === "ended" ? "lost" : "";
    }
  },
  controls(demo) {
    const root = demo.root;
    $('[data-action="undo"]', root).addEventListener("click", () => undo(demo, 1));
    $('[data-action="undo-all"]', root).addEventListener("click", () => undo(demo, 0));
    $('[data-action="confirm"]', root).addEventListener("click", () => confirmTurn(demo));
    $('[data-action="rematch"]', root).addEventListener("click", () =>
      demo.client.send({ type: "rematch", side: game.side }),
    );
    $(".die-entry", root).addEventListener("submit", (event) => {
      event.preventDefault();
      const value = Number($("#die-value", root).value);
      demo.client.send({ type: "die", side: game.side, value });
    });
    bindKitDesigner(demo);
  },
  hello(message, demo) {
    game.hello = message;
    // The rules panel's numbers are the ones this session plays by.
    for (const span of demo.root.querySelectorAll("[data-rule]")) {
      const value = message.rules?.[span.dataset.rule];
      if (value !== undefined) setText(span, value);
    }
    game.side = demo.mode === "live" ? sideFor(message) : null;
    game.frame = null;
    game.turnKey = "";
    game.stateKey = "";
    game.renderedKey = "";
    buildPitch(demo);
    if (demo.mode === "live") {
      showInvite(message, demo);
      demo.root.querySelector('[data-action="kit"]').disabled = !game.side;
      const kit = loadKit();
      if (kit && !game.kitSent) {
        game.kitSent = true;
        sendKit(demo, kit);
      }
      // The owner's line stays the site's ("You control this session."); a seat's says which.
      const role = demo.root.querySelector(".demo-role");
      if (role && message.role !== "controller" && game.side) setText(role, `You play ${game.side}.`);
      for (const side of ["home", "away"]) {
        demo.root.querySelector(`.team-${side}`).classList.toggle("yours", side === game.side);
      }
    }
    adoptFrame(message, demo);
  },
  frame(message, demo) {
    adoptFrame(message, demo);
  },
  event(message, demo) {
    if (message.name === "goal") announce(`Goal for ${message.side ?? "a side"}!`);
    if (message.name === "match-over") announce("Full time.");
    demo.redraw();
  },
  draw(_sample, demo) {
    render(demo);
    if (game.animation) demo.redraw();
  },
});
