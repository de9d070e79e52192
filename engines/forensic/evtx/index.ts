// Public surface of the EVTX parser: streaming readers, record and warning types, the crate-shaped renderers.
export { EvtxParser, parseEvtx, DEFAULT_LIMITS, FILE_HEADER_SIZE } from './parser.js';
export type { EvtxFileHeader, EvtxLimits, EvtxOptions, EvtxReader, EvtxSummary } from './parser.js';
export { CHUNK_SIZE } from './chunk.js';
export { dataOfParts, userSidOfParts } from './data.js';
export type { EvtxRecord, EvtxWarning, EvtxWarningCode } from './chunk.js';
export type { JsonAttributes, JsonObject, JsonValue } from './render.js';
