// The line a tool's text adds for the variables a command did not get.
// corral keeps its own settings (CORRAL_*) from the commands it runs, as it
// keeps credential-shaped ones; the two are named apart, as `run
// --explain` names them, so CORRAL_STATE_DIR is not called a credential.

/** "not passed ..." lines (each after a line feed), or "" when nothing was withheld. */
export function withheldNote(names: readonly string[]): string {
  const own = names.filter((name) => /^CORRAL_/i.test(name));
  const credentials = names.filter((name) => !/^CORRAL_/i.test(name));
  return [
    ...(credentials.length > 0 ? [`\nnot passed (credential-shaped): ${credentials.join(", ")}`] : []),
    ...(own.length > 0 ? [`\nnot passed (corral's own settings): ${own.join(", ")}`] : []),
  ].join("");
}
