import type { Memory } from "../../../memory.js";

/**
 * A namespace of `sessions × perSession` units without anchoring or
 * embedding each one (which takes minutes at 20,000): one seed session is
 * ingested and exported, then cloned into an export of the size asked for
 * and imported — the units are real units of this store's embedder.
 */
export async function importBigNamespace(memory: Memory, namespace: string, sessions: number, perSession: number): Promise<number> {
  const seedNs = `${namespace}-seed`;
  const start = Date.UTC(2022, 0, 3, 9);
  await memory.ingest([
    {
      session: { id: "seed", namespace: seedNs, startTime: new Date(start).toISOString(), endTime: new Date(start).toISOString(), participants: ["Ana", "Bo"] },
      turns: Array.from({ length: perSession }, (_, i) => ({ id: `seed:${i}`, speaker: i % 2 ? "Bo" : "Ana", text: `Turn ${i}: we talked about the garden, the bees and plot ${i % 17}.` })),
    },
  ]);
  const [headerLine, sessionLine, ...unitLines] = await memory.exportNamespace(seedNs);
  const header = JSON.parse(headerLine!);
  const seedSession = JSON.parse(sessionLine!);
  const seedUnits = unitLines.map((l) => JSON.parse(l));
  const out: string[] = [JSON.stringify({ ...header, namespace, sessions, units: sessions * seedUnits.length })];
  for (let s = 0; s < sessions; s++) {
    const id = `b${s}`;
    const when = new Date(start + s * 86_400_000).toISOString();
    out.push(JSON.stringify({ ...seedSession, session: { ...seedSession.session, id, namespace, startTime: when, endTime: when }, contentHash: `${seedSession.contentHash}-${s}` }));
    for (const line of seedUnits) {
      const u = line.unit;
      const turnIds = u.provenance.turnIds.map((t: string) => t.replace(/^seed:/, `${id}:`));
      const text = `Session ${s}, ${u.content}`;
      out.push(
        JSON.stringify({
          ...line,
          unit: {
            ...u,
            id: `${u.id}-${id}`,
            namespace,
            content: text,
            context: { ...u.context, session: { sessionId: id, start: when, end: when } },
            provenance: { sessionId: id, turnIds },
            source: (u.source ?? []).map((t: { id?: string; text: string }) => ({ ...t, id: t.id?.replace(/^seed:/, `${id}:`), text: `Session ${s}: ${t.text}` })),
          },
        }),
      );
    }
  }
  await memory.forgetNamespace(seedNs);
  const report = await memory.importNamespace(out.join("\n"), { namespace });
  return report.units;
}
