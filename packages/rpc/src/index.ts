export * from './proto.ts';
export * from './errors.ts';
export * from './messages.ts';
