/** An error the simulator answers with, in Turnkey's grpc-gateway body shape. */
const HTTP_STATUS_OF_CODE: Readonly<Record<number, number>> = {
  1: 499,
  3: 400,
  4: 504,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400,
  10: 409,
  12: 501,
  13: 500,
  14: 503,
  16: 401,
};

export interface FieldViolation {
  field: string;
  description: string;
}

export class SimError extends Error {
  readonly code: number;
  readonly turnkeyErrorCode: string | undefined;
  readonly fieldViolations: FieldViolation[];

  constructor(
    code: number,
    message: string,
    init: { turnkeyErrorCode?: string; fieldViolations?: FieldViolation[] } = {},
  ) {
    super(message);
    this.code = code;
    this.turnkeyErrorCode = init.turnkeyErrorCode;
    this.fieldViolations = init.fieldViolations ?? [];
  }

  get httpStatus(): number {
    return HTTP_STATUS_OF_CODE[this.code] ?? 500;
  }

  body(): { code: number; message: string; details: unknown[] } {
    const details: unknown[] = [];
    if (this.turnkeyErrorCode) {
      details.push({
        "@type": "type.googleapis.com/errors.v1.TurnkeyErrorDetail",
        turnkeyErrorCode: this.turnkeyErrorCode,
      });
    }
    if (this.fieldViolations.length > 0) {
      details.push({
        "@type": "type.googleapis.com/google.rpc.BadRequest",
        fieldViolations: this.fieldViolations,
      });
    }
    return { code: this.code, message: this.message, details };
  }
}

export const invalidArgument = (message: string, field?: string) =>
  new SimError(3, message, field ? { fieldViolations: [{ field, description: message }] } : {});
export const notFound = (message: string) => new SimError(5, message);
export const failedPrecondition = (message: string) => new SimError(9, message);
export const unauthenticated = (message: string) => new SimError(16, message);
export const permissionDenied = (message: string) => new SimError(7, message);
