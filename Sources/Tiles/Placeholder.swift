// Placeholder: the Tiles target is being written.
enum TilesPlaceholder {}
