// Draws an inline SVG onto a canvas, for the embed protocol's `capture` on SVG pages. Styles
// that come from the page's stylesheets (class rules) are copied onto the copy, so the
// picture looks as it does on the page.

/** Style properties copied from the page onto every element of the copy. */
const copiedStyles = ["fill", "stroke", "stroke-width", "opacity", "display"];

/**
 * A canvas holding `svg` drawn at `scale` times its viewBox size, once its running CSS
 * transitions have ended (the picture as it settles); resolves once drawn.
 */
export async function svgToCanvas(svg, scale = 2) {
  const transitions = svg.getAnimations({ subtree: true }).filter((a) => a instanceof CSSTransition);
  await Promise.allSettled(transitions.map((transition) => transition.finished));
  const box = svg.viewBox.baseVal;
  const width = Math.round((box?.width || svg.clientWidth) * scale);
  const height = Math.round((box?.height || svg.clientHeight) * scale);
  const copy = svg.cloneNode(true);
  const originals = [svg, ...svg.querySelectorAll("*")];
  const copies = [copy, ...copy.querySelectorAll("*")];
  originals.forEach((original, index) => {
    const computed = getComputedStyle(original);
    for (const name of copiedStyles) {
      copies[index].style.setProperty(name, computed.getPropertyValue(name));
    }
  });
  copy.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  copy.setAttribute("width", String(width));
  copy.setAttribute("height", String(height));
  copy.removeAttribute("class");
  const text = new XMLSerializer().serializeToString(copy);
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  canvas.getContext("2d").drawImage(image, 0, 0, width, height);
  return canvas;
}
