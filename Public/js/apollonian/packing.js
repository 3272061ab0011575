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
  const bytes = await readAll(response, onProgress);
  return parsePacking(bytes.buffer);
}

/**
 * Reads the body in chunks, reporting the fraction read. The total comes from the count in the
 * header (16 + 17 count bytes), so progress is right whether or not the body came gzipped.
 */
async function readAll(response, onProgress) {
  if (!response.body) {
    const whole = new Uint8Array(await response.arrayBuffer());
    onProgress?.(1);
    return whole;
  }
  const reader = response.body.getReader();
  const chunks = [];
  let received = 0;
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    if (!total && received >= 8) {
      total = 16 + 17 * new DataView(join(chunks, 8).buffer).getUint32(4, true);
    }
    if (total) onProgress?.(Math.min(1, received / total));
  }
  return join(chunks, received);
}

/** The first `length` bytes of `chunks`, in one array. */
function join(chunks, length) {
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    if (offset >= length) break;
    const part = chunk.subarray(0, length - offset);
    out.set(part, offset);
    offset += part.length;
  }
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
