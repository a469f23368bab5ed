/** What the dashboard draws: Safe text with a style. Nothing else reaches Ink's text nodes. */
import type { ReplicaColour } from "../../text/colour.js";
import type { Safe } from "../../text/safe-text.js";

export type Colour =
  | "red"
  | "green"
  | "yellow"
  | "blue"
  | "magenta"
  | "cyan"
  | "gray"
  | "black"
  | ReplicaColour;

export interface TextStyle {
  colour?: Colour | undefined;
  background?: Colour | undefined;
  dim?: boolean | undefined;
  bold?: boolean | undefined;
  inverse?: boolean | undefined;
}

export interface Segment extends TextStyle {
  text: Safe;
}
