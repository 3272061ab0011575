// The explorer's pure geometry: views of the complex plane, the seed's quadrant zoom, which
// tiles of the server's quadtree cover a view, and how many iterations they get. No DOM here.
//
// A view is `{x, y, zoom}`: the centre (real, imaginary) and a level; the visible square's side
// is 3 / 2^zoom. Zoom 0 is the seed's window, x in [-2, 1] and y in [-1.5, 1.5], which is also
// tile 0/0/0; a quadrant tap adds one to the zoom, so the view after a journey of k taps from the
// start is exactly the tile k/X/Y.
//
// Doubles hold a centre only to about 1e-16, so deeper views (zoom past `limits.frameFrom`) also
// carry a `frame`: a tile `{level, x, y}` a few levels above the view, with BigInt column and
// row, and then `x` and `y` are the centre's offset from the frame tile's top left corner, in
// complex units times 2^level (the frame tile spans 0..3 and -3..0). The frame follows the view
// ("re-anchoring"), so offsets stay small and exact at any depth.

/** The quadtree served at `/tiles/mandelbrot/Z/X/Y.png` (see `TileCoordinate.swift`). */
export const tiles = {
  size: 256, // px per tile side
  maxZoom: 2000, // the deepest level the server renders (`TileCoordinate.maxZoom`)
  doubleLimit: 42, // the deepest level drawn with plain doubles; perturbation below
  left: -2, // real part of the window's left edge
  top: 1.5, // imaginary part of the window's top edge
  side: 3, // side of the window (tile 0/0/0) in the complex plane
};

/** The seed's start view: the whole window. */
export const startView = Object.freeze({ x: -0.5, y: 0, zoom: 0 });

/** Limits of a view. */
export const limits = {
  minZoom: 0, // the whole window; zooming out further shows nothing new
  maxZoom: 1990, // levels; the view's tiles, a few levels deeper, are still served
  frameFrom: 32, // levels; deeper views keep their centre relative to a frame tile
  frameLag: 8, // levels the frame tile sits above the view when it is (re)placed
  frameSlack: [4, 24], // levels; the frame stays while the view is this far below it
};

/** The side of a view's square at `zoom`, in the complex plane. */
export function sideAt(zoom) {
  return tiles.side / 2 ** zoom;
}

/** The level of a view's frame (0 without one). */
export function frameLevel(view) {
  return view.frame ? view.frame.level : 0;
}

/** The side of a view's square in its own units (complex units times 2^frame level). */
export function viewSide(view) {
  return tiles.side * 2 ** (frameLevel(view) - view.zoom);
}

/**
 * Where a view's centre is in frame tiles: `{level, fx, fy, u, v}`, the centre being u tiles
 * right of and v tiles below the top left corner of tile (level, fx, fy). Without a frame,
 * the frame is tile 0/0/0.
 */
export function position(view) {
  if (view.frame) {
    const { level, x, y } = view.frame;
    return { level, fx: x, fy: y, u: view.x / tiles.side, v: -view.y / tiles.side };
  }
  return {
    level: 0,
    fx: 0n,
    fy: 0n,
    u: (view.x - tiles.left) / tiles.side,
    v: (tiles.top - view.y) / tiles.side,
  };
}

/** The index at level (frame level + k) of the tile holding frame coordinate f + u. */
export function indexAt(f, u, k) {
  if (k >= 0) return (f << BigInt(k)) + BigInt(Math.floor(u * 2 ** k));
  return (f + BigInt(Math.floor(u))) >> BigInt(-k);
}

/** Where the corner of tile `index` at level (frame level + k) is, in frame tiles from f. */
export function offsetOf(index, f, k) {
  if (k >= 0) return Number(index - (f << BigInt(k))) / 2 ** k;
  return Number((index << BigInt(-k)) - f);
}

/** `view` with its centre kept relative to a frame tile at `level` (0: no frame). */
export function reframe(view, level) {
  const p = position(view);
  if (level === 0) {
    const scale = 2 ** -p.level;
    return {
      x: tiles.left + tiles.side * (Number(p.fx) + p.u) * scale,
      y: tiles.top - tiles.side * (Number(p.fy) + p.v) * scale,
      zoom: view.zoom,
    };
  }
  const k = level - p.level;
  const fx = indexAt(p.fx, p.u, k);
  const fy = indexAt(p.fy, p.v, k);
  return {
    x: tiles.side * (p.u - offsetOf(fx, p.fx, k)) * 2 ** k,
    y: -tiles.side * (p.v - offsetOf(fy, p.fy, k)) * 2 ** k,
    zoom: view.zoom,
    frame: { level, x: fx, y: fy },
  };
}

/** `view` with a frame that suits its zoom: none when shallow, else a few levels above it. */
export function normalizeView(view) {
  const { frameFrom, frameLag, frameSlack } = limits;
  const current = frameLevel(view);
  if (view.zoom <= frameFrom) return current === 0 ? view : reframe(view, 0);
  const below = view.zoom - current;
  if (current > 0 && below >= frameSlack[0] && below <= frameSlack[1]) return view;
  return reframe(view, Math.floor(view.zoom) - frameLag);
}

/** Clamps a view into the limits: zoom in range, centre inside the seed's window. */
export function clampView(view) {
  const zoom = Math.min(limits.maxZoom, Math.max(limits.minZoom, view.zoom));
  if (view.frame) return normalizeView({ ...view, zoom });
  const x = Math.min(tiles.left + tiles.side, Math.max(tiles.left, view.x));
  const y = Math.min(tiles.top, Math.max(tiles.top - tiles.side, view.y));
  return normalizeView({ x, y, zoom });
}

/**
 * The view after a tap on quadrant `q` of `view`: 1 top left, 2 top right, 3 bottom left,
 * 4 bottom right (the seed's numbering). Exact in doubles: the offsets are powers of two.
 */
export function quadrantView(view, q) {
  const quarter = viewSide(view) / 4;
  const right = q === 2 || q === 4;
  const upper = q === 1 || q === 2;
  return normalizeView({
    ...view,
    x: view.x + (right ? quarter : -quarter),
    y: view.y + (upper ? quarter : -quarter),
    zoom: view.zoom + 1,
  });
}

/** The view after a journey (an array of quadrants 1-4) starting from `anchor`. */
export function journeyView(anchor, journey) {
  return journey.reduce(quadrantView, anchor);
}

/** Which quadrant (1-4) a point in a square of side `size` falls in; (0, 0) is the top left. */
export function quadrantAt(px, py, size) {
  const column = px < size / 2 ? 0 : 1;
  const row = py < size / 2 ? 0 : 1;
  return 1 + column + 2 * row;
}

/** The point under pixel (px, py) of a square canvas `size` px wide showing `view`, in the
 * view's own units. */
export function pointAt(view, px, py, size) {
  const pixel = viewSide(view) / size;
  return { x: view.x + (px - size / 2) * pixel, y: view.y - (py - size / 2) * pixel };
}

/**
 * The view zoomed by `levels` (positive zooms in) that keeps the complex point under pixel
 * (px, py) where it is, so wheel and pinch zoom about the pointer.
 */
export function zoomAbout(view, levels, px, py, size) {
  const zoom = Math.min(limits.maxZoom, Math.max(limits.minZoom, view.zoom + levels));
  const fixed = pointAt(view, px, py, size);
  const shrink = 2 ** (view.zoom - zoom);
  return clampView({
    ...view,
    x: fixed.x + (view.x - fixed.x) * shrink,
    y: fixed.y + (view.y - fixed.y) * shrink,
    zoom,
  });
}

/** The view moved so the picture follows a drag of (dx, dy) px on a canvas `size` px wide. */
export function panBy(view, dx, dy, size) {
  const pixel = viewSide(view) / size;
  return clampView({ ...view, x: view.x - dx * pixel, y: view.y + dy * pixel });
}

/**
 * The tile level whose pixels best match a canvas of `devicePixels` showing `zoom`: the level
 * where one tile pixel is at most one screen pixel, allowing 15% magnification before going
 * deeper; `bias` (levels) trades detail for requests. Not clamped to the server's depth.
 */
export function idealLevel(zoom, devicePixels, bias = 0) {
  const exact = zoom + Math.log2(devicePixels / tiles.size) + bias;
  return Math.max(0, Math.ceil(exact - 0.2));
}

/** How the iteration cap grows with the tile level when the user has not chosen one. */
export const autoIterationRule = {
  base: 200, // the seed's cap
  flatUntil: 5, // tile level up to which the seed's cap is kept (the first taps of a journey)
  doublingLevels: 7, // levels per doubling after that: about 7,800 at level 42
  deepFrom: 42, // tile level after which the cap grows linearly instead
  perDeepLevel: 40, // iterations added per level past `deepFrom`: 23,800 at level 442
  max: 100000, // the server's largest cap
};

/**
 * The iteration cap for tiles of `level` when the user has not chosen one, rounded to tens:
 * boundaries need more iterations the deeper one looks.
 */
export function autoIterations(level) {
  const { base, flatUntil, doublingLevels, deepFrom, perDeepLevel, max } = autoIterationRule;
  const shallow = Math.min(level, deepFrom);
  const raw = base * 2 ** (Math.max(0, shallow - flatUntil) / doublingLevels);
  const deep = Math.max(0, level - deepFrom) * perDeepLevel;
  return Math.min(max, Math.round(raw / 10) * 10 + deep);
}

/**
 * The tiles of `level` that cover `view` on a canvas `size` px wide, nearest the centre first,
 * each `{z, x, y, left, top, side}` (x and y BigInt) with its screen rectangle in canvas
 * pixels. Tiles outside the seed's window do not exist and are left out.
 */
export function coveringTiles(view, level, size) {
  const p = position(view);
  const k = level - p.level;
  const span = 2 ** (p.level - view.zoom); // the view's side in frame tiles
  const perTile = size / span; // px per frame tile
  const left = p.u - span / 2;
  const top = p.v - span / 2;
  const last = (1n << BigInt(level)) - 1n;
  const range = (f, from) => {
    const first = indexAt(f, from, k);
    let end = indexAt(f, from + span, k);
    if (offsetOf(end, f, k) >= from + span) end -= 1n;
    return [first < 0n ? 0n : first, end > last ? last : end];
  };
  const [firstX, lastX] = range(p.fx, left);
  const [firstY, lastY] = range(p.fy, top);
  const side = 2 ** -k * perTile;
  const found = [];
  for (let y = firstY; y <= lastY; y++) {
    for (let x = firstX; x <= lastX; x++) {
      found.push({
        z: level,
        x,
        y,
        left: (offsetOf(x, p.fx, k) - left) * perTile,
        top: (offsetOf(y, p.fy, k) - top) * perTile,
        side,
      });
    }
  }
  const middle = size / 2;
  const distance = (t) => Math.hypot(t.left + t.side / 2 - middle, t.top + t.side / 2 - middle);
  return found.sort((a, b) => distance(a) - distance(b));
}

/** Whether two views are the same to within a millionth of the smaller view's side. */
export function sameView(a, b) {
  if (a.zoom !== b.zoom && Math.abs(a.zoom - b.zoom) > 1e-9) return false;
  const level = frameLevel(a);
  const c = frameLevel(b) === level && samePlace(a.frame, b.frame) ? b : reframe(b, level);
  if (!samePlace(a.frame, c.frame)) return false;
  const tolerance = viewSide(a) * 1e-6;
  return Math.abs(a.x - c.x) <= tolerance && Math.abs(a.y - c.y) <= tolerance;
}

function samePlace(f, g) {
  if (!f || !g) return !f && !g;
  return f.level === g.level && f.x === g.x && f.y === g.y;
}

/** The depth of a view as text: its side in the complex plane, like `3.0e-123`. */
export function depthText(zoom) {
  const exponent = Math.log10(tiles.side) - zoom * Math.log10(2);
  const power = Math.floor(exponent);
  const mantissa = 10 ** (exponent - power);
  return `${mantissa.toFixed(1)}e${power}`;
}
