/**
 * A field list as typed (`tail --fields time,replica,msg`, the dashboard's column view, a saved
 * file's columns), read apart from the columns (./field-columns.ts): flags are read before any
 * column is made, and the columns load the terminal-width tables a flag does not need.
 */

/** The most fields a list names. */
export const MAX_FIELDS = 16;
/** The most characters of one field's name. */
const MAX_FIELD_NAME = 200;

/**
 * A field list as typed (`time,replica,msg,service,latencyMs`): names separated by commas, each
 * once; throws an Error with a one-line message naming what to fix.
 */
export function parseFieldList(text: string): string[] {
  const names = text.split(",").map((n) => n.trim());
  if (names.every((n) => n === ""))
    throw new Error("give the fields to show, separated by commas, e.g. time,replica,msg");
  if (names.length > MAX_FIELDS)
    throw new Error(`${names.length} fields: at most ${MAX_FIELDS} columns are shown`);
  const seen = new Set<string>();
  for (const [i, name] of names.entries()) {
    if (name === "")
      throw new Error(`field ${i + 1} is empty: separate field names by single commas`);
    if (name.length > MAX_FIELD_NAME)
      throw new Error(`field ${i + 1} is ${name.length} characters: at most ${MAX_FIELD_NAME}`);
    if (/\s/.test(name))
      throw new Error(`field ${JSON.stringify(name)} holds a space: separate fields by commas`);
    if (seen.has(name)) throw new Error(`field ${JSON.stringify(name)} is named twice`);
    seen.add(name);
  }
  return names;
}
