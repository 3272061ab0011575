// Placeholder: the WebSocket target is being written.
enum WebSocketPlaceholder {}
