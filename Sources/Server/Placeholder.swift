// Placeholder: the Server target is being written.
enum ServerPlaceholder {}
