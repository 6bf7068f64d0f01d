/** An event's status, in a module of its own so that a form can read it without the database schema. */
export const EVENT_STATUSES = ['scheduled', 'sold_out', 'postponed', 'cancelled'] as const
export type EventStatus = (typeof EVENT_STATUSES)[number]
