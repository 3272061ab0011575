// Apollonian spheres (seed "3D viewer for our Apollonian service"): the page's one module
// script. The viewer lives in ../apollonian/; this starts it on the page's section.

import { Viewer } from "../apollonian/viewer.js";

const root = document.querySelector("section.demo-apollonian");
if (root) {
  window.playfield = { apollonian: new Viewer(root) };
}
