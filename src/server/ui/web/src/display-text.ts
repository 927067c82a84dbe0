/**
 * Stored text shown in the inspector is a caller's text: it may hold Unicode
 * bidirectional controls (embeddings, overrides, isolates, marks), which make
 * the browser draw the characters after them in another order, so a label
 * "Forget session abc" can read as something else. Shown text has them
 * replaced with a visible placeholder ("⟨U+202E⟩"): what is displayed is what
 * is stored, in stored order. Only display: ids sent back to the API (hrefs,
 * option values, request paths) keep their stored value.
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

export function inertBidi(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}⟩`);
}

/** Attributes the browser shows as text (tooltips, labels read aloud, placeholders). */
const SHOWN_ATTRIBUTES = ["title", "aria-label", "alt", "placeholder", "label"] as const;

function inertChildren(children: unknown): unknown {
  if (typeof children === "string") return inertBidi(children);
  if (Array.isArray(children)) return children.map(inertChildren);
  return children;
}

/** What the hook reads of a vnode: structural, so this file needs no Preact import (Node's tests load it without the DOM types). */
interface VNodeLike {
  type: unknown;
  props: unknown;
}

/** Preact's option hooks, as far as installInertBidi uses them. */
export interface VNodeOptions {
  vnode?: ((vnode: never) => void) | undefined;
}

/** One vnode made inert in place: an element's text children and shown attributes, or a text node's string. */
export function inertVNode(vnode: VNodeLike): void {
  if (vnode.type === null && typeof vnode.props === "string") {
    vnode.props = inertBidi(vnode.props);
  } else if (typeof vnode.type === "string" && typeof vnode.props === "object" && vnode.props !== null) {
    const props = vnode.props as Record<string, unknown>;
    if ("children" in props) props.children = inertChildren(props.children);
    for (const name of SHOWN_ATTRIBUTES) if (typeof props[name] === "string") props[name] = inertBidi(props[name] as string);
  }
}

/**
 * Makes every text the app renders inert, in one place rather than at each of
 * the views' call sites (where one forgotten field would be the hole): a
 * Preact option hook (pass Preact's `options`) sees each vnode as it is
 * created, elements with their text children and shown attributes, and text
 * nodes (strings a component returns directly). Installed once, before the
 * first render.
 */
export function installInertBidi(options: VNodeOptions): void {
  const previous = options.vnode as ((vnode: VNodeLike) => void) | undefined;
  options.vnode = ((vnode: VNodeLike) => {
    inertVNode(vnode);
    previous?.(vnode);
  }) as (vnode: never) => void;
}
