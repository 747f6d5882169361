/** Turns one restored value into a value of the type declared now; pure, and the identity on values already of that type. */
export type Migration = (value: unknown) => unknown;
