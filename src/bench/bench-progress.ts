/** Progress of a benchmark run; each phase names what it counts (turns ingested, questions recalled, answers scored). */
export type BenchProgress = (done: number, total: number, label: string, unit: "turns" | "questions" | "answers" | "conversations" | "vectors" | "blocks") => void;
