// Placeholder: the Simulation target is being written.
enum SimulationPlaceholder {}
