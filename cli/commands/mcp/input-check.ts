// A tool's arguments checked against its input schema before the tool runs,
// so every tool trusts the types it reads and a model gets one line naming
// the bad field and what would be right. Only the schema shapes the tools
// use are understood: string, integer (with minimum), boolean, arrays of
// strings, objects of strings, and anyOf of those.
import type { JsonSchema } from "./tool.ts";
import { ToolError } from "./tool.ts";

type Shape = { type?: string; minimum?: number; items?: Shape; anyOf?: Shape[]; properties?: Record<string, Shape>; additionalProperties?: Shape; minItems?: number };

/** Throws ToolError bad_request for the first field that does not fit. */
export function checkInput(tool: string, schema: JsonSchema, input: Record<string, unknown>): void {
  const properties = schema.properties as Record<string, Shape>;
  for (const [key, value] of Object.entries(input)) {
    const shape = properties[key];
    if (shape === undefined) {
      throw new ToolError("bad_request", `${tool} has no argument "${key}"; its arguments are ${Object.keys(properties).join(", ") || "none"}`);
    }
    const problem = misfit(shape, value);
    if (problem !== null) throw new ToolError("bad_request", `${tool}: "${key}" ${problem}`);
  }
  for (const key of schema.required ?? []) {
    if (!(key in input)) throw new ToolError("bad_request", `${tool} needs "${key}"`);
  }
}

function misfit(shape: Shape, value: unknown): string | null {
  if (shape.anyOf !== undefined) {
    return shape.anyOf.some((s) => misfit(s, value) === null) ? null : `must be ${shape.anyOf.map(describe).join(" or ")}`;
  }
  switch (shape.type) {
    case "string":
      return typeof value === "string" ? null : "must be a string";
    case "boolean":
      return typeof value === "boolean" ? null : "must be true or false";
    case "integer":
      if (typeof value !== "number" || !Number.isSafeInteger(value)) return "must be a whole number";
      return shape.minimum !== undefined && value < shape.minimum ? `must be at least ${shape.minimum}` : null;
    case "array":
      if (!Array.isArray(value)) return "must be an array";
      if (shape.minItems !== undefined && value.length < shape.minItems) return `must hold at least ${shape.minItems} item(s)`;
      return shape.items !== undefined && value.some((v) => misfit(shape.items as Shape, v) !== null) ? `must be ${describe(shape)}` : null;
    case "object": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return "must be an object";
      const add = shape.additionalProperties;
      if (add !== undefined && Object.values(value).some((v) => misfit(add, v) !== null)) return `must be an object of ${describe(add)} values`;
      if (shape.properties !== undefined) {
        for (const [k, v] of Object.entries(value)) {
          const inner = shape.properties[k];
          if (inner === undefined) return `has no field "${k}"; its fields are ${Object.keys(shape.properties).join(", ")}`;
          const p = misfit(inner, v);
          if (p !== null) return `field "${k}" ${p}`;
        }
      }
      return null;
    }
    default:
      return null;
  }
}

function describe(shape: Shape): string {
  if (shape.type === "array") return `an array of ${shape.items?.type ?? "value"}s`;
  return shape.type === "integer" ? "a whole number" : `a ${shape.type ?? "value"}`;
}
