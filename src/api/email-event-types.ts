/**
 * The kinds of email event the email pane's filter cycles through (src/tui/state/ui-state.ts), in
 * a module of their own, without zod, so that `open` draws without loading the schemas.
 */
export const EMAIL_EVENT_TYPES = [
  "Send",
  "Delivery",
  "Bounce",
  "DeliveryDelay",
  "Complaint",
] as const;
