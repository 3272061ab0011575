// Placeholder: the Storage target is being written.
enum StoragePlaceholder {}
