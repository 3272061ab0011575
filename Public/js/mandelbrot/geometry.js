// The explorer's pure geometry: views of the complex plane, the seed's quadrant zoom, which
// tiles of the server's quadtree cover a view, and how many iterations they get. No DOM here.
//
// A view is `{x, y, zoom}`: the centre (real, imaginary) and a level; the visible square's side
// is 3 / 2^zoom. Zoom 0 is the seed's window, x in [-2, 1] and y in [-1.5, 1.5], which is also
// tile 0/0/0; a quadrant tap adds one to the zoom, so the view after a journey of k taps from the
// start is exactly the tile k/X/Y.

/** The quadtree served at `/tiles/mandelbrot/Z/X/Y.png` (see `TileCoordinate.swift`). */
export const tiles = {
  size: 256, // px per tile side
  maxZoom: 42, // the deepest level the server renders; deeper is a 404
  left: -2, // real part of the window's left edge
  top: 1.5, // imaginary part of the window's top edge
  side: 3, // side of the window (tile 0/0/0) in the complex plane
};

/** The seed's start view: the whole window. */
export const startView = Object.freeze({ x: -0.5, y: 0, zoom: 0 });

/** Limits of a view. */
export const limits = {
  minZoom: 0, // the whole window; zooming out further shows nothing new
  maxZoom: tiles.maxZoom, // the view is then one deepest tile
  // NB: a pixel of a level-42 tile is 3/2^50 ≈ 2.7e-15, about 1e-15 relative to |c| near the
  // set: past that, neighbouring pixels are a few ulps apart and doubles draw blocky noise.
  relativePixel: 1e-15, // smallest screen pixel / |c| drawn without the precision notice
};

/** The side of a view's square at `zoom`, in the complex plane. */
export function sideAt(zoom) {
  return tiles.side / 2 ** zoom;
}

/** Clamps a view into the limits: zoom in range, centre inside the seed's window. */
export function clampView(view) {
  const zoom = Math.min(limits.maxZoom, Math.max(limits.minZoom, view.zoom));
  const x = Math.min(tiles.left + tiles.side, Math.max(tiles.left, view.x));
  const y = Math.min(tiles.top, Math.max(tiles.top - tiles.side, view.y));
  return { x, y, zoom };
}

/**
 * The view after a tap on quadrant `q` of `view`: 1 top left, 2 top right, 3 bottom left,
 * 4 bottom right (the seed's numbering). Exact in doubles: the offsets are powers of two.
 */
export function quadrantView(view, q) {
  const quarter = sideAt(view.zoom) / 4;
  const right = q === 2 || q === 4;
  const upper = q === 1 || q === 2;
  return {
    x: view.x + (right ? quarter : -quarter),
    y: view.y + (upper ? quarter : -quarter),
    zoom: view.zoom + 1,
  };
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

/** The complex point under pixel (px, py) of a square canvas `size` px wide showing `view`. */
export function pointAt(view, px, py, size) {
  const pixel = sideAt(view.zoom) / size;
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
    x: fixed.x + (view.x - fixed.x) * shrink,
    y: fixed.y + (view.y - fixed.y) * shrink,
    zoom,
  });
}

/** The view moved so the picture follows a drag of (dx, dy) px on a canvas `size` px wide. */
export function panBy(view, dx, dy, size) {
  const pixel = sideAt(view.zoom) / size;
  return clampView({ x: view.x - dx * pixel, y: view.y + dy * pixel, zoom: view.zoom });
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
};

/**
 * The iteration cap for tiles of `level` when the user has not chosen one, rounded to tens:
 * boundaries need more iterations the deeper one looks.
 */
export function autoIterations(level) {
  const { base, flatUntil, doublingLevels } = autoIterationRule;
  const raw = base * 2 ** (Math.max(0, level - flatUntil) / doublingLevels);
  return Math.round(raw / 10) * 10;
}

/**
 * The tiles of `level` that cover `view` on a canvas `size` px wide, nearest the centre first,
 * each `{z, x, y, left, top, side}` with its screen rectangle in canvas pixels. Tiles outside
 * the seed's window do not exist and are left out.
 */
export function coveringTiles(view, level, size) {
  const side = sideAt(view.zoom);
  const tileSide = tiles.side / 2 ** level;
  const count = 2 ** level;
  const pixelsPerUnit = size / side;
  const left = view.x - side / 2;
  const top = view.y + side / 2;
  const firstX = Math.max(0, Math.floor((left - tiles.left) / tileSide));
  const lastX = Math.min(count - 1, Math.ceil((left + side - tiles.left) / tileSide) - 1);
  const firstY = Math.max(0, Math.floor((tiles.top - top) / tileSide));
  const lastY = Math.min(count - 1, Math.ceil((tiles.top - (top - side)) / tileSide) - 1);
  const found = [];
  for (let y = firstY; y <= lastY; y++) {
    for (let x = firstX; x <= lastX; x++) {
      const tileLeft = tiles.left + x * tileSide;
      const tileTop = tiles.top - y * tileSide;
      found.push({
        z: level,
        x,
        y,
        left: (tileLeft - left) * pixelsPerUnit,
        top: (top - tileTop) * pixelsPerUnit,
        side: tileSide * pixelsPerUnit,
      });
    }
  }
  const middle = size / 2;
  const distance = (t) => Math.hypot(t.left + t.side / 2 - middle, t.top + t.side / 2 - middle);
  return found.sort((a, b) => distance(a) - distance(b));
}

/**
 * Whether a view on a canvas of `devicePixels` is past what doubles resolve: it needs tiles
 * deeper than the server's last level, or a screen pixel is below 1e-15 of |c| at the centre.
 */
export function beyondPrecision(view, devicePixels, bias = 0) {
  const pixel = sideAt(view.zoom) / devicePixels;
  const magnitude = Math.max(Math.hypot(view.x, view.y), Number.MIN_VALUE);
  const level = idealLevel(view.zoom, devicePixels, bias);
  return level > tiles.maxZoom || pixel / magnitude < limits.relativePixel;
}

/** Whether two views are the same to within a millionth of the smaller view's side. */
export function sameView(a, b) {
  if (a.zoom !== b.zoom && Math.abs(a.zoom - b.zoom) > 1e-9) return false;
  const tolerance = sideAt(Math.max(a.zoom, b.zoom)) * 1e-6;
  return Math.abs(a.x - b.x) <= tolerance && Math.abs(a.y - b.y) <= tolerance;
}
