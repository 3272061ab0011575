// Decoded Mandelbrot tiles: an LRU of bitmaps, a bounded queue of requests, and the lookups
// that let the renderer draw a coarser (or finer) cached tile while the right one loads.
//
// Requests are never aborted (an aborted fetch looks like a network failure); instead a new
// wish list drops the queued tiles nobody wants any more, and at most `concurrency` are in
// flight. A tile that failed is not asked for again until `retryAfter` has passed.

import { LRUMap } from "./lru.js";

/** Options of the store. */
const defaults = {
  capacity: 256, // decoded tiles kept; one is 256 KiB of RGBA, so 64 MiB at most
  concurrency: 6, // requests in flight (a browser's HTTP/1.1 connections per host)
  retryAfter: 15000, // ms before a failed tile is asked for again
};

/** The URL path of a tile; `params` is `{iterations, palette}`. */
export function tileURL(tile, params) {
  return (
    `/tiles/mandelbrot/${tile.z}/${tile.x}/${tile.y}.png` +
    `?iter=${params.iterations}&palette=${encodeURIComponent(params.palette)}`
  );
}

export class TileStore {
  /**
   * `onLoad()` is called after each tile arrives; `onFailure(message)` after a request fails
   * (with the server's message when it sent one).
   */
  constructor({ onLoad = () => {}, onFailure = () => {}, ...options } = {}) {
    this.options = { ...defaults, ...options };
    this.onLoad = onLoad;
    this.onFailure = onFailure;
    this.latest = new Map(); // "z/x/y" and "palette/z/x/y" -> key of the newest cached bitmap
    this.bitmaps = new LRUMap(this.options.capacity, (key, bitmap) => this.forget(key, bitmap));
    this.queue = []; // [{key, url}] waiting, most wanted first
    this.inFlight = new Set(); // keys
    this.failures = new Map(); // key -> ms timestamp after which it may be tried again
  }

  static key(tile, params) {
    return `${params.palette}/${params.iterations}/${tile.z}/${tile.x}/${tile.y}`;
  }

  /** The bitmap of exactly this tile with these parameters, if it is cached. */
  exact(tile, params) {
    return this.bitmaps.get(TileStore.key(tile, params));
  }

  /**
   * A cached bitmap of tile z/x/y with any parameters, preferring `palette`; for drawing
   * something while the right tile loads.
   */
  any(z, x, y, palette) {
    const key = this.latest.get(`${palette}/${z}/${x}/${y}`) ?? this.latest.get(`${z}/${x}/${y}`);
    return key === undefined ? undefined : this.bitmaps.peek(key);
  }

  /** Whether the tile is loading or waiting to load. */
  isPending(tile, params) {
    const key = TileStore.key(tile, params);
    return this.inFlight.has(key) || this.queue.some((item) => item.key === key);
  }

  /** Whether the tile failed recently and will not be asked for yet. */
  hasFailed(tile, params, now = performance.now()) {
    const until = this.failures.get(TileStore.key(tile, params));
    return until !== undefined && now < until;
  }

  /** How many requests are in flight or queued. */
  get pendingCount() {
    return this.inFlight.size + this.queue.length;
  }

  /**
   * Replaces the wish list with `wanted` (`[{tile, params}]`, most wanted first): cached,
   * loading and recently failed tiles are skipped, queued tiles no longer wanted are dropped.
   */
  want(wanted, now = performance.now()) {
    const queue = [];
    const seen = new Set();
    for (const { tile, params } of wanted) {
      const key = TileStore.key(tile, params);
      if (seen.has(key) || this.bitmaps.has(key) || this.inFlight.has(key)) continue;
      if (this.hasFailed(tile, params, now)) continue;
      seen.add(key);
      queue.push({ key, url: tileURL(tile, params), tile, palette: params.palette });
    }
    this.queue = queue;
    this.pump();
  }

  /** Drops every bitmap (for example when the page is hidden for long). */
  clear() {
    this.bitmaps.clear();
    this.queue = [];
  }

  pump() {
    while (this.inFlight.size < this.options.concurrency && this.queue.length > 0) {
      this.load(this.queue.shift());
    }
  }

  async load(item) {
    this.inFlight.add(item.key);
    try {
      const response = await fetch(item.url);
      if (!response.ok) {
        const message = (await response.text()).trim() || `HTTP ${response.status}`;
        throw new Error(message);
      }
      const bitmap = await createImageBitmap(await response.blob());
      const { z, x, y } = item.tile;
      this.bitmaps.set(item.key, bitmap);
      this.latest.set(`${z}/${x}/${y}`, item.key);
      this.latest.set(`${item.palette}/${z}/${x}/${y}`, item.key);
      this.failures.delete(item.key);
      this.onLoad();
    } catch (error) {
      this.failures.set(item.key, performance.now() + this.options.retryAfter);
      this.onFailure(`${item.url}: ${error.message}`);
    } finally {
      this.inFlight.delete(item.key);
      this.pump();
    }
  }

  forget(key, bitmap) {
    bitmap.close();
    const [palette, , z, x, y] = key.split("/");
    for (const name of [`${z}/${x}/${y}`, `${palette}/${z}/${x}/${y}`]) {
      if (this.latest.get(name) === key) this.latest.delete(name);
    }
  }
}
