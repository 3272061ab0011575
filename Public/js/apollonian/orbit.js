// The camera: it looks at the packing's centre from `distance` (outer radii), after turning
// the packing by `yaw` about y and `pitch` about x. Turning goes on by itself about y, and a
// drag leaves a spin that dies away.

/** Options, with units. */
export const orbitOptions = {
  spinRate: 0.35, // rad/s about y when turning on its own
  inertiaTime: 0.8, // s for a released drag's spin to fall to 1/e
  dragRate: 0.008, // rad per CSS px dragged
  keyStep: 0.12, // rad per arrow key press
  zoomStep: 1.15, // distance factor per + or - press
  minDistance: 1.9, // outer radii from the centre
  maxDistance: 12, // outer radii
  maxPitch: 1.45, // rad either way
  fieldOfView: 0.7, // rad, vertical
};

const start = { yaw: 0.5, pitch: 0.3, distance: 3.3 };

export class Orbit {
  constructor() {
    this.reset();
  }

  reset() {
    Object.assign(this, start);
    this.velocity = { yaw: 0, pitch: 0 }; // rad/s left over from a drag
  }

  /** Advances by `dt` seconds; returns whether anything moved. */
  advance(dt, spinning) {
    const decay = Math.exp(-dt / orbitOptions.inertiaTime);
    let moved = false;
    if (Math.abs(this.velocity.yaw) + Math.abs(this.velocity.pitch) > 1e-3) {
      this.turn(this.velocity.yaw * dt, this.velocity.pitch * dt);
      this.velocity.yaw *= decay;
      this.velocity.pitch *= decay;
      moved = true;
    }
    if (spinning) {
      this.turn(orbitOptions.spinRate * dt, 0);
      moved = true;
    }
    return moved;
  }

  turn(yaw, pitch) {
    this.yaw = (this.yaw + yaw) % (2 * Math.PI);
    const limit = orbitOptions.maxPitch;
    this.pitch = Math.max(-limit, Math.min(limit, this.pitch + pitch));
  }

  /** Multiplies the distance by `factor` (< 1 comes closer), within the limits. */
  zoom(factor) {
    const { minDistance, maxDistance } = orbitOptions;
    this.distance = Math.max(minDistance, Math.min(maxDistance, this.distance * factor));
  }

  /** The eye-space transform, column-major: translate(0, 0, -distance) Rx(pitch) Ry(yaw). */
  view() {
    const [cy, sy] = [Math.cos(this.yaw), Math.sin(this.yaw)];
    const [cp, sp] = [Math.cos(this.pitch), Math.sin(this.pitch)];
    return new Float32Array([
      cy, sp * sy, -cp * sy, 0,
      0, cp, sp, 0,
      sy, -sp * cy, cp * cy, 0,
      0, 0, -this.distance, 1,
    ]);
  }

  /** A perspective projection for a canvas `aspect` (width / height), column-major. */
  projection(aspect) {
    const f = 1 / Math.tan(orbitOptions.fieldOfView / 2);
    const [near, far] = [0.05, 40];
    const fx = aspect >= 1 ? f / aspect : f;
    const fy = aspect >= 1 ? f : f * aspect;
    return new Float32Array([
      fx, 0, 0, 0,
      0, fy, 0, 0,
      0, 0, (far + near) / (near - far), -1,
      0, 0, (2 * far * near) / (near - far), 0,
    ]);
  }
}
