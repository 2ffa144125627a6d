// What a command line that names no command to run is told: the same words
// from collect's own check and from run's, whose parser requires one.
export const NO_COMMAND = "no command given; put it after --, e.g. corral run -- make test";
