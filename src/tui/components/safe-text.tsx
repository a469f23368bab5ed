/**
 * The only component that hands text to Ink (biome's noRestrictedImports keeps Ink's Text out of
 * every other file): it takes Safe strings only, made by the one sanitizer, so a raw field from a
 * response cannot reach the terminal by way of a component. Colours are dropped when the user
 * asked for none (NO_COLOR); bold, dim and inverse stay.
 */
import { Text } from "ink";
import { createContext, useContext } from "react";
import type { Safe } from "../../text/safe-text.js";
import type { Segment, TextStyle } from "../rows/segment.js";

/** Whether colours are on (false under NO_COLOR). */
export const ColourContext = createContext(true);

function inkStyle(style: TextStyle, colour: boolean) {
  return {
    color: colour ? style.colour : undefined,
    backgroundColor: colour ? style.background : undefined,
    dimColor: style.dim,
    bold: style.bold,
    inverse: style.inverse,
  };
}

/** One line of Safe text in one style, cut at the box's edge. */
export function SafeText(props: TextStyle & { children: Safe; wrap?: "truncate-end" | "wrap" }) {
  const colour = useContext(ColourContext);
  return (
    <Text wrap={props.wrap ?? "truncate-end"} {...inkStyle(props, colour)}>
      {props.children}
    </Text>
  );
}

/** One line made of styled segments. */
export function Line(props: TextStyle & { segments: readonly Segment[] }) {
  const colour = useContext(ColourContext);
  return (
    <Text wrap="truncate-end" {...inkStyle(props, colour)}>
      {props.segments.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: segments of one line have no identity beyond their position
        <Text key={i} {...inkStyle(s, colour)}>
          {s.text}
        </Text>
      ))}
    </Text>
  );
}
