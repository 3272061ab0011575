// The Holes high-score table (top 10 by level, then score) and, on GAME OVER, the inline form
// in which the controller enters a name. The server takes the score and level from the
// session's own game over (`POST /api/highscores`), so the page sends only the name.
// "Race the best run" opens /compare with this session's run and the best stored run (the
// table's first row that keeps its session) drawn over it as a ghost (docs/compare.md).

import { $, el, setText } from "../lib/dom.js";
import { APIError, requestJSON } from "../lib/api.js";
import { bestRun, ghostAddress, ghostWords } from "../compare/ghost.js";

/** Options of the table. */
const options = {
  dateFormat: { month: "short", day: "numeric" }, // entry dates in the table
  fullDateFormat: { dateStyle: "long", timeStyle: "short" }, // and when hovered
};

export class HighScores {
  /**
   * @param {HTMLElement} root the demo section: `.high-scores` (the table) and, in the
   *   overlay, `.score-entry` (the form)
   * @param {object} demo the demo context (its client holds the session id and token)
   */
  constructor(root, demo) {
    this.demo = demo;
    this.section = $(".high-scores", root);
    this.body = $("tbody", this.section);
    this.empty = $(".high-scores-empty", this.section);
    this.form = $(".score-entry", root);
    this.input = $('input[name="name"]', this.form);
    this.message = $(".entry-message", this.form);
    this.ghost = $(".high-scores-ghost", this.section);
    this.available = true;
    this.scores = null; // the table's rows, as read
    this.game = null; // {score, level} of the game over being entered
    this.entered = false; // this game over has been entered (or refused for good)
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    this.refresh();
  }

  /** Reads the table from the server. */
  async refresh(highlight = null) {
    try {
      const { scores } = await requestJSON("/api/highscores");
      this.render(scores, highlight);
    } catch (error) {
      this.available = !(error instanceof APIError && error.status === 503);
      this.body.replaceChildren();
      this.empty.hidden = false;
      setText(
        this.empty,
        this.available
          ? `The table cannot be read: ${error.message}`
          : "High scores need the database, and this server runs without one.",
      );
    }
  }

  /** Fills the table; the row of rank `highlight` is marked as the player's. */
  render(scores, highlight = null) {
    const rows = scores.map((entry) =>
      el(
        "tr",
        { class: entry.rank === highlight ? "mine" : null },
        el("td", { class: "rank" }, entry.rank),
        el("td", { class: "name", title: entry.name }, entry.name),
        el("td", { class: "level" }, entry.level),
        el("td", { class: "score" }, entry.score),
        el(
          "td",
          { class: "date", title: formatDate(entry.date, options.fullDateFormat) },
          formatDate(entry.date, options.dateFormat),
        ),
      ),
    );
    this.body.replaceChildren(...rows);
    this.empty.hidden = rows.length > 0;
    setText(this.empty, "No scores yet: be the first.");
    this.scores = scores;
    this.offerGhost();
  }

  /** Links the comparison of this session's run beside the best run of another session (once
   * both the table and this page's session are known). */
  offerGhost(scores = this.scores ?? []) {
    const mine = this.demo.client?.id;
    const best = bestRun(scores, mine);
    this.ghost.hidden = !mine || !best;
    if (this.ghost.hidden) return;
    $("a", this.ghost).href = ghostAddress(mine, best.session);
    setText($(".ghost-of", this.ghost), ghostWords(best));
  }

  /** Follows the game frame by frame: a game over opens the form, a new game closes it. */
  follow(frame) {
    if (frame.gameOver) this.gameOver(frame);
    else if (this.game) this.restart();
  }

  /** The game is over (`game` has score and level): the controller may enter a name. */
  gameOver(game) {
    if (this.game) return;
    this.game = { score: game.score, level: game.level };
    this.refresh();
    if (!this.available || !this.demo.client?.controls || this.entered) return;
    // NB: a game that scored nothing has nothing to enter; the server refuses it too.
    if (game.score <= 0) return;
    setText($(".entry-result", this.form), `Score ${game.score} at level ${game.level}.`);
    this.say("");
    this.form.hidden = false;
    // NB: on touch screens focusing would throw the keyboard up over the table unasked.
    if (!matchMedia("(pointer: coarse)").matches) this.input.focus({ preventScroll: true });
  }

  /** A new game: the next game over may be entered again. */
  restart() {
    this.game = null;
    this.entered = false;
    this.form.hidden = true;
  }

  async submit() {
    const name = this.input.value.trim();
    if (!name) {
      this.say("Type a name first.", "error");
      return;
    }
    const client = this.demo.client;
    try {
      const answer = await requestJSON("/api/highscores", {
        method: "POST",
        body: { session: client.id, token: client.token, name },
      });
      this.entered = true;
      this.form.hidden = true;
      this.render(answer.scores, answer.rank);
      this.demo.notice(
        answer.rank
          ? `${name}: number ${answer.rank} in the high scores.`
          : `Score ${answer.score} at level ${answer.level} is not in the top 10 this time.`,
      );
    } catch (error) {
      if (error.status === 409) {
        this.entered = true;
        this.form.hidden = true;
        this.demo.notice(error.message, "error");
        return;
      }
      this.say(error.message, "error");
    }
  }

  /** A line under the name field; errors mark the field. */
  say(text, kind = "info") {
    setText(this.message, text);
    this.message.dataset.kind = kind;
    this.input.toggleAttribute("aria-invalid", kind === "error");
  }
}

function formatDate(seconds, format) {
  return new Date(seconds * 1000).toLocaleString(undefined, format);
}
