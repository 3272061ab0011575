// The tag cloud's look: how big a label is at a depth, and (for pictures: the compare page's
// panes) the cloud drawn on a canvas as the demo page's labels look: the same sizes, fading,
// back-to-front order, colours and halo. The demo page places DOM labels with the same rule.

export const cloudLook = {
  fontPx: 18, // font size of a weight-1 tag at the world's scale, in px
  // Depth shows mostly by fading (the server's opacity) and only a little by size, as
  // TagCanvas does: the server's scale (the seed's, 0.1 at the back to 1 at the front) would
  // shrink a back label to a speck. Shown scale at the back, and the depth scale's range:
  backScale: 0.6,
  depthScale: [0.1, 1],
  text: "#e8eef2", // a label
  link: "#7fc8ff", // a label with a link
  halo: "#101418", // around each label, so a front one reads over those behind
  inside: "#1b2430", // the sphere's middle
};

/** The size a label is drawn at for the server's depth `scale`. */
export function shownScale(scale) {
  const [back, front] = cloudLook.depthScale;
  const depth = Math.min(1, Math.max(0, (scale - back) / (front - back)));
  return cloudLook.backScale + (1 - cloudLook.backScale) * depth;
}

/** Draws the cloud of `hello` (world, tags, sizes) at `frame` (points, scale, opacity,
 * order) on a context in world units. */
export function drawCloud(context, hello, frame) {
  const { width, height } = hello.world;
  const radius = Math.min(width, height) / 2;
  const glow = context.createRadialGradient(width / 2, height * 0.45, 0, width / 2, height / 2, radius);
  glow.addColorStop(0, cloudLook.inside);
  glow.addColorStop(0.7, cloudLook.halo);
  glow.addColorStop(1, cloudLook.halo);
  context.fillStyle = glow;
  context.beginPath();
  context.ellipse(width / 2, height / 2, width / 2, height / 2, 0, 0, Math.PI * 2);
  context.fill();
  context.textAlign = "center";
  context.textBaseline = "middle";
  context.shadowColor = cloudLook.halo;
  context.shadowBlur = 4;
  for (const i of frame.order ?? []) {
    const tag = hello.tags?.[i];
    if (!tag) continue;
    const size = cloudLook.fontPx * (hello.sizes?.[i] ?? 1) * shownScale(frame.scale?.[i] ?? 1);
    context.globalAlpha = frame.opacity?.[i] ?? 1;
    context.fillStyle = tag.url ? cloudLook.link : cloudLook.text;
    context.font = `600 ${size.toFixed(1)}px sans-serif`;
    context.fillText(tag.text ?? String(tag), frame.points[2 * i], frame.points[2 * i + 1]);
  }
  context.globalAlpha = 1;
  context.shadowBlur = 0;
}
