/**
 * compromise compiles a match string ("#Honorific+? #Person+", the dozen
 * splits behind `nouns()`) every time it is used, and it uses the same few
 * dozen strings on every parse: 10 % of anchoring a LoCoMo turn was spent
 * compiling them again (profile of 1,649 turns; 1.10× faster with this cache,
 * units identical).
 *
 * The cache is exact: compiling is a pure function of the string, and each
 * caller gets its own shallow copy of the compiled tokens, because compromise
 * itself mutates the top level of a compiled match in one place
 * (`growLeft`/`growRight` set `start`/`end` on it) and nowhere deeper. Only
 * option-free compiles are cached, and only the first CACHE_LIMIT strings: a
 * caller that matches on ever-new strings (the user's words) would otherwise
 * grow it without bound. Installed once per compromise instance.
 */
import nlp from "compromise";

const CACHE_LIMIT = 2_000;
const installed = new WeakSet<object>();

type ParseMatch = (this: unknown, match: unknown, opts: unknown, world: unknown) => unknown;

export function cacheMatchParsing(instance: typeof nlp = nlp): void {
  const methods = (instance as unknown as { world(): { methods: { one: { parseMatch: ParseMatch } } } }).world().methods.one;
  if (installed.has(methods)) return;
  installed.add(methods);
  const compile = methods.parseMatch;
  const cache = new Map<string, Array<Record<string, unknown>>>();
  methods.parseMatch = function (match, opts, world) {
    const optionFree = opts === undefined || opts === null || (typeof opts === "object" && Object.keys(opts).length === 0);
    if (typeof match !== "string" || !optionFree) return compile.call(this, match, opts, world);
    let compiled = cache.get(match);
    if (!compiled) {
      const fresh = compile.call(this, match, opts, world);
      if (!Array.isArray(fresh) || cache.size >= CACHE_LIMIT) return fresh;
      compiled = fresh as Array<Record<string, unknown>>;
      cache.set(match, compiled);
      // The first caller gets a copy too: the cached tokens are never handed out.
    }
    return compiled.map((token) => ({ ...token }));
  };
}
