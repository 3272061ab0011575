// Draws a view on the explorer's square canvas: the tiles of the best level, and for each tile
// still loading the nearest cached ancestor (scaled up) and any cached children, so zooming
// shows a coarse picture at once that sharpens as tiles arrive; then the seed's cross-hair.

import { autoIterations, coveringTiles, idealLevel, tiles } from "./geometry.js";

/** Options of the picture. */
const options = {
  background: "#0c0e13", // outside the seed's window, where there are no tiles
  crossHair: "#ffffff", // the seed's white lines between the quadrants
  crossHairShadow: "rgba(0, 0, 0, 0.35)", // a faint edge so the lines show on light palettes
  quadrantFont: "600 %px system-ui, sans-serif", // the quadrant numbers (% is the size, px)
  quadrantSize: 0.04, // the numbers' height as a share of the canvas side
  quadrantFill: "rgba(255, 255, 255, 0.85)", // the numbers, with the cross-hair's shadow
  ancestorDepth: 10, // levels to look up for a cached coarse tile
  coarseStep: 3, // levels above the wanted one fetched first when nothing coarse is cached
};

/**
 * The `auto` palette: the seed's classic colours (f = count / cap) while the cap is at most
 * `classicUpTo`, where they still spread over the view; deeper, every pixel's count is a
 * sliver of a large cap and classic turns one flat blue, so a smooth palette (banded by the
 * smooth count, independent of the cap) shows the structure.
 */
export const autoPalette = { classicUpTo: 1000, deep: "ultra" };

/** The palette a tile is asked for: `palette`, with `auto` resolved for `iterations`. */
export function tilePalette(palette, iterations) {
  if (palette !== "auto") return palette;
  return iterations <= autoPalette.classicUpTo ? "classic" : autoPalette.deep;
}

export class Renderer {
  /** Draws on `canvas` (sized by the caller) from the tiles in `store`. */
  constructor(canvas, store) {
    this.canvas = canvas;
    this.store = store;
    this.context = canvas.getContext("2d", { alpha: false });
  }

  /** The tile parameters at `level` for a state's palette and iteration choice. */
  static params(state, level) {
    const iterations = state.iterations ?? autoIterations(level);
    return { palette: tilePalette(state.palette, iterations), iterations };
  }

  /**
   * Draws `view` with `state`'s palette and iterations; `bias` (levels) adjusts the detail.
   * Returns `{level, complete}`: the tile level used and whether every tile of it was drawn.
   */
  draw(view, state, bias, dpr) {
    const size = this.canvas.width;
    const context = this.context;
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = "medium";
    context.fillStyle = options.background;
    context.fillRect(0, 0, size, this.canvas.height);

    const level = this.level(view, bias);
    const params = Renderer.params(state, level);
    let complete = true;
    for (const tile of coveringTiles(view, level, size)) {
      const bitmap = this.store.exact(tile, params);
      if (bitmap) {
        this.blit(bitmap, 0, 0, tiles.size, tile);
      } else {
        complete = false;
        this.drawStandIn(tile, params.palette);
      }
    }
    this.drawCrossHair(size, dpr);
    return { level, complete };
  }

  /**
   * The tiles to fetch for `view`, most urgent first: its tiles nearest the centre first, and
   * before them a few coarse tiles when some of its tiles have nothing cached to stand in.
   */
  plan(view, state, bias) {
    const size = this.canvas.width;
    const level = this.level(view, bias);
    const params = Renderer.params(state, level);
    const covering = coveringTiles(view, level, size);
    const wanted = covering.map((tile) => ({ tile, params }));
    const bare = covering.some(
      (tile) => !this.store.exact(tile, params) && !this.hasStandIn(tile, params.palette));
    if (bare && level > 0) {
      const coarse = Math.max(0, level - options.coarseStep);
      const coarseParams = Renderer.params(state, coarse);
      const first = coveringTiles(view, coarse, size);
      wanted.unshift(...first.map((tile) => ({ tile, params: coarseParams })));
    }
    return wanted;
  }

  /** The tile level drawn for `view`: the ideal one, no deeper than the server goes. */
  level(view, bias) {
    return Math.min(idealLevel(view.zoom, this.canvas.width, bias), tiles.maxZoom);
  }

  /** Draws a cached ancestor and any cached children in place of `tile`. */
  drawStandIn(tile, palette) {
    const ancestor = this.ancestor(tile, palette);
    if (ancestor) this.blit(ancestor.bitmap, ancestor.sx, ancestor.sy, ancestor.part, tile);
    const half = tile.side / 2;
    for (const child of this.children(tile, palette)) {
      const left = tile.left + child.dx * half;
      const top = tile.top + child.dy * half;
      this.blit(child.bitmap, 0, 0, tiles.size, { left, top, side: half });
    }
  }

  /** Whether something cached can be drawn in place of `tile`. */
  hasStandIn(tile, palette) {
    return this.ancestor(tile, palette) !== null || this.children(tile, palette).length > 0;
  }

  /** The nearest cached ancestor of `tile` and the square of it that covers `tile`, or null. */
  ancestor(tile, palette) {
    for (let up = 1; up <= Math.min(options.ancestorDepth, tile.z); up++) {
      // NB: columns and rows are BigInt: past level 53 they are no longer exact as Numbers.
      const scale = 1n << BigInt(up);
      const bitmap = this.store.any(tile.z - up, tile.x / scale, tile.y / scale, palette);
      if (!bitmap) continue;
      const part = tiles.size / 2 ** up;
      const sx = Number(tile.x % scale) * part;
      return { bitmap, part, sx, sy: Number(tile.y % scale) * part };
    }
    return null;
  }

  /** The cached children of `tile` one level down, each with its quarter (dx, dy). */
  children(tile, palette) {
    const found = [];
    for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
      const bitmap = this.store.any(
        tile.z + 1, 2n * tile.x + BigInt(dx), 2n * tile.y + BigInt(dy), palette);
      if (bitmap) found.push({ bitmap, dx, dy });
    }
    return found;
  }

  /** Draws the square (sx, sy, part) of `bitmap` over the screen square of `target`. */
  blit(bitmap, sx, sy, part, target) {
    // NB: edges rounded to whole device pixels, or neighbouring tiles leave hairline seams.
    const x0 = Math.round(target.left);
    const y0 = Math.round(target.top);
    const x1 = Math.round(target.left + target.side);
    const y1 = Math.round(target.top + target.side);
    this.context.drawImage(bitmap, sx, sy, part, part, x0, y0, x1 - x0, y1 - y0);
  }

  drawCrossHair(size, dpr) {
    const context = this.context;
    const width = Math.max(1, Math.round(dpr));
    const middle = Math.round((size - width) / 2);
    context.fillStyle = options.crossHairShadow;
    context.fillRect(middle - 1, 0, width + 2, size);
    context.fillRect(0, middle - 1, size, width + 2);
    context.fillStyle = options.crossHair;
    context.fillRect(middle, 0, width, size);
    context.fillRect(0, middle, size, width);
    this.drawQuadrantNumbers(size);
  }

  /** The seed's quadrant numbers beside the cross-hair's centre, so a journey such as 1-4-4-1
   * can be followed: 1 top left, 2 top right, 3 bottom left, 4 bottom right. */
  drawQuadrantNumbers(size) {
    const context = this.context;
    const height = Math.max(10, Math.round(size * options.quadrantSize));
    const gap = height * 0.8;
    const middle = size / 2;
    context.font = options.quadrantFont.replace("%", String(height));
    context.textBaseline = "middle";
    context.textAlign = "center";
    context.lineWidth = Math.max(2, height / 6);
    context.strokeStyle = options.crossHairShadow;
    context.fillStyle = options.quadrantFill;
    for (const [number, dx, dy] of [["1", -1, -1], ["2", 1, -1], ["3", -1, 1], ["4", 1, 1]]) {
      const x = middle + dx * gap;
      const y = middle + dy * gap;
      context.strokeText(number, x, y);
      context.fillText(number, x, y);
    }
  }
}
