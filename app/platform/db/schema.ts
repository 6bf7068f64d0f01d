/*
 * The whole database schema, one import for the app, drizzle-kit and the tests. The tables live in
 * one file per area; a feature's file depends only on the base tables it references.
 */
// Accounts, outbox, rate limits, events and media, setlists.
export * from './base-schema.ts'
// Redeemable codes (features/codes).
export * from './codes-schema.ts'
// Contact messages and audience figures (features/contact, features/stats).
export * from './contact-schema.ts'
// The newsletter (features/newsletter).
export * from './newsletter-schema.ts'
