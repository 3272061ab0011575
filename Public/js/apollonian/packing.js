// Loads a packing in the server's compact form (docs/apollonian.md): a 16-byte header
// ("PFSP", count, outer radius, version, little-endian), count x (x, y, z, r) float32, then
// count levels as bytes. Reports progress as the body arrives.

/** The header's magic bytes and the one version this reader knows. */
const magic = "PFSP";
const version = 1;

/** The URL of `level`'s packing in a unit sphere: the surface shell, or every sphere. */
export function packingURL(level, surface) {
  return `/api/spheres/1/${level}.bin${surface ? "?surface=1" : ""}`;
}

/**
 * Fetches and reads one packing; `onProgress(fraction)` gets values from 0 to 1 while the body
 * arrives. Resolves to `{count, radius, spheres: Float32Array (x, y, z, r per sphere),
 * levels: Uint8Array}`.
 */
export async function loadPacking(level, surface, { signal, onProgress } = {}) {
  const response = await fetch(packingURL(level, surface), { signal });
  if (!response.ok) throw new Error(`the server answered ${response.status} for level ${level}`);
  const total = Number(response.headers.get("Content-Length")) || 0;
  const bytes = await readAll(response, total, onProgress);
  return parsePacking(bytes.buffer);
}

/** Reads the body, in chunks when the browser streams it, reporting the fraction read. */
async function readAll(response, total, onProgress) {
  if (!response.body || !total) {
    const buffer = new Uint8Array(await response.arrayBuffer());
    onProgress?.(1);
    return buffer;
  }
  const out = new Uint8Array(total);
  const reader = response.body.getReader();
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (received + value.length > total) throw new Error("the body is longer than announced");
    out.set(value, received);
    received += value.length;
    onProgress?.(received / total);
  }
  if (received !== total) throw new Error("the body ended early");
  return out;
}

/** Views the buffer's floats and levels without copying (the browser must be little-endian). */
export function parsePacking(buffer) {
  const view = new DataView(buffer);
  const head = String.fromCharCode(...new Uint8Array(buffer, 0, 4));
  if (head !== magic) throw new Error("not a sphere packing");
  if (view.getUint32(12, true) !== version) throw new Error("unknown packing version");
  const count = view.getUint32(4, true);
  if (buffer.byteLength !== 16 + 17 * count) throw new Error("the packing has the wrong length");
  return {
    count,
    radius: view.getFloat32(8, true),
    spheres: new Float32Array(buffer, 16, count * 4),
    levels: new Uint8Array(buffer, 16 + 16 * count, count),
  };
}
