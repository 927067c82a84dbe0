/**
 * A term's postings in one namespace and the rowid → slot map they are read
 * through: the in-memory lexical index's (lexical-index.ts) storage, apart
 * from how it is kept consistent and ranked.
 */

/** A cue instance counts half a content one: the store's bm25(fts, 1.0, 0.5, …) column weights. */
export const CUE_WEIGHT = 0.5;

/**
 * A term's instance list as postings: each unit's slot once, with its bm25
 * frequency (content instances + CUE_WEIGHT × cue instances; the same sums
 * SQL's GROUP BY made: halves, exact in 32-bit floats), and how many units holding it lie
 * outside the namespace (no slot). An instance is the unit's rowid for one
 * in content, minus it for one in cue (rowids are positive). FTS5 hands them
 * out in doclist order (by rowid), so a unit's instances are adjacent and
 * one pass sums them; should they not be, they are summed by unit all the
 * same, in rowid order. One pass over a plain integer array, with the slots
 * looked up in an array: at 1M units the first read of a term in 270k of
 * them cost ~200 ms, two thirds of it JavaScript.
 */
export function unitPostings(instances: readonly number[], slotOf: { get(rowid: number): number }): UnitPostings {
  // Typed arrays filled in place: pushing onto number arrays cost ~70 ns a posting (growth, doubles), this ~5.
  const slots = new Int32Array(instances.length);
  const freqs = new Float32Array(instances.length);
  let length = 0;
  let outside = 0;
  let last = 0;
  let inside = false;
  for (let i = 0; i < instances.length; i++) {
    const signed = instances[i]!;
    if (signed === 0) continue;
    const rowid = signed < 0 ? -signed : signed;
    const weight = signed > 0 ? 1.0 : CUE_WEIGHT;
    if (rowid === last) {
      if (inside) freqs[length - 1]! += weight;
      continue;
    }
    if (rowid < last) return unitPostingsUnordered(instances, slotOf);
    last = rowid;
    const slot = slotOf.get(rowid);
    inside = slot >= 0;
    if (!inside) outside++;
    else {
      slots[length] = slot;
      freqs[length++] = weight;
    }
  }
  return { slots, freqs, length, outside };
}

function unitPostingsUnordered(instances: readonly number[], slotOf: { get(rowid: number): number }): UnitPostings {
  const freqOf = new Map<number, number>();
  for (const signed of instances) if (signed !== 0) freqOf.set(Math.abs(signed), (freqOf.get(Math.abs(signed)) ?? 0) + (signed > 0 ? 1.0 : CUE_WEIGHT));
  const sorted = [...freqOf].sort((a, b) => a[0] - b[0]);
  const postings: UnitPostings = { slots: new Int32Array(sorted.length), freqs: new Float32Array(sorted.length), length: 0, outside: 0 };
  for (const [rowid, freq] of sorted) {
    const slot = slotOf.get(rowid);
    if (slot < 0) postings.outside++;
    else appendPosting(postings, slot, freq);
  }
  return postings;
}

/** A term's postings in a namespace: the first `length` entries of `slots` and `freqs` (room to append), and the units outside it. */
export interface UnitPostings {
  slots: Int32Array;
  freqs: Float32Array;
  length: number;
  outside: number;
}

export function appendPosting(p: UnitPostings, slot: number, freq: number): void {
  if (p.length === p.slots.length) {
    const capacity = Math.max(16, 2 * p.length);
    const slots = new Int32Array(capacity);
    const freqs = new Float32Array(capacity);
    slots.set(p.slots);
    freqs.set(p.freqs);
    p.slots = slots;
    p.freqs = freqs;
  }
  p.slots[p.length] = slot;
  p.freqs[p.length++] = freq;
}

/**
 * A namespace's rowid → document slot (-1: none). A namespace's units are
 * mostly written together, so their rowids lie close: an array indexed by
 * rowid − base while the rowids span at most DENSE_SPREAD × the units (a
 * Map lookup over 1M rowids cost ~200 ns, mostly cache misses); a Map past
 * that.
 */
export class SlotsByRowid {
  private map: Map<number, number> | null = null;
  private dense = new Int32Array(0);
  private base = 0;
  private size = 0;

  get(rowid: number): number {
    if (this.map) return this.map.get(rowid) ?? -1;
    const i = rowid - this.base;
    return i >= 0 && i < this.dense.length ? this.dense[i]! : -1;
  }

  set(rowid: number, slot: number): void {
    if (this.get(rowid) < 0) this.size++;
    if (!this.map && !this.fits(rowid)) this.map = this.toMap();
    if (this.map) this.map.set(rowid, slot);
    else this.dense[rowid - this.base] = slot;
  }

  delete(rowid: number): void {
    if (this.get(rowid) < 0) return;
    this.size--;
    if (this.map) this.map.delete(rowid);
    else this.dense[rowid - this.base] = -1;
  }

  /** Makes room for `rowid` in the array, when the span stays dense enough; false when it would not. */
  private fits(rowid: number): boolean {
    if (this.dense.length === 0) {
      this.base = rowid;
      this.dense = new Int32Array(1024).fill(-1);
      return true;
    }
    const i = rowid - this.base;
    if (i >= 0 && i < this.dense.length) return true;
    const lo = Math.min(this.base, rowid);
    const hi = Math.max(this.base + this.dense.length - 1, rowid);
    if (hi - lo + 1 > DENSE_SPREAD * this.size + 1024) return false;
    // Doubled on the growing side, so a namespace written in order grows the array log-many times.
    const length = Math.max(hi - lo + 1, 2 * this.dense.length);
    const start = rowid < this.base ? hi + 1 - length : lo;
    const grown = new Int32Array(length).fill(-1);
    grown.set(this.dense, this.base - start);
    this.dense = grown;
    this.base = start;
    return true;
  }

  private toMap(): Map<number, number> {
    const map = new Map<number, number>();
    for (let i = 0; i < this.dense.length; i++) if (this.dense[i]! >= 0) map.set(this.base + i, this.dense[i]!);
    this.dense = new Int32Array(0);
    return map;
  }
}

/** How far a namespace's rowids may spread (span ÷ units) for its slots to be kept in an array. */
const DENSE_SPREAD = 4;
