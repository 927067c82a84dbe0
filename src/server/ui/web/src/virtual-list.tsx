import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { ComponentChildren, Ref } from "preact";

export interface VirtualListHandle {
  scrollToIndex(index: number): void;
}

/**
 * Renders only the rows in view (plus a margin) of a list of any length:
 * 20,000 units cost as much DOM as 30. Each row has a fixed height by kind,
 * so every row's offset is a prefix sum and the first visible row a binary
 * search — no measuring, no layout thrash while scrolling.
 */
export function VirtualList<T>({
  items,
  heightOf,
  render,
  label,
  handle,
  overscan = 600,
}: {
  items: readonly T[];
  heightOf: (item: T) => number;
  render: (item: T, index: number) => ComponentChildren;
  label: string;
  handle?: Ref<VirtualListHandle | null>;
  overscan?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  const offsets = useMemo(() => {
    const out = new Float64Array(items.length + 1);
    for (let i = 0; i < items.length; i++) out[i + 1] = out[i]! + heightOf(items[i]!);
    return out;
  }, [items]);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    setViewport(el.clientHeight);
    const onResize = () => setViewport(el.clientHeight);
    addEventListener("resize", onResize);
    return () => removeEventListener("resize", onResize);
  }, []);
  if (handle) {
    (handle as { current: VirtualListHandle | null }).current = {
      scrollToIndex(index: number) {
        if (box.current) box.current.scrollTop = offsets[Math.max(0, Math.min(index, items.length))]!;
      },
    };
  }
  const first = Math.max(0, indexAt(offsets, scrollTop - overscan));
  const last = Math.min(items.length, indexAt(offsets, scrollTop + viewport + overscan) + 1);
  const rows: ComponentChildren[] = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <div key={i} role="listitem" class="vrow" style={{ top: `${offsets[i]}px`, height: `${offsets[i + 1]! - offsets[i]!}px` }}>
        {render(items[i]!, i)}
      </div>,
    );
  }
  return (
    <div ref={box} class="vlist" role="list" aria-label={label} tabIndex={0} onScroll={(e) => setScrollTop((e.target as HTMLDivElement).scrollTop)} data-rendered={last - first}>
      <div style={{ height: `${offsets[items.length]}px`, position: "relative" }}>{rows}</div>
    </div>
  );
}

/** The last row starting at or before y. */
function indexAt(offsets: Float64Array, y: number): number {
  let lo = 0;
  let hi = offsets.length - 2;
  if (hi < 0) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
