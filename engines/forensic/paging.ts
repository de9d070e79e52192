// The page sizes of GET /api/cases/{id}'s events (shared by the route, its OpenAPI document and tests).

/** Events a case answer holds unless asked for another page size (`events_limit`). */
export const EVENTS_PAGE_DEFAULT = 1000;
/** Largest `events_limit`: a bigger answer is read page by page (`events_offset`). */
export const EVENTS_PAGE_MAX = 10_000;
