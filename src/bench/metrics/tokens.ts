// The generator's token count lives with the other language tools (the
// evidence renderer budgets with it); metrics count with the very same function.
export { countTokens } from "../../language/count-tokens.js";
