/** `tvcwatch call`'s flags as commander parses them (declared in commands/call.ts). */
export interface CallFlags {
  body?: string;
  bodyFile?: string;
  generateAppProofs?: boolean;
  revealSecrets?: boolean;
  list?: boolean;
}
