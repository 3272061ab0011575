// Famous places for the explorer's bookmarks menu: centres as decimal strings (exact at any
// depth), zoom levels (the view's side is 3 / 2^zoom) and, where auto does not suit, a cap and
// a palette.

/** The bookmarks, in menu order. */
export const places = [
  { label: "Seahorse valley", x: "-0.7436438870371587", y: "0.1318259042053120", zoom: 12 },
  { label: "Elephant valley", x: "0.2925755", y: "-0.0149977", zoom: 11 },
  {
    label: "A minibrot in seahorse valley (1e-14)",
    x: "-0.743643887037158704752191506114774",
    y: "0.131825904205311970493132056385139",
    zoom: 47,
    // NB: its inside is iterated to the cap pixel by pixel (no interior test past level 42 yet),
    // so the cap is kept just above the slowest escapes around it (about 4,200).
    iterations: 5000,
  },
  {
    label: "Seahorse valley spirals (1e-30)",
    x: "-0.7385584711332440116355961177787006924376",
    y: "0.1383438194098955771982824957159986432903",
    zoom: 101,
  },
  // NB: escape counts here span only 267 to 299 (799 to 835 at 1e-300), which the classic
  // colours, linear in count / cap, barely tell apart. The smooth gradients place them a tenth
  // of a cycle apart, which for `ultra` is its black stop: the views were 99.9 % black (and
  // `auto` is classic at these caps, one flat orange). `fire` puts them on its red-to-orange
  // stretch, where the dendrite shows dark against a bright field
  // (Tests/integration/test_bookmark_tiles.py).
  {
    label: "The dendrite at c = i (1e-100)",
    x: "0",
    y: "1",
    zoom: 333,
    iterations: 400,
    palette: "fire",
  },
  {
    label: "The dendrite at c = i (1e-300)",
    x: "0",
    y: "1",
    zoom: 997,
    iterations: 1000,
    palette: "fire",
  },
];
