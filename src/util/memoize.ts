/**
 * `f` remembered per argument (by identity, as a Map key), for as long as the
 * returned function is kept: for a pure function asked again and again
 * within one call, such as what each pool unit's speaker says of themselves
 * inside one recall's evidence judgment, or which stated slots answer a
 * question's while its slot table is laid out.
 */
export function memoize<A, R>(f: (arg: A) => R): (arg: A) => R {
  const memo = new Map<A, R>();
  return (arg) => {
    if (memo.has(arg)) return memo.get(arg)!;
    const value = f(arg);
    memo.set(arg, value);
    return value;
  };
}
