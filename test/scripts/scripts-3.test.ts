// Shard 3 of the user-shaped scripts (test/scripts/script-harness.ts).
import { scriptTests } from "./script-harness.ts";

scriptTests(3);
