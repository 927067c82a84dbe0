export * from "./time.js";
export * from "./conversation.js";
export * from "./memory-unit.js";
export * from "./recall.js";
export * from "./errors.js";
export * from "./recall-frame.js";
export * from "./stored-text.js";
export * from "./echo-value.js";
