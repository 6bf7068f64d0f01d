/** The admin inbox's filters and page size, shared by the screen and the server. */
export const MESSAGE_FILTERS = ['open', 'unread', 'handled', 'all'] as const
export type MessageFilter = (typeof MESSAGE_FILTERS)[number]
export const MESSAGES_PAGE_SIZE = 50
