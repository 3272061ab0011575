/* A plain C reference for the Apollonian packing the server computes (Sources/Apollonian):
 * Peikert's special coordinates, children by reflecting one coordinate, kept when the
 * reflected coordinate is the first minimum and the radius is at least 0.001; generation by
 * generation. It prints, per level asked, the count, the compute time and the time to write
 * the seed's JSON (printf "%.17g") and the compact binary form into memory.
 *
 *   cc -O2 -o /tmp/apollonian-ref Benchmarks/apollonian/reference.c -lm
 *   /tmp/apollonian-ref 7 8 10
 *
 * With a file name after the levels (`/tmp/apollonian-ref 7 out.bin`) it also writes the last
 * level's binary form there: it is byte for byte the server's `/api/spheres/1/7.bin`.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { int64_t v[5]; int made; } Node;
typedef struct { double x, y, z, r; uint8_t level; } Ball;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static double curvature(const int64_t *v) {
  return (double)(v[1] + v[2] + v[3] + v[4]) * (1 + sqrt(6.0) / 2) - (double)v[0];
}

static Ball ball(const int64_t *v, int level) {
  double k = curvature(v), h = sqrt(2.0) / 2;
  /* + 0.0 turns the outer sphere's -0 into 0, as the server does. */
  Ball b = {(double)(-v[1] + v[2] + v[3] - v[4]) * h / k + 0.0, (double)(v[1] - v[2] + v[3] - v[4]) * h / k + 0.0,
            (double)(v[1] + v[2] - v[3] - v[4]) * h / k + 0.0, 1 / k, (uint8_t)level};
  return b;
}

static int first_minimum(const int64_t *v, int i) {
  for (int j = 0; j < 5; j++) {
    if (j == i) continue;
    if (j < i ? v[j] <= v[i] : v[j] < v[i]) return 0;
  }
  return 1;
}

/* Fills `out` (grown as needed) with the packing; returns the count. */
static size_t pack(int level, double min_radius, Ball **out) {
  size_t cap = 1024, n = 0, fn = 0, fcap = 8;
  Ball *balls = malloc(cap * sizeof *balls);
  Node *frontier = malloc(fcap * sizeof *frontier);
  for (int k = 0; k < 5; k++) {
    Node s = {{0, 0, 0, 0, 0}, k};
    s.v[k] = 1;
    balls[n++] = ball(s.v, k == 0 ? 0 : 1);
    frontier[fn++] = s;
  }
  for (int g = 1; g <= level && fn > 0; g++) {
    size_t nn = 0, ncap = fn * 4 + 1;
    Node *next = malloc(ncap * sizeof *next);
    for (size_t f = 0; f < fn; f++) {
      for (int i = 0; i < 5; i++) {
        if (g == 1 ? i != frontier[f].made : i == frontier[f].made) continue;
        Node c;
        int64_t p = frontier[f].v[i];
        for (int j = 0; j < 5; j++) c.v[j] = frontier[f].v[j] + p;
        c.v[i] = -p;
        c.made = i;
        if (!first_minimum(c.v, i)) continue;
        if (fabs(1 / curvature(c.v)) < min_radius) continue;
        if (n == cap) balls = realloc(balls, (cap *= 2) * sizeof *balls);
        balls[n++] = ball(c.v, g + 1);
        next[nn++] = c;
      }
    }
    free(frontier);
    frontier = next;
    fn = nn;
  }
  free(frontier);
  *out = balls;
  return n;
}

int main(int argc, char **argv) {
  const char *dump = argc > 2 && !strchr("0123456789", argv[argc - 1][0]) ? argv[--argc] : NULL;
  for (int a = 1; a < argc; a++) {
    int level = atoi(argv[a]);
    Ball *balls;
    double t0 = now();
    size_t n = pack(level, 0.001, &balls);
    double t1 = now();
    size_t cap = n * 100 + 16, len = 0;
    char *json = malloc(cap);
    json[len++] = '[';
    for (size_t i = 0; i < n; i++) {
      len += snprintf(json + len, cap - len, "%s{\"X\":%.17g,\"Y\":%.17g,\"Z\":%.17g,\"R\":%.17g,\"L\":%d}",
                      i ? "," : "", balls[i].x, balls[i].y, balls[i].z, balls[i].r, balls[i].level);
      if (cap - len < 200) json = realloc(json, cap *= 2);
    }
    json[len++] = ']';
    double t2 = now();
    uint8_t *bin = malloc(16 + 17 * n);
    memcpy(bin, "PFSP", 4);
    uint32_t count = (uint32_t)n, version = 1;
    float radius = 1;
    memcpy(bin + 4, &count, 4);
    memcpy(bin + 8, &radius, 4);
    memcpy(bin + 12, &version, 4);
    for (size_t i = 0; i < n; i++) {
      float f[4] = {(float)balls[i].x, (float)balls[i].y, (float)balls[i].z, (float)balls[i].r};
      memcpy(bin + 16 + 16 * i, f, 16);
      bin[16 + 16 * n + i] = balls[i].level;
    }
    double t3 = now();
    if (dump && a == argc - 1) {
      FILE *out = fopen(dump, "wb");
      if (!out || fwrite(bin, 1, 16 + 17 * n, out) != 16 + 17 * n || fclose(out) != 0) {
        perror(dump);
        return 1;
      }
    }
    printf("level %d: %zu spheres, compute %.1f ms, json %.1f ms (%zu bytes), binary %.1f ms (%zu bytes)\n",
           level, n, (t1 - t0) * 1e3, (t2 - t1) * 1e3, len, (t3 - t2) * 1e3, 16 + 17 * n);
    free(json);
    free(bin);
    free(balls);
  }
  return 0;
}
