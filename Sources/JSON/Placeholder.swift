// Placeholder: the JSON target is being written.
enum JSONPlaceholder {}
