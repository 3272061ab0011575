// Placeholder: the Playfield target is being written.
enum PlayfieldPlaceholder {}
