// The exit facts moved to lib/core/exit-facts.ts, where lib/native can import
// them without an arrow back into lib/spawn (a folder cycle). This re-export
// keeps today's importers unchanged until they are pointed at lib/core.
export * from "../core/exit-facts.ts";
