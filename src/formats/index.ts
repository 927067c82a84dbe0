export * from "./conversation-file.js";
export { readNativeJson, readNativeJsonl } from "./native.js";
export { readLocomo, parseEvidence } from "./locomo.js";
export { readLongMemEval, parseLongMemEvalDate, LONGMEMEVAL_NAMESPACE_PREFIX } from "./longmemeval.js";
export { parseDate, ACCEPTED_DATE_FORMATS } from "./shared.js";
