// Mandelbrot explorer (seed "iOS - Mandelbrot"): the page's one module script. The explorer
// itself lives in ../mandelbrot/; this starts it on the page's `.explorer` section.

import { Explorer } from "../mandelbrot/explorer.js";

const root = document.querySelector(".explorer");
if (root) new Explorer(root);
