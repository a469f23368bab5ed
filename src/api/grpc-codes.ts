/**
 * gRPC status codes by name, as grpc-gateway writes them in Turnkey's error bodies (`code`), and
 * the HTTP status it maps each to. Code compares codes by these names, never by number.
 */
export const GrpcCode = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

export type GrpcCodeName = keyof typeof GrpcCode;
export type GrpcCodeNumber = (typeof GrpcCode)[GrpcCodeName];

/** The name of each code, by number. */
export const GRPC_CODE_NAMES: Readonly<Record<number, GrpcCodeName>> = Object.fromEntries(
  Object.entries(GrpcCode).map(([name, code]) => [code, name as GrpcCodeName]),
);

/** grpc-gateway's HTTP status for a code (codes it does not list answer 500). */
export const HTTP_STATUS_OF_CODE: Readonly<Partial<Record<GrpcCodeNumber, number>>> = {
  [GrpcCode.CANCELLED]: 499,
  [GrpcCode.INVALID_ARGUMENT]: 400,
  [GrpcCode.DEADLINE_EXCEEDED]: 504,
  [GrpcCode.NOT_FOUND]: 404,
  [GrpcCode.ALREADY_EXISTS]: 409,
  [GrpcCode.PERMISSION_DENIED]: 403,
  [GrpcCode.RESOURCE_EXHAUSTED]: 429,
  [GrpcCode.FAILED_PRECONDITION]: 400,
  [GrpcCode.ABORTED]: 409,
  [GrpcCode.UNIMPLEMENTED]: 501,
  [GrpcCode.INTERNAL]: 500,
  [GrpcCode.UNAVAILABLE]: 503,
  [GrpcCode.UNAUTHENTICATED]: 401,
};

/** The code a body without one stands for, by its HTTP status. */
export const CODE_OF_STATUS: Readonly<Record<number, GrpcCodeNumber>> = {
  400: GrpcCode.INVALID_ARGUMENT,
  401: GrpcCode.UNAUTHENTICATED,
  403: GrpcCode.PERMISSION_DENIED,
  404: GrpcCode.NOT_FOUND,
  409: GrpcCode.ABORTED,
  429: GrpcCode.RESOURCE_EXHAUSTED,
  499: GrpcCode.CANCELLED,
  500: GrpcCode.INTERNAL,
  501: GrpcCode.UNIMPLEMENTED,
  503: GrpcCode.UNAVAILABLE,
  504: GrpcCode.DEADLINE_EXCEEDED,
};
