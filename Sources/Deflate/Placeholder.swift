// Placeholder: the Deflate target is being written.
enum DeflatePlaceholder {}
