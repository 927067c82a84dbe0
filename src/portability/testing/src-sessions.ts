import type { SessionWithTurns } from "../../model/conversation.js";

/** Namespace "src": two sessions, four turns with dates to ground — what the export/import tests move. */
export const SRC_SESSIONS: SessionWithTurns[] = [
  {
    session: { id: "s1", namespace: "src", startTime: "2023-05-08T13:56:00.000Z", endTime: "2023-05-08T14:56:00.000Z", participants: ["Ana", "Ben"] },
    turns: [
      { id: "t1", speaker: "Ana", text: "I moved to Lisbon last August." },
      { id: "t2", speaker: "Ben", text: "How is the weather there in winter?" },
      { id: "t3", speaker: "Ana", text: "Mild, I went surfing on 2 January 2023." },
    ],
  },
  { session: { id: "s2", namespace: "src", startTime: "2023-06-01T09:00:00.000Z", endTime: "2023-06-01T09:00:00.000Z", participants: ["Ana"] }, turns: [{ id: "u1", speaker: "Ana", text: "Adopted a dog named Pico." }] },
];
