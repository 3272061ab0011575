// Draws every sphere in one instanced call: each instance is a camera-facing quad just large
// enough for the sphere's outline in perspective, and the fragment shader casts a ray at the
// sphere to find the visible point, its depth and its normal (a sphere impostor).

import { paletteFloats } from "./palette.js";

const vertexShader = `#version 300 es
layout(location = 0) in vec2 corner;
layout(location = 1) in vec4 sphere;
layout(location = 2) in float level;
uniform mat4 view;
uniform mat4 projection;
uniform vec3 palette[12];
out vec3 vPoint;
flat out vec4 vSphere;
flat out vec3 vColour;
void main() {
  // The outer sphere (negative radius) holds the others: it is not drawn.
  if (sphere.w <= 0.0) { gl_Position = vec4(0.0, 0.0, 2.0, 1.0); return; }
  vec3 centre = (view * vec4(sphere.xyz, 1.0)).xyz;
  float distance = length(centre);
  float r = sphere.w;
  // The outline cone from the eye meets the plane through the centre, facing the eye, in a
  // circle of radius r / cos(half-angle).
  float s = r / sqrt(max(1.0 - (r * r) / (distance * distance), 1e-4));
  vec3 w = centre / distance;
  vec3 up = abs(w.y) > 0.99 ? vec3(1.0, 0.0, 0.0) : vec3(0.0, 1.0, 0.0);
  vec3 u = normalize(cross(w, up));
  vec3 v = cross(u, w);
  vPoint = centre + (corner.x * u + corner.y * v) * s;
  vSphere = vec4(centre, r);
  vColour = palette[int(min(level, 11.0))];
  gl_Position = projection * vec4(vPoint, 1.0);
}`;

const fragmentShader = `#version 300 es
precision highp float;
in vec3 vPoint;
flat in vec4 vSphere;
flat in vec3 vColour;
uniform mat4 projection;
uniform vec3 light;
out vec4 colour;
void main() {
  vec3 ray = normalize(vPoint);
  vec3 centre = vSphere.xyz;
  float b = dot(ray, centre);
  float h = b * b - dot(centre, centre) + vSphere.w * vSphere.w;
  if (h < 0.0) discard;
  vec3 hit = ray * (b - sqrt(h));
  vec3 normal = (hit - centre) / vSphere.w;
  vec4 clip = projection * vec4(hit, 1.0);
  gl_FragDepth = 0.5 * clip.z / clip.w + 0.5;
  float diffuse = max(dot(normal, light), 0.0);
  float shine = pow(max(dot(normal, normalize(light - ray)), 0.0), 48.0);
  colour = vec4(vColour * (0.2 + 0.8 * diffuse) + vec3(0.35 * shine), 1.0);
}`;

/** The light's direction in eye space: from the upper left, in front (the seed's key light). */
const light = normalize([-0.45, 0.6, 0.66]);

function normalize(v) {
  const length = Math.hypot(...v);
  return v.map((x) => x / length);
}

/** A WebGL2 sphere renderer on `canvas`, or null when the browser has no WebGL2. */
export function createRenderer(canvas) {
  const gl = canvas.getContext("webgl2", { antialias: true, preserveDrawingBuffer: false });
  if (!gl) return null;
  return new SphereRenderer(gl);
}

class SphereRenderer {
  constructor(gl) {
    this.gl = gl;
    this.kind = "webgl2";
    this.count = 0;
    this.program = link(gl, vertexShader, fragmentShader);
    this.uniforms = Object.fromEntries(
      ["view", "projection", "palette", "light"].map((name) => [
        name,
        gl.getUniformLocation(this.program, name),
      ]),
    );
    this.vao = gl.createVertexArray();
    gl.bindVertexArray(this.vao);
    const corners = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, corners);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
    this.sphereBuffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, this.sphereBuffer);
    gl.enableVertexAttribArray(1);
    gl.vertexAttribPointer(1, 4, gl.FLOAT, false, 0, 0);
    gl.vertexAttribDivisor(1, 1);
    this.levelBuffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, this.levelBuffer);
    gl.enableVertexAttribArray(2);
    gl.vertexAttribPointer(2, 1, gl.UNSIGNED_BYTE, false, 0, 0);
    gl.vertexAttribDivisor(2, 1);
    gl.bindVertexArray(null);
    gl.useProgram(this.program);
    gl.uniform3fv(this.uniforms.palette, paletteFloats());
    gl.uniform3fv(this.uniforms.light, light);
    gl.enable(gl.DEPTH_TEST);
    gl.clearColor(0, 0, 0, 1);
  }

  /** Uploads a packing (`spheres`: x, y, z, r per sphere; `levels`: one byte each). */
  setSpheres({ spheres, levels, count }) {
    const gl = this.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.sphereBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, spheres, gl.STATIC_DRAW);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.levelBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, levels, gl.STATIC_DRAW);
    this.count = count;
  }

  /** Draws with a 4x4 column-major `view` and `projection`. */
  draw(view, projection) {
    const gl = this.gl;
    const canvas = gl.canvas;
    gl.viewport(0, 0, canvas.width, canvas.height);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    if (this.count === 0) return;
    gl.useProgram(this.program);
    gl.uniformMatrix4fv(this.uniforms.view, false, view);
    gl.uniformMatrix4fv(this.uniforms.projection, false, projection);
    gl.bindVertexArray(this.vao);
    gl.drawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, this.count);
    gl.bindVertexArray(null);
  }
}

function link(gl, vertexSource, fragmentSource) {
  const program = gl.createProgram();
  const stages = [
    [gl.VERTEX_SHADER, vertexSource],
    [gl.FRAGMENT_SHADER, fragmentSource],
  ];
  for (const [type, source] of stages) {
    const shader = gl.createShader(type);
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) {
      throw new Error("shader: " + gl.getShaderInfoLog(shader));
    }
    gl.attachShader(program, shader);
  }
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) {
    throw new Error("program: " + gl.getProgramInfoLog(program));
  }
  return program;
}
