/** An error the simulator answers with, in Turnkey's grpc-gateway body shape. */
import { GrpcCode, HTTP_STATUS_OF_CODE } from "../../api/grpc-codes.js";

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
    return (HTTP_STATUS_OF_CODE as Readonly<Record<number, number>>)[this.code] ?? 500;
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
  new SimError(
    GrpcCode.INVALID_ARGUMENT,
    message,
    field ? { fieldViolations: [{ field, description: message }] } : {},
  );
export const notFound = (message: string) => new SimError(GrpcCode.NOT_FOUND, message);
export const failedPrecondition = (message: string) =>
  new SimError(GrpcCode.FAILED_PRECONDITION, message);
export const unauthenticated = (message: string) => new SimError(GrpcCode.UNAUTHENTICATED, message);
export const permissionDenied = (message: string) =>
  new SimError(GrpcCode.PERMISSION_DENIED, message);
