// The ghost of a high-score run: your holes run beside the best stored run of another
// session, drawn over it in the overlay view (docs/compare.md). The high-score table keeps the
// session of each score (`session` in `GET /api/highscores`, null for older scores).

/** The best high score whose run is kept and is not `mine` (the table is best first), or null. */
export function bestRun(scores, mine) {
  return scores.find((entry) => entry.session && entry.session !== mine) ?? null;
}

/** The `/compare` address of `mine`'s run with `best`'s run over it as a ghost. */
export function ghostAddress(mine, best) {
  const query = new URLSearchParams({
    kind: "holes",
    variants: JSON.stringify([{ recording: mine }, { recording: best }]),
    view: "overlay",
  });
  return `/compare?${query}`;
}

/** How a ghost is named beside its link. */
export function ghostWords(entry) {
  return `(${entry.name}, level ${entry.level}, score ${entry.score}, as a ghost)`;
}
