// Shard 1 of the user-shaped scripts (test/scripts/script-harness.ts).
import { scriptTests } from "./script-harness.ts";

scriptTests(1);
