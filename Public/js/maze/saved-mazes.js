// Saved mazes: the maze page's Save (a name and a button) and Load (a list and a button).
// Mazes live on the server (`/api/mazes`, in SQLite); loading one sends the model's `load`
// input over the session channel, so it is logged and replays like any other input.

import { $, el, setText } from "../lib/dom.js";
import { APIError, requestJSON } from "../lib/api.js";

const mazePath = (name) => `/api/mazes/${encodeURIComponent(name)}`;

// Saving a new name returns the token that owns it; this browser keeps it to save again.
const tokensKey = "playfield.mazeTokens";
const ownerTokens = () => {
  try {
    return JSON.parse(localStorage.getItem(tokensKey) ?? "{}") ?? {};
  } catch {
    return {};
  }
};

export class SavedMazes {
  /**
   * @param {HTMLElement} root the demo section, holding `.maze-library` with its two forms
   * @param {object} demo the demo context (for `send` and `notice`)
   * @param {() => string[] | null} cells the maze on screen now, as row strings
   */
  constructor(root, demo, cells) {
    this.demo = demo;
    this.cells = cells;
    this.box = $(".maze-library", root);
    this.saveForm = $(".save-maze", this.box);
    this.loadForm = $(".load-maze", this.box);
    this.nameInput = $('input[name="name"]', this.saveForm);
    this.list = $('select[name="maze"]', this.loadForm);
    this.message = $(".library-message", this.box);
    this.saveForm.addEventListener("submit", (event) => {
      event.preventDefault();
      this.save();
    });
    this.loadForm.addEventListener("submit", (event) => {
      event.preventDefault();
      this.load();
    });
    this.refresh();
  }

  /** Fills the list from the server, keeping the selection; `chosen` selects a name. */
  async refresh(chosen = this.list.value) {
    let mazes;
    try {
      ({ mazes } = await requestJSON("/api/mazes"));
    } catch (error) {
      this.unavailable(error);
      return;
    }
    const placeholder = el("option", { value: "" }, mazes.length ? "choose a maze" : "none saved");
    const options = mazes.map((maze) => el("option", { value: maze.name }, maze.name));
    this.list.replaceChildren(placeholder, ...options);
    if (mazes.some((maze) => maze.name === chosen)) this.list.value = chosen;
  }

  async save() {
    const cells = this.cells();
    const name = this.nameInput.value.trim();
    if (!cells) return;
    if (!name) {
      this.say("Give the maze a name first.", "error", this.nameInput);
      return;
    }
    try {
      const tokens = ownerTokens();
      const headers = tokens[name] ? { Authorization: `Bearer ${tokens[name]}` } : {};
      const saved = await requestJSON(mazePath(name), { method: "PUT", body: { cells }, headers });
      if (saved.token) {
        tokens[saved.name] = saved.token;
        localStorage.setItem(tokensKey, JSON.stringify(tokens));
      }
      this.say(`Saved “${saved.name}”.`);
      await this.refresh(saved.name);
    } catch (error) {
      const blame = error.field === "cells" ? null : this.nameInput;
      this.say(`Cannot save: ${error.message}`, "error", blame);
    }
  }

  async load() {
    const name = this.list.value;
    if (!name) {
      this.say("Choose a saved maze to load.", "error", this.list);
      return;
    }
    try {
      const maze = await requestJSON(mazePath(name));
      if (!this.demo.send({ type: "load", cells: maze.cells })) {
        this.say("Only the controller can load a maze.", "error");
        return;
      }
      this.say(`Loaded “${maze.name}”.`);
    } catch (error) {
      this.say(`Cannot load: ${error.message}`, "error");
      if (error.status === 404) await this.refresh();
    }
  }

  /** Without the database (503) or the server, saving and loading are switched off. */
  unavailable(error) {
    const reason =
      error instanceof APIError && error.status === 503
        ? "Saving mazes needs the database, and this server runs without one."
        : `Saved mazes cannot be listed: ${error.message}`;
    for (const control of this.box.querySelectorAll("input, select, button")) {
      control.disabled = true;
      control.removeAttribute("data-needs-control");
    }
    this.say(reason, "error");
  }

  /** Shows a line under the forms; marks `field` as the input to fix, if given. */
  say(text, kind = "info", field = null) {
    setText(this.message, text);
    this.message.dataset.kind = kind;
    for (const input of [this.nameInput, this.list]) {
      input.toggleAttribute("aria-invalid", input === field);
    }
    field?.focus();
  }
}
